// The built-in tools a team gets follow where it was loaded from (issue 46, item 3): Dominds' tool
// names for a `.minds/` team, Parley's for Parley's own team file.
#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <algorithm>
#include <cstdlib>

#include "parley/config/team.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/engine.hpp"
#include "parley/store/store.hpp"
#include "unit/config/temp_tree.hpp"

namespace parley::engine {
namespace {

namespace asio = boost::asio;

bool has(const std::vector<std::string>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

TEST(DomindsToolNamesByOrigin, AMindsTeamGetsDomindsNames) {
  config::team_config team;
  team.source = "/work/ws/.minds/team.yaml";
  ASSERT_TRUE(is_dominds_team(team));
  const auto tools = build_builtin_tools(team);
  EXPECT_NE(tools.find("ripgrep_snippets"), nullptr);
  EXPECT_NE(tools.find("overwrite_entire_file"), nullptr);
  EXPECT_NE(tools.find("add_personal_memory"), nullptr);
  const auto ws_read = tools.resolve_toolsets({"ws_read"});
  ASSERT_TRUE(ws_read) << ws_read.err().message;
  EXPECT_TRUE(has(*ws_read, "ripgrep_snippets"));
  EXPECT_FALSE(has(*ws_read, "search_files"));
  const auto managed = tools.resolve_toolsets({"team_mgmt"});
  ASSERT_TRUE(managed) << managed.err().message;
  EXPECT_TRUE(has(*managed, "team_mgmt_overwrite_entire_file"));
  // The scratch pads are the engine's dialog tools (dominds_pads.hpp), in ws_mod as in Dominds.
  const auto ws_mod = tools.resolve_toolsets({"ws_mod"});
  ASSERT_TRUE(ws_mod) << ws_mod.err().message;
  EXPECT_TRUE(has(*ws_mod, "pad_write"));
  EXPECT_TRUE(has(*ws_mod, "pad_delete"));
}

TEST(DomindsToolNamesByOrigin, ParleysTeamFileKeepsParleysNames) {
  config::team_config team;
  team.source = "/work/ws/team.yaml";
  ASSERT_FALSE(is_dominds_team(team));
  const auto tools = build_builtin_tools(team);
  EXPECT_EQ(tools.find("ripgrep_snippets"), nullptr);
  EXPECT_EQ(tools.find("add_personal_memory"), nullptr);
  const auto ws_read = tools.resolve_toolsets({"ws_read"});
  ASSERT_TRUE(ws_read) << ws_read.err().message;
  EXPECT_EQ(*ws_read, (std::vector<std::string>{"list_dir", "read_file", "search_files"}));
  EXPECT_FALSE(tools.resolve_toolsets({"team_mgmt"}));
}

class DomindsToolNamesDriven : public ::testing::Test {
 protected:
  void SetUp() override {
    ::setenv("LANG", "C.UTF-8", 1);
    tree_.write(".minds/llm.yaml", "providers:\n  local:\n    apiType: openai-compatible\n    models: [m]\n");
  }
  // The workspace's team with its provider replaced by the scripted model running `script`.
  config::team_config scripted_team(std::string_view script) {
    auto team = config::load_dominds_workspace(tree_.root());
    EXPECT_TRUE(team) << team.err().message;
    if (!team) return {};
    tree_.write("script.yaml", script);
    for (auto& provider : team->providers) {
      provider = config::provider_config{};
      provider.id = "local";
      provider.kind = config::provider_kind::scripted;
      provider.script = tree_.root() / "script.yaml";
    }
    return std::move(team).value();
  }
  config::testing::temp_tree tree_;
};

// The whole path: the team from .minds/, the engine built with build_builtin_tools(team), a model
// calling ripgrep_snippets and read_file with Dominds' arguments; add_reminder in `tools:` is a
// dialog tool, accepted.
TEST_F(DomindsToolNamesDriven, AModelCallsDomindsToolsByTheirNames) {
  tree_.write(".minds/team.yaml",
              "member_defaults:\n  provider: local\n  model: m\n  toolsets: [ws_read]\n  tools: [add_reminder]\n"
              "members:\n  dev: {}\n");
  tree_.write("src/a.txt", "alpha\nneedle here\n");
  const auto team = scripted_team(R"(members:
  dev:
    - when: {round: 1}
      emit:
        - tool_call: {name: ripgrep_snippets, arguments: {pattern: needle, path: src}}
        - tool_call: {name: read_file, arguments: {path: src/a.txt, range: "2~2"}}
    - emit: [{saying: "Found."}]
)");
  asio::io_context io;
  auto log = make_memory_store();
  auto providers = build_providers(team);
  ASSERT_TRUE(providers) << providers.err().message;
  auto eng = engine::create(io.get_executor(), *log, team, std::move(*providers), build_builtin_tools(team));
  ASSERT_TRUE(eng) << eng.err().message;
  std::string id;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        new_dialog spec{"dev", "", ""};
        spec.first_message = "Find the needle.";
        id = (co_await (*eng)->create_root_dialog(std::move(spec))).value();
        co_await (*eng)->runs().wait_until_idle(id);
      },
      asio::detached);
  io.run();
  std::vector<std::string> results;
  for (const auto& msg : log->messages(id, 1).value()) {
    if (msg.role == parley::events::message_role::tool) results.push_back(msg.content);
  }
  ASSERT_EQ(results.size(), 2U);
  EXPECT_NE(results[0].find("  - path: 'src/a.txt'\n    line: 2\n    match: 'needle here'"), std::string::npos)
      << results[0];
  EXPECT_NE(results[1].find("   2| needle here"), std::string::npos) << results[1];
}

}  // namespace
}  // namespace parley::engine
