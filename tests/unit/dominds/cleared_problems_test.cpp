// Problems cleared with team_mgmt_clear_problems (config/cleared_problems.hpp) as the engine
// lists them: a team assembled from `.minds/` leaves out the problems `.minds/problems-cleared.yaml`
// names — those found when its tools are settled included — while they stay the same, and never
// one that keeps a member from running. What GET /api/problems and the start line show.
#include <gtest/gtest.h>

#include "parley/config/cleared_problems.hpp"
#include "parley/config/team.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/team_problems.hpp"
#include "unit/config/temp_tree.hpp"

namespace parley::engine {
namespace {

constexpr std::string_view kClearedLlm =
    "providers:\n  local:\n    apiType: openai-compatible\n    baseUrl: http://127.0.0.1:9/v1\n    models: [m]\n";

std::vector<config::problem> settled_problems(const config::testing::temp_tree& tree) {
  auto team = config::load_dominds_workspace(tree.root());
  EXPECT_TRUE(team) << team.err().message;
  if (!team) return {};
  settle_team_problems(*team, build_builtin_tools(*team));
  return team->problems;
}

TEST(ClearedProblems, TheEngineLeavesOutAcknowledgedProblemsWhileTheyStayTheSame) {
  config::testing::temp_tree tree;
  tree.write(".minds/llm.yaml", std::string(kClearedLlm));
  tree.write(".minds/team.yaml",
             "members:\n  dev:\n    provider: local\n    toolsets: [ws_read, fs_read]\n"
             "  other:\n    provider: nowhere\n    model: m\n");
  const auto before = settled_problems(tree);
  ASSERT_EQ(before.size(), 2U) << ::testing::PrintToString(config::problem_texts(before));
  ASSERT_TRUE(before[0].blocks_member);
  ASSERT_EQ(before[1].what, "members.dev.toolsets");
  std::vector<config::cleared_problem> entries;
  for (const auto& found : before) entries.push_back(config::cleared_entry(found, tree.root()));
  EXPECT_EQ(entries[1].file, "team.yaml");
  ASSERT_TRUE(config::write_cleared_problems(tree.root(), entries));
  const auto after = settled_problems(tree);
  ASSERT_EQ(after.size(), 1U) << ::testing::PrintToString(config::problem_texts(after));
  EXPECT_EQ(after[0].member, "other");  // it keeps a member from running: never hidden
  // Another toolset left out is another problem: listed again.
  tree.write(".minds/team.yaml",
             "members:\n  dev:\n    provider: local\n    toolsets: [ws_read, fs_write]\n"
             "  other:\n    provider: nowhere\n    model: m\n");
  const auto changed = settled_problems(tree);
  ASSERT_EQ(changed.size(), 2U) << ::testing::PrintToString(config::problem_texts(changed));
  EXPECT_NE(changed[1].why.find("fs_write"), std::string::npos) << changed[1].why;
}

}  // namespace
}  // namespace parley::engine
