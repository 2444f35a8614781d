// Dominds' reminder arguments over Parley's dialog reminders (dominds_control.hpp).
#include <charconv>

#include "parley/core/json_fields.hpp"
#include "parley/engine/dialog_tools.hpp"
#include "parley/engine/dominds_control.hpp"
#include "parley/engine/dominds_pads.hpp"
#include "parley/tools/dominds_tools.hpp"

namespace parley::engine {
namespace {

namespace json = boost::json;

tool_reply reminder_answer(bool ok, std::string text) { return tools::tool_outcome{ok, std::move(text)}; }

// What Parley does differently, told to the model with Dominds' description so it is not led to
// pass a scope or an id Parley cannot honour.
constexpr std::string_view kReminderScopeNote =
    " In this runtime reminders belong to this dialog: omit scope or use \"dialog\".";
constexpr std::string_view kReminderIdNote =
    " reminder_id is the number before the reminder in the Reminders list of your prompt (e.g. \"1\").";

llm::tool_spec reminder_spec(std::string_view name, std::string_view note) {
  auto spec = tools::dominds_tool_spec(name);
  // A test checks that each has its spec; without one Parley's own stays (member_roster.cpp).
  if (!spec) return *find_dialog_tool_spec(name);
  spec->name = std::string(name);
  spec->description += note;
  return *std::move(spec);
}

std::string trimmed_reminder_text(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\r\n");
  return std::string(text.substr(first, last - first + 1));
}

// Parley's reminders have no render mode of their own: every one renders as markdown.
std::optional<std::string> refused_render_mode(const std::optional<std::string>& mode) {
  if (!mode || *mode == "markdown") return std::nullopt;
  return "Error: render_mode: Parley renders every reminder as markdown; '" + *mode +
         "' is not supported. Omit render_mode or use \"markdown\".";
}

// The index of the reminder `reminder_id` names (its 1-based number), or Dominds' error.
result<std::size_t> reminder_index(const std::vector<std::string>& reminders, std::string_view tool,
                                   const std::string& reminder_id) {
  const std::string id = trimmed_reminder_text(reminder_id);
  if (id.empty()) {
    return make_error(errc::invalid_argument,
                      "Error: Invalid args. Use: " + std::string(tool) + "({ reminder_id: string" +
                          (tool == dialog_tool::update_reminder ? ", content: string" : "") + " })");
  }
  std::size_t number = 0;
  const auto [end, ec] = std::from_chars(id.data(), id.data() + id.size(), number);
  if (ec != std::errc{} || end != id.data() + id.size() || number < 1 || number > reminders.size()) {
    return make_error(errc::not_found, "Error: Reminder '" + id + "' does not exist.");
  }
  return number - 1;
}

std::string goal_reminder_refusal(std::string_view tool) {
  const std::string verb = tool == dialog_tool::delete_reminder ? "deleted" : "edited";
  return "Error: This reminder cannot be " + verb + " via " + std::string(tool) +
         ". Use instead: set_dialog_goal, which keeps this Main Dialog's goal.";
}

result<tool_reply> add_dominds_reminder(dialog_host& dialogs, dialog_runtime& dialog, const json::object& args) {
  json_fields in(args);
  const std::string content = trimmed_reminder_text(in.string("content"));
  const auto scope = in.optional_string("scope");
  const auto render_mode = in.optional_string("render_mode");
  if (!in.ok()) return reminder_answer(false, "Error: " + in.message());
  if (content.empty()) return reminder_answer(false, "Error: Reminder content cannot be empty");
  if (scope && *scope != "dialog") {
    return reminder_answer(false, "Error: scope: Parley keeps each reminder with its dialog; scope '" + *scope +
                                      "' (shared beyond this dialog) is not supported. Omit scope or use \"dialog\".");
  }
  if (auto refused = refused_render_mode(render_mode)) return reminder_answer(false, *refused);
  PARLEY_TRY(dialogs.stage(dialog, events::reminder_added{content}));
  return reminder_answer(true, "Added");
}

result<tool_reply> change_dominds_reminder(dialog_host& dialogs, dialog_runtime& dialog, std::string_view name,
                                           const json::object& args) {
  const bool update = name == dialog_tool::update_reminder;
  json_fields in(args);
  const std::string reminder_id = in.string("reminder_id");
  const std::string content = update ? trimmed_reminder_text(in.string("content")) : std::string();
  const auto render_mode = update ? in.optional_string("render_mode") : std::nullopt;
  if (!in.ok()) return reminder_answer(false, "Error: " + in.message());
  const auto& reminders = dialog.state().reminders;
  auto index = reminder_index(reminders, name, reminder_id);
  if (!index) return reminder_answer(false, index.err().message);
  if (is_dominds_goal_reminder(reminders[*index])) return reminder_answer(false, goal_reminder_refusal(name));
  // A pad is changed through the pad tools, which keep its display block whole (dominds_pads.hpp).
  if (is_pad_reminder(reminders[*index])) return reminder_answer(false, pad_reminder_refusal(name, reminders[*index]));
  if (!update) {
    PARLEY_TRY(dialogs.stage(dialog, events::reminder_deleted{static_cast<std::int64_t>(*index)}));
    return reminder_answer(true, "Deleted");
  }
  if (content.empty()) return reminder_answer(false, "Error: Reminder content cannot be empty");
  if (auto refused = refused_render_mode(render_mode)) return reminder_answer(false, *refused);
  PARLEY_TRY(dialogs.stage(dialog, events::reminder_updated{static_cast<std::int64_t>(*index), content}));
  return reminder_answer(true, "Updated");
}

}  // namespace

result<tool_reply> run_migrate_reminder(const dialog_runtime& dialog, const json::object& args) {
  constexpr std::string_view kMigrateUsage =
      "Error: Invalid args. Use: migrate_reminder({ reminder_id: string, scope: \"dialog\" })";
  json_fields in(args);
  const std::string reminder_id = trimmed_reminder_text(in.string("reminder_id"));
  const std::string scope = in.string("scope");
  if (!in.ok()) return reminder_answer(false, "Error: " + in.message());
  if (scope != "dialog" || reminder_id.empty()) return reminder_answer(false, std::string(kMigrateUsage));
  auto index = reminder_index(dialog.state().reminders, dominds_control_tool::migrate_reminder, reminder_id);
  if (!index) return reminder_answer(false, index.err().message);
  return reminder_answer(
      true, "reminder_id=" + reminder_id + " is already dialog-scope in the current dialog; no migration is needed.");
}

std::vector<llm::tool_spec> dominds_reminder_specs() {
  return {reminder_spec(dialog_tool::add_reminder, kReminderScopeNote),
          reminder_spec(dialog_tool::update_reminder, kReminderIdNote),
          reminder_spec(dialog_tool::delete_reminder, kReminderIdNote)};
}

bool is_reminder_tool(std::string_view name) {
  return name == dialog_tool::add_reminder || name == dialog_tool::update_reminder ||
         name == dialog_tool::delete_reminder;
}

result<tool_reply> run_dominds_reminder_tool(dialog_host& dialogs, dialog_runtime& dialog, std::string_view name,
                                             const json::object& args) {
  if (name == dialog_tool::add_reminder) return add_dominds_reminder(dialogs, dialog, args);
  return change_dominds_reminder(dialogs, dialog, name, args);
}

}  // namespace parley::engine
