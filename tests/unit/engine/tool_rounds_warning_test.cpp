// What a model is told as its drive nears max_tool_rounds: nothing at first, then how many rounds
// are left, then that this round is the last — in the team's language.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>

#include "engine_test_support.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/dialog_runtime.hpp"
#include "parley/engine/engine.hpp"
#include "support/typed_events.hpp"

namespace parley::engine {
namespace {

using testing::temp_team;

std::string system_prompt_at(const std::string& team_yaml, std::int64_t round) {
  temp_team files(team_yaml, "members:\n  lead:\n    - emit: [{saying: ok}]\n");
  boost::asio::io_context io;
  auto log = make_memory_store();
  auto eng = engine::create(io.get_executor(), *log, files.load(), build_providers(files.load()).value(),
                            build_builtin_tools());
  EXPECT_TRUE(eng.has_value());
  if (!eng) return {};
  auto dialog = dialog_runtime::replay(
      {test::typed_event("d", "d", 1, event_type::dialog_created, {{"memberId", "lead"}, {"kind", "root"}}, 0)});
  EXPECT_TRUE(dialog.has_value());
  auto request = (*eng)->members().model_request_for(**dialog, round);
  EXPECT_TRUE(request.has_value());
  return request ? request->system_prompt : std::string();
}

constexpr const char* kRoundsTeam =
    "version: 1\nproviders:\n  offline: {kind: scripted, script: script.yaml}\n"
    "members:\n  lead: {persona: p, provider: offline, model: m, toolsets: [basic], max_tool_rounds: 4}\n";

TEST(ToolRoundsWarning, TheLastRoundsOfADriveSayHowManyAreLeft) {
  EXPECT_EQ(system_prompt_at(kRoundsTeam, 1).find("max_tool_rounds"), std::string::npos);
  EXPECT_EQ(system_prompt_at(kRoundsTeam, 2).find("max_tool_rounds"), std::string::npos);
  EXPECT_NE(system_prompt_at(kRoundsTeam, 3)
                .find("## Rounds running out\n1 more round(s) after this one (max_tool_rounds = 4)"),
            std::string::npos);
  EXPECT_NE(system_prompt_at(kRoundsTeam, 4)
                .find("## Last round\nThis is the last model round of this drive "
                      "(max_tool_rounds = 4): call no more tools"),
            std::string::npos);
}

TEST(ToolRoundsWarning, ATeamInChineseIsToldInChinese) {
  const std::string chinese = std::string(kRoundsTeam).replace(0, 10, "version: 1\nlanguage: zh\n");
  EXPECT_NE(system_prompt_at(chinese, 4).find("这是本次驱动的最后一轮（max_tool_rounds = 4）"), std::string::npos);
}

}  // namespace
}  // namespace parley::engine
