// Dominds' reminder arguments (issue 46, item 3): a `.minds/` team's dialog calls add_reminder,
// update_reminder and delete_reminder with reminder_id, scope and render_mode; what Parley honours is
// done and answered in Dominds' words, what it cannot is refused naming the field and changes nothing.
// Parley's own team format keeps reminder_no.
#include <gtest/gtest.h>

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

constexpr std::string_view kReminderScript = R"(members:
  dev:
    - when: {round: 1}
      emit:
        - tool_call: {name: add_reminder, arguments: {content: "  check the parser  "}}
        - tool_call: {name: add_reminder, arguments: {content: "shared", scope: task}}
        - tool_call: {name: add_reminder, arguments: {content: "plain", render_mode: plain}}
        - tool_call: {name: add_reminder, arguments: {content: "odd", scope: galaxy}}
        - tool_call: {name: update_reminder, arguments: {reminder_id: "1", content: "check the lexer"}}
        - tool_call: {name: update_reminder, arguments: {reminder_no: 1, content: "old shape"}}
        - tool_call: {name: update_reminder, arguments: {reminder_id: "7", content: "none"}}
        - tool_call: {name: set_dialog_goal, arguments: {mode: goal, goal: "Parse the headers"}}
        - tool_call: {name: delete_reminder, arguments: {reminder_id: "2"}}
        - tool_call: {name: add_reminder, arguments: {content: "drop me", scope: dialog, render_mode: markdown}}
        - tool_call: {name: delete_reminder, arguments: {reminder_id: " 3 "}}
    - emit: [{saying: "Done."}]
)";

// The one-member `.minds/` team these tests drive (`dev`, on an OpenAI-compatible provider the
// script stands in for), through `script`.
testing::scripted_minds_run run_dev_dialog(config::testing::temp_tree& tree, std::string_view script) {
  tree.write(".minds/llm.yaml", "providers:\n  local:\n    apiType: openai-compatible\n    models: [m]\n");
  tree.write(".minds/team.yaml", "member_defaults:\n  provider: local\n  model: m\nmembers:\n  dev: {}\n");
  auto team = config::load_dominds_workspace(tree.root());
  EXPECT_TRUE(team) << team.err().message;
  if (!team) return {};
  settle_team_problems(*team, build_builtin_tools(*team));
  return testing::run_scripted_minds_dialog(tree, std::move(*team), script);
}

TEST(DomindsReminders, AMindsTeamEditsRemindersWithDomindsArguments) {
  config::testing::temp_tree tree;
  auto run = run_dev_dialog(tree, kReminderScript);
  ASSERT_NE(run.eng, nullptr);
  const auto results = run.tool_results();
  ASSERT_EQ(results.size(), 11U) << ::testing::PrintToString(results);
  EXPECT_EQ(results[0], "Added");
  EXPECT_EQ(results[1].rfind("Error: scope: Parley keeps each reminder with its dialog; scope 'task'", 0), 0U)
      << results[1];
  EXPECT_EQ(results[2].rfind("Error: render_mode: Parley renders every reminder as markdown; 'plain'", 0), 0U)
      << results[2];
  EXPECT_NE(results[3].find("scope"), std::string::npos) << results[3];  // not in Dominds' enum
  EXPECT_EQ(results[4], "Updated");
  EXPECT_NE(results[5].find("reminder_no"), std::string::npos) << results[5];  // Parley's name is not Dominds'
  EXPECT_EQ(results[6], "Error: Reminder '7' does not exist.");
  EXPECT_EQ(
      results[8].rfind("Error: This reminder cannot be deleted via delete_reminder. Use instead: set_dialog_goal", 0),
      0U)
      << results[8];
  EXPECT_EQ(results[9], "Added");
  EXPECT_EQ(results[10], "Deleted");
  const dialog_runtime* dialog = run.eng->find(run.id);
  ASSERT_NE(dialog, nullptr);
  const auto& reminders = dialog->state().reminders;
  ASSERT_EQ(reminders.size(), 2U) << ::testing::PrintToString(reminders);
  EXPECT_EQ(reminders[0], "check the lexer");  // trimmed, as Dominds stores it
  EXPECT_TRUE(is_dominds_goal_reminder(reminders[1])) << reminders[1];
}

constexpr std::string_view kMigrateScript = R"(members:
  dev:
    - when: {round: 1}
      emit:
        - tool_call: {name: add_reminder, arguments: {content: "check the parser"}}
        - tool_call: {name: migrate_reminder, arguments: {reminder_id: "1", scope: dialog}}
        - tool_call: {name: migrate_reminder, arguments: {reminder_id: "4", scope: dialog}}
        - tool_call: {name: migrate_reminder, arguments: {reminder_id: "1", scope: task}}
        - tool_call: {name: migrate_reminder, arguments: {reminder_id: " ", scope: dialog}}
    - emit: [{saying: "Done."}]
)";

// Every Parley reminder is already dialog-scope: migrate_reminder answers as Dominds does for one
// that is, and changes nothing; Dominds' errors for an unknown id, a wrong scope, an empty id.
TEST(DomindsReminders, MigrateReminderFindsEveryReminderAlreadyDialogScope) {
  config::testing::temp_tree tree;
  auto run = run_dev_dialog(tree, kMigrateScript);
  ASSERT_NE(run.eng, nullptr);
  const auto results = run.tool_results();
  ASSERT_EQ(results.size(), 5U) << ::testing::PrintToString(results);
  EXPECT_EQ(results[1], "reminder_id=1 is already dialog-scope in the current dialog; no migration is needed.");
  EXPECT_EQ(results[2], "Error: Reminder '4' does not exist.");
  EXPECT_NE(results[3].find("scope"), std::string::npos) << results[3];  // not in Dominds' enum
  EXPECT_EQ(results[4], "Error: Invalid args. Use: migrate_reminder({ reminder_id: string, scope: \"dialog\" })");
  const dialog_runtime* dialog = run.eng->find(run.id);
  ASSERT_NE(dialog, nullptr);
  EXPECT_EQ(dialog->state().reminders, std::vector<std::string>{"check the parser"});
}

TEST(DomindsReminders, DomindsSchemasForMindsTeamsParleysForItsOwnFormat) {
  const auto dominds = dominds_reminder_specs();
  ASSERT_EQ(dominds.size(), 3U);
  EXPECT_EQ(dominds[0].name, "add_reminder");
  const auto& add = dominds[0].parameters.at("properties").as_object();
  EXPECT_TRUE(add.contains("scope"));
  EXPECT_TRUE(add.contains("render_mode"));
  for (std::size_t i = 1; i < 3; ++i) {
    EXPECT_TRUE(dominds[i].parameters.at("properties").as_object().contains("reminder_id")) << dominds[i].name;
    EXPECT_NE(dominds[i].description.find("number before the reminder"), std::string::npos) << dominds[i].name;
  }
  const auto* parleys = find_dialog_tool_spec("update_reminder");
  ASSERT_NE(parleys, nullptr);
  EXPECT_TRUE(parleys->parameters.at("properties").as_object().contains("reminder_no"));
  EXPECT_FALSE(parleys->parameters.at("properties").as_object().contains("reminder_id"));
}

}  // namespace
}  // namespace parley::engine
