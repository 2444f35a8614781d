// The built-in tools a team gets follow where it was loaded from (issue 46, item 3): Dominds' tool
// names for a `.minds/` team, Parley's for Parley's own team file.
#include <gtest/gtest.h>

#include <algorithm>

#include "parley/engine/assembly.hpp"

namespace parley::engine {
namespace {

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
  ASSERT_NE(tools.unavailable_tool("pad_write"), nullptr);
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

}  // namespace
}  // namespace parley::engine
