// Dominds' control tools (issue 46, item 3): a `.minds/` team's root dialog calls recall_taskdoc,
// do_mind, mind_more, never_mind and set_dialog_goal under Dominds' names and arguments, over
// Parley's Taskdoc and reminders; answers in Dominds' texts; a bad argument names the field.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "parley/config/team.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/dominds_control.hpp"
#include "parley/engine/engine.hpp"
#include "parley/engine/team_problems.hpp"
#include "parley/store/store.hpp"
#include "unit/config/temp_tree.hpp"
#include "unit/dominds/scripted_minds_run.hpp"

namespace parley::engine {
namespace {

std::string control_file_text(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

constexpr std::string_view kControlScript = R"(members:
  dev:
    - when: {round: 1}
      emit:
        - tool_call: {name: do_mind, arguments: {selector: goals, content: "Ship the parser."}}
        - tool_call: {name: recall_taskdoc, arguments: {selector: goals}}
        - tool_call: {name: mind_more, arguments: {items: ["step 1", "step 2"]}}
        - tool_call: {name: do_mind, arguments: {selector: goals, content: "Again."}}
        - tool_call: {name: recall_taskdoc, arguments: {selector: contracts, category: bearinmind}}
        - tool_call: {name: set_dialog_goal, arguments: {mode: goal, goal: "Parse the headers"}}
    - when: {round: 2}
      emit:
        - tool_call: {name: never_mind, arguments: {selector: progress}}
        - tool_call: {name: recall_taskdoc, arguments: {selector: progress}}
        - tool_call: {name: set_dialog_goal, arguments: {mode: follow_taskdoc}}
        - tool_call: {name: set_dialog_goal, arguments: {mode: goal}}
    - emit: [{saying: "Done."}]
)";

TEST(DomindsControl, ARootDialogKeepsItsTaskdocAndGoalWithDomindsTools) {
  ::setenv("LANG", "C.UTF-8", 1);
  config::testing::temp_tree tree;
  tree.write(".minds/llm.yaml", "providers:\n  local:\n    apiType: openai-compatible\n    models: [m]\n");
  tree.write(
      ".minds/team.yaml",
      "member_defaults:\n  provider: local\n  model: m\n  tools: [do_mind, recall_taskdoc]\nmembers:\n  dev: {}\n");
  auto team = config::load_dominds_workspace(tree.root());
  ASSERT_TRUE(team) << team.err().message;
  settle_team_problems(*team, build_builtin_tools(*team));
  EXPECT_TRUE(team->problems.empty()) << ::testing::PrintToString(config::problem_texts(team->problems));
  auto run = testing::run_scripted_minds_dialog(tree, std::move(*team), kControlScript);
  ASSERT_NE(run.eng, nullptr);
  const auto results = run.tool_results();
  ASSERT_EQ(results.size(), 10U) << ::testing::PrintToString(results);
  EXPECT_EQ(results[0], "Mind changed");
  EXPECT_EQ(results[1].rfind("**recall_taskdoc:** `goals.md`\ncontent_hash: `", 0), 0U) << results[1];
  EXPECT_NE(results[1].find("`\n\n---\nShip the parser.\n---"), std::string::npos) << results[1];
  EXPECT_EQ(results[2], "Mind changed");
  EXPECT_EQ(results[3].rfind("Cannot add: `goals.md` already exists.", 0), 0U) << results[3];
  EXPECT_EQ(results[4].rfind("Error: category: Parley's Taskdoc has only the top-level sections", 0), 0U) << results[4];
  EXPECT_EQ(results[5], "Recorded the goal for this Main Dialog.");
  EXPECT_EQ(results[6], "Deleted");
  EXPECT_EQ(results[7].rfind("Not found: `progress.md`.", 0), 0U) << results[7];
  EXPECT_EQ(results[8], "Recorded the goal for this Main Dialog: proceed from the Taskdoc.");
  EXPECT_EQ(results[9], "Error: mode=\"goal\" requires a non-empty goal.");
  EXPECT_EQ(control_file_text(tree.root() / "work.tsk" / "goals.md"), "Ship the parser.");
  EXPECT_EQ(control_file_text(tree.root() / "work.tsk" / "progress.md"), "");
  // The goal is one reminder, replaced by the second call (Dominds keeps it as a reminder too).
  const dialog_runtime* dialog = run.eng->find(run.id);
  ASSERT_NE(dialog, nullptr);
  const auto& reminders = dialog->state().reminders;
  ASSERT_EQ(reminders.size(), 1U);
  EXPECT_NE(reminders[0].find("Goal of this Main Dialog: proceed from the Taskdoc."), std::string::npos);
}

TEST(DomindsControl, OnlyAMindsTeamAndOnlyItsRootsAreOfferedTheWritingTools) {
  const auto& root = dominds_control_specs_for(dialog_place::root);
  const auto& sub = dominds_control_specs_for(dialog_place::sub);
  EXPECT_EQ(root.size(), 6U);
  ASSERT_EQ(sub.size(), 2U);
  EXPECT_EQ(sub[0].name, "recall_taskdoc");
  EXPECT_EQ(sub[1].name, "migrate_reminder");  // reminders are every dialog's
  EXPECT_TRUE(dominds_control_specs_for(dialog_place::fbr).empty());
  for (const auto& spec : root) {
    EXPECT_EQ(spec.description.find("(no spec)"), std::string::npos) << spec.name;
    EXPECT_TRUE(spec.parameters.contains("properties")) << spec.name;
  }
  EXPECT_TRUE(root[2].parameters.at("properties").as_object().contains("items"));  // mind_more, Dominds' arguments
  EXPECT_FALSE(dialog_tool_specs(dialog_place::root, false).empty());
  for (const auto& spec : dialog_tool_specs(dialog_place::root, false)) {
    EXPECT_FALSE(is_dominds_control_tool(spec.name)) << spec.name;  // Parley's own format: not offered
  }
  EXPECT_NE(dominds_control_main_only("do_mind").find("only available in the Main Dialog"), std::string::npos);
}

}  // namespace
}  // namespace parley::engine
