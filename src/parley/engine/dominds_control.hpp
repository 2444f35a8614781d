// Dominds' `control` tools that Parley's own dialog tools (dialog_tools.hpp) do not cover, offered
// beside them to the members of a team loaded from `.minds/` under Dominds' names, descriptions and
// parameter schemas (dominds@1.29.0): recall_taskdoc, do_mind, mind_more and never_mind over the
// Taskdoc (taskdoc.hpp), and set_dialog_goal, which keeps the dialog's goal as one of its reminders
// (as Dominds does), so it is in every prompt and survives a restart. Answers are Dominds' texts.
//
// Parley's Taskdoc has the three top-level sections only (goals, constraints, progress): a
// `category` is refused naming the field. A section is "missing" when its file is absent or empty;
// never_mind empties it (a missing section and an empty one read the same in every prompt).
// Section hashes are Parley's (content_hash), the hash change_mind's expectedHash takes.
//
// add_reminder, update_reminder and delete_reminder keep their names but take Dominds' arguments in
// such a team (dominds_reminders.cpp): reminder_id is the reminder's number in the prompt's
// Reminders list ("1"), as Parley's reminders have no other id. Parley's reminders belong to the
// dialog and render as markdown, so scope "dialog" (and an omitted scope) and render_mode
// "markdown" are honoured; scope "task"/"agent" and render_mode "plain" are refused naming the
// field, changing nothing. The goal reminder of set_dialog_goal is changed only through it.
//
// migrate_reminder moves a shared (task/agent-scope) reminder into the dialog's scope in Dominds.
// Every Parley reminder already is dialog-scope, so it answers as Dominds does for one that is
// ("reminder_id=N is already dialog-scope …; no migration is needed"), changing nothing; an
// unknown reminder_id and a scope other than "dialog" are Dominds' errors. Offered wherever the
// reminder tools are (roots and subdialogs).
#pragma once

#include <boost/json/object.hpp>

#include <filesystem>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/engine/dialog_host.hpp"
#include "parley/engine/dialog_tools.hpp"
#include "parley/engine/tellask_router.hpp"
#include "parley/llm/provider.hpp"

namespace parley::engine {

namespace dominds_control_tool {
inline constexpr std::string_view recall_taskdoc = "recall_taskdoc";
inline constexpr std::string_view do_mind = "do_mind";
inline constexpr std::string_view mind_more = "mind_more";
inline constexpr std::string_view never_mind = "never_mind";
inline constexpr std::string_view set_dialog_goal = "set_dialog_goal";
inline constexpr std::string_view migrate_reminder = "migrate_reminder";
}  // namespace dominds_control_tool

// Every one of them, for the dialog tool table (dialog_tools.cpp).
std::vector<llm::tool_spec> dominds_control_specs();
bool is_dominds_control_tool(std::string_view name);
// What a dialog in `place` is offered: a root all six; a subdialog recall_taskdoc and
// migrate_reminder (Dominds lets only the Main Dialog write the Taskdoc or set its goal); Fresh
// Boots Reasoning none.
const std::vector<llm::tool_spec>& dominds_control_specs_for(dialog_place place);
// Why `name` is refused in a subdialog: Dominds' sentence, naming who keeps the Taskdoc.
std::string dominds_control_main_only(std::string_view name);

// The three reminder tools under Dominds' schemas; a `.minds/` team's dialog tool table swaps them in
// for Parley's (member_roster.cpp).
std::vector<llm::tool_spec> dominds_reminder_specs();
bool is_reminder_tool(std::string_view name);
// Whether `reminder` is the goal set_dialog_goal keeps.
bool is_dominds_goal_reminder(std::string_view reminder);
// migrate_reminder, with arguments its schema accepted: changes nothing (see above).
result<tool_reply> run_migrate_reminder(const dialog_runtime& dialog, const boost::json::object& args);
// Runs one with arguments Dominds' schema accepted; changes are staged on `dialogs`.
result<tool_reply> run_dominds_reminder_tool(dialog_host& dialogs, dialog_runtime& dialog, std::string_view name,
                                             const boost::json::object& args);

// Runs one, with arguments its schema accepted. Changes to the dialog are staged on `dialogs`.
result<tool_reply> run_dominds_control_tool(dialog_host& dialogs, const std::filesystem::path& workspace,
                                            dialog_runtime& dialog, std::string_view name,
                                            const boost::json::object& args);

}  // namespace parley::engine
