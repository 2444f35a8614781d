// Dominds' control tools over Parley's Taskdoc and reminders (dominds_control.hpp).
#include "parley/engine/dominds_control.hpp"

#include <algorithm>

#include "parley/core/json_fields.hpp"
#include "parley/engine/taskdoc.hpp"
#include "parley/tools/dominds_tools.hpp"

namespace parley::engine {
namespace {

namespace json = boost::json;
using namespace dominds_control_tool;

// Dominds' set_dialog_goal keeps the goal as a reminder of the Main Dialog; this opening marks
// Parley's, so a second call replaces it rather than adding another.
constexpr std::string_view kDialogGoalMark = "🎯 Goal of this Main Dialog: ";

tool_reply control_answer(bool ok, std::string text) { return tools::tool_outcome{ok, std::move(text)}; }

llm::tool_spec control_spec(std::string_view name) {
  auto spec = tools::dominds_tool_spec(name);
  // A test checks that every name has its spec; without one the tool takes no arguments.
  if (!spec) return {std::string(name), "Dominds' " + std::string(name) + " (no spec)", json::object{}};
  spec->name = std::string(name);
  return *std::move(spec);
}

// The section a selector names, or Dominds' error (a `category` is a Parley refusal).
result<std::string> control_section(json_fields& in) {
  const auto selector = in.optional_string("selector");
  const auto category = in.optional_string("category");
  if (!in.ok()) return make_error(errc::invalid_argument, "Error: " + in.message());
  if (category && !category->empty()) {
    return make_error(errc::invalid_argument,
                      "Error: category: Parley's Taskdoc has only the top-level sections goals, constraints and "
                      "progress; omit category and use one of them as selector.");
  }
  const std::string name = selector.value_or("progress");
  if (name.empty()) return make_error(errc::invalid_argument, "Error: selector is required.");
  if (std::find(kTaskdocSections.begin(), kTaskdocSections.end(), name) == kTaskdocSections.end()) {
    return make_error(errc::invalid_argument, "Error: Invalid selector '" + name +
                                                  "'. Use: top-level goals|constraints|progress (Parley's "
                                                  "Taskdoc has no categories).");
  }
  return name;
}

const taskdoc_section& section_of(const std::array<taskdoc_section, 3>& sections, std::string_view selector) {
  return *std::find_if(sections.begin(), sections.end(),
                       [&](const taskdoc_section& section) { return section.selector == selector; });
}

std::string missing_text(const std::string& file) {
  return "Not found: `" + file +
         "`.\n\nUse `do_mind` to create a section, `mind_more` for small append-only updates to existing "
         "sections, and `recall_taskdoc` then `change_mind` with the current hash (expectedHash) to rewrite "
         "existing sections.";
}

result<tool_reply> write_section(dialog_host& dialogs, const std::filesystem::path& workspace, dialog_runtime& dialog,
                                 const std::string& selector, std::string_view content, const std::string& expected) {
  const auto& path = dialog.row().task_doc_path;
  auto changed = write_taskdoc_section(workspace, path, selector, content, expected);
  if (!changed) return control_answer(false, "Error: " + changed.err().message);
  const auto section = events::from_wire<events::taskdoc_section>(selector).value_or(events::taskdoc_section::goals);
  PARLEY_TRY(dialogs.stage(dialog, events::taskdoc_changed{section, path, changed->hash, changed->previous_hash}));
  return control_answer(true, "Mind changed");
}

result<tool_reply> run_taskdoc_tool(dialog_host& dialogs, const std::filesystem::path& workspace,
                                    dialog_runtime& dialog, std::string_view name, const json::object& args) {
  json_fields in(args);
  const auto content = in.optional_string("content");
  const auto items = in.optional_strings("items");
  const std::string sep = in.optional_string("sep").value_or("\n");
  auto selector = control_section(in);
  if (!selector) return control_answer(false, selector.err().message);
  const auto& path = dialog.row().task_doc_path;
  if (path.empty()) return control_answer(false, "Error: No Taskdoc path configured for this dialog");
  const auto current = section_of(read_taskdoc(workspace, path), *selector);
  const std::string file = *selector + ".md";
  if (name == recall_taskdoc) {
    if (current.content.empty()) return control_answer(false, missing_text(file));
    const char* close = current.content.ends_with('\n') ? "" : "\n";
    return control_answer(true, "**recall_taskdoc:** `" + file + "`\ncontent_hash: `" + current.hash + "`\n\n---\n" +
                                    current.content + close + "---");
  }
  if (name == do_mind) {
    if (!current.content.empty()) {
      return control_answer(false, "Cannot add: `" + file +
                                       "` already exists. If you are sure you need to rewrite an existing section, "
                                       "call `recall_taskdoc` for the current content_hash first, then use "
                                       "`change_mind` with it as expectedHash.");
    }
    if (!content || content->empty()) return control_answer(false, "Error: Taskdoc content is required (content).");
    return write_section(dialogs, workspace, dialog, *selector, *content, current.hash);
  }
  if (name == never_mind) {
    if (current.content.empty()) {
      return control_answer(false,
                            "Cannot delete: `" + file + "` does not exist. Check the Taskdoc section target first.");
    }
    auto written = write_section(dialogs, workspace, dialog, *selector, "", current.hash);
    if (written && *written && (**written).ok) return control_answer(true, "Deleted");
    return written;
  }
  // mind_more: each item a non-empty string, appended after the section with `sep` between.
  const bool items_ok =
      items && !items->empty() && std::none_of(items->begin(), items->end(), [](const std::string& s) {
        return s.find_first_not_of(" \t\r\n") == std::string::npos;
      });
  if (!items_ok) {
    return control_answer(false, "Error: items are required, and every item must be a non-empty string.");
  }
  std::string appended = current.content;
  for (const auto& item : *items) appended += (appended.empty() ? "" : sep) + item;
  return write_section(dialogs, workspace, dialog, *selector, appended, current.hash);
}

result<tool_reply> set_goal(dialog_host& dialogs, dialog_runtime& dialog, const json::object& args) {
  json_fields in(args);
  const std::string mode = in.string("mode");
  const std::string goal = in.optional_string("goal").value_or("");
  if (!in.ok()) return control_answer(false, "Error: " + in.message());
  std::string text;
  if (mode == "goal") {
    if (goal.find_first_not_of(" \t\r\n") == std::string::npos) {
      return control_answer(false, "Error: mode=\"goal\" requires a non-empty goal.");
    }
    text = std::string(kDialogGoalMark) + goal;
  } else if (mode == "follow_taskdoc") {
    text = std::string(kDialogGoalMark) + "proceed from the Taskdoc.";
  } else {
    return control_answer(false, "Error: mode: expected goal or follow_taskdoc, got '" + mode + "'");
  }
  const auto& reminders = dialog.state().reminders;
  const auto found = std::find_if(reminders.begin(), reminders.end(),
                                  [](const std::string& reminder) { return reminder.starts_with(kDialogGoalMark); });
  if (found == reminders.end()) {
    PARLEY_TRY(dialogs.stage(dialog, events::reminder_added{text}));
  } else {
    PARLEY_TRY(dialogs.stage(dialog, events::reminder_updated{found - reminders.begin(), text}));
  }
  return control_answer(true, mode == "goal" ? "Recorded the goal for this Main Dialog."
                                             : "Recorded the goal for this Main Dialog: proceed from the Taskdoc.");
}

}  // namespace

// What Parley does differently, told to the model with Dominds' description.
llm::tool_spec migrate_reminder_spec() {
  auto spec = control_spec(migrate_reminder);
  spec.description +=
      " In this runtime every reminder already belongs to its dialog (none is shared), so there is nothing to "
      "withdraw; reminder_id is the number before the reminder in the Reminders list of your prompt.";
  return spec;
}

std::vector<llm::tool_spec> dominds_control_specs() {
  return {control_spec(recall_taskdoc), control_spec(do_mind),         control_spec(mind_more),
          control_spec(never_mind),     control_spec(set_dialog_goal), migrate_reminder_spec()};
}

bool is_dominds_control_tool(std::string_view name) {
  return name == recall_taskdoc || name == do_mind || name == mind_more || name == never_mind ||
         name == set_dialog_goal || name == migrate_reminder;
}

const std::vector<llm::tool_spec>& dominds_control_specs_for(dialog_place place) {
  static const std::vector<llm::tool_spec> root = dominds_control_specs();
  static const std::vector<llm::tool_spec> sub{control_spec(recall_taskdoc), migrate_reminder_spec()};
  static const std::vector<llm::tool_spec> none;
  switch (place) {
    case dialog_place::root:
      return root;
    case dialog_place::sub:
      return sub;
    case dialog_place::fbr:
      break;
  }
  return none;
}

bool is_dominds_goal_reminder(std::string_view reminder) { return reminder.starts_with(kDialogGoalMark); }

std::string dominds_control_main_only(std::string_view name) {
  return "Error: `" + std::string(name) +
         "` is only available in the Main Dialog (not in Side Dialogs). Ask your tellasker with tellaskBack to "
         "make the change in its dialog.";
}

result<tool_reply> run_dominds_control_tool(dialog_host& dialogs, const std::filesystem::path& workspace,
                                            dialog_runtime& dialog, std::string_view name, const json::object& args) {
  if (name == set_dialog_goal) return set_goal(dialogs, dialog, args);
  if (name == migrate_reminder) return run_migrate_reminder(dialog, args);
  return run_taskdoc_tool(dialogs, workspace, dialog, name, args);
}

}  // namespace parley::engine
