// engine::replace_team (docs/team-yaml.md "Reloading"): a team the engine would refuse changes
// nothing and is a problem until a good one comes; a good one is swapped in for the next lookup of
// every member, while the member a drive under way holds stays as it was.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>

#include "engine_test_support.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/engine.hpp"

namespace parley::engine {
namespace {

using testing::kOneMemberTeam;
using testing::temp_team;

// The parts replace_team swaps in: `team` with its providers and the built-in tools.
result<team_parts> team_reload_parts(const config::team_config& team) {
  auto providers = build_providers(team);
  if (!providers) return std::move(providers).err();
  return team_parts{team, std::move(*providers), build_builtin_tools()};
}

TEST(TeamReload, ARefusedTeamChangesNothingAndAGoodOneIsSwappedIn) {
  boost::asio::io_context io;
  temp_team files(kOneMemberTeam, "members: {lead: [{emit: [{saying: ok}]}]}\n");
  const auto team = files.load();
  auto log = make_memory_store();
  auto made = engine::create(io.get_executor(), *log, team, build_providers(team).value(), build_builtin_tools());
  ASSERT_TRUE(made) << made.err().message;
  auto& eng = **made;
  const member_setup* held = eng.members().find("lead");  // as a drive under way holds it
  ASSERT_NE(held, nullptr);

  // A member on a provider that is not configured: refused, nothing changes, a problem says why.
  auto broken = team;
  broken.members.at(0).provider = "nowhere";
  const auto refused = eng.replace_team([&]() -> result<team_parts> {
    auto parts = team_reload_parts(team);
    if (parts) parts->team = broken;
    return parts;
  });
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.err().message.find("provider 'nowhere'"), std::string::npos) << refused.err().message;
  EXPECT_EQ(eng.team().find_member("lead")->provider, "offline");
  EXPECT_EQ(eng.members().find("lead"), held);
  ASSERT_EQ(eng.problems().size(), 1U);
  EXPECT_NE(eng.problems().at(0).why.find("the last good team runs"), std::string::npos);

  // A good one: the next lookup finds the new persona; the held member still reads the old one.
  auto edited = team;
  edited.members.at(0).persona = "You follow.";
  const auto swapped = eng.replace_team([&] { return team_reload_parts(edited); });
  ASSERT_TRUE(swapped) << swapped.err().message;
  EXPECT_EQ(eng.team().find_member("lead")->persona, "You follow.");
  EXPECT_EQ(eng.members().find("lead")->config->persona, "You follow.");
  EXPECT_EQ(held->config->persona, "You lead.");
  EXPECT_TRUE(eng.problems().empty());
  eng.stop_mcp();
}

}  // namespace
}  // namespace parley::engine
