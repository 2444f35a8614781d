// Working memory and the Taskdoc (working_memory.hpp).
#include "parley/engine/working_memory.hpp"

#include "parley/core/ids.hpp"
#include "parley/core/json.hpp"
#include "parley/engine/dialog_tool_args.hpp"
#include "parley/engine/dialog_tools.hpp"
#include "parley/engine/diligence.hpp"
#include "parley/engine/prompts.hpp"
#include "parley/engine/taskdoc.hpp"
#include "parley/tools/json_schema.hpp"

namespace parley::engine {
namespace {

tool_reply answer(bool ok, std::string text) { return tools::tool_outcome{ok, std::move(text)}; }

}  // namespace

result<tool_reply> working_memory::edit_reminders(dialog_runtime& dialog, const llm::tool_call& call,
                                                  const boost::json::object& args) {
  auto decoded = read_reminder_args(call.name, args);
  if (!decoded) return answer(false, decoded.err().message);
  const std::string& content = decoded->content;
  if (call.name == dialog_tool::add_reminder) {
    PARLEY_TRY(dialogs_.stage(dialog, events::reminder_added{content}));
    return answer(true, "reminder " + std::to_string(dialog.state().reminders.size()) + " added");
  }
  const auto count = static_cast<std::int64_t>(dialog.state().reminders.size());
  const std::int64_t number = decoded->reminder_no;
  if (number < 1 || number > count) {
    return answer(false, "reminder_no " + std::to_string(number) + " does not exist; this dialog has " +
                             std::to_string(count) + " reminder(s), numbered from 1");
  }
  if (call.name == dialog_tool::update_reminder) {
    PARLEY_TRY(dialogs_.stage(dialog, events::reminder_updated{number - 1, content}));
    return answer(true, "reminder " + std::to_string(number) + " updated");
  }
  PARLEY_TRY(dialogs_.stage(dialog, events::reminder_deleted{number - 1}));
  return answer(true, "reminder " + std::to_string(number) + " deleted");
}

result<tool_reply> working_memory::change_mind(dialog_runtime& dialog, const boost::json::object& args) {
  const auto& path = dialog.row().task_doc_path;
  if (path.empty()) return answer(false, "this dialog has no Taskdoc (it was created without taskDocPath)");
  auto decoded = read_change_mind_args(args);
  if (!decoded) return answer(false, decoded.err().message);
  const std::string& selector = decoded->selector;
  auto changed = write_taskdoc_section(team_.workspace, path, selector, decoded->content, decoded->expected_hash);
  if (!changed) return answer(false, changed.err().message);
  // write_taskdoc_section took only a known section.
  const auto section = events::from_wire<events::taskdoc_section>(selector).value_or(events::taskdoc_section::goals);
  PARLEY_TRY(dialogs_.stage(dialog, events::taskdoc_changed{section, path, changed->hash, changed->previous_hash}));
  return answer(true, "Taskdoc section " + selector + " updated; its hash is now " + changed->hash);
}

result<void> working_memory::start_new_course(dialog_runtime& dialog, const llm::tool_call& call) {
  const auto* spec = find_dialog_tool_spec(dialog_tool::clear_mind);
  auto args = tools::parse_tool_arguments(call.arguments.empty() ? "{}" : call.arguments, spec->parameters);
  auto result_of_call = [&](bool ok, std::string text) {
    return dialogs_.stage(dialog, events::tool_result{dialog.row().course, dialog.row().last_genseq, call.id, call.name,
                                                      ok, std::move(text)});
  };
  if (!args) return result_of_call(false, "invalid arguments for clear_mind: " + args.err().message);
  const auto previous_questions = static_cast<std::int64_t>(dialog.state().questions.size());
  auto decoded = read_clear_mind_args(*args);
  if (!decoded) return result_of_call(false, "invalid arguments for clear_mind: " + decoded.err().message);
  if (const auto& reminder = decoded->reminder_content; !reminder.empty()) {
    PARLEY_TRY(dialogs_.stage(dialog, events::reminder_added{reminder}));
  }
  const std::int64_t next = dialog.row().course + 1;
  PARLEY_TRY(result_of_call(true, "course " + std::to_string(next) + " starts"));
  PARLEY_TRY(stage_course_start(dialog, new_course_prompt(team_.language, next)));
  if (previous_questions > 0) router_.notify_questions(dialog, previous_questions);
  return ok();
}

result<void> working_memory::stage_course_start(dialog_runtime& dialog, std::string prompt) {
  const std::int64_t next = dialog.row().course + 1;
  // A subdialog's course starts with its role header and assignment (seed 001).
  if (const auto& assigned = dialog.state().assigned; dialog.is_sub() && assigned) {
    prompt = course_header(team_.language, assigned->caller_member_id, dialog.is_fbr()) + "\n\n" +
             assigned->tellask_content + "\n\n" + prompt;
  }
  PARLEY_TRY(dialogs_.stage(dialog, events::course_started{next, prompt}));
  events::user_message first;
  first.course = next;
  first.content = std::move(prompt);
  first.msg_id = new_uuid();
  first.origin = events::message_origin::system;
  return dialogs_.stage(dialog, std::move(first));
}

result<void> working_memory::stage_context_health(dialog_runtime& dialog, const member_setup& member,
                                                  std::int64_t genseq, std::int64_t prompt_tokens) {
  if (member.model == nullptr || member.model->context_window <= 0 || prompt_tokens <= 0) return ok();
  const double used = static_cast<double>(prompt_tokens) / static_cast<double>(member.model->context_window);
  using events::health_level;
  const health_level level = used >= member.model->critical_ratio  ? health_level::critical
                             : used >= member.model->caution_ratio ? health_level::caution
                                                                   : health_level::healthy;
  const auto& previous = dialog.state().health.level;
  // A healthy context is only worth a record when it was not healthy before.
  if (level == health_level::healthy && (!previous || previous == health_level::healthy)) return ok();
  return dialogs_.stage(
      dialog, events::context_health{dialog.row().course, genseq, level, prompt_tokens, member.model->context_window});
}

bool working_memory::context_stayed_critical(const dialog_runtime& dialog) const {
  const auto& health = dialog.state().health;
  return health.is(events::health_level::critical) && health.critical_rounds > team_.limits.critical_context_rounds;
}

bool working_memory::push_diligence(dialog_runtime& dialog, const config::member_config& member) {
  const auto& row = dialog.row();
  if (dialog.is_sub() || dialog.is_fbr() || dialog.is_self_reflection() || !dialog.can_drive() ||
      !row.last_error.empty() || dialog.diligence_pushes >= member.diligence_push_max) {
    return false;
  }
  auto prompt = diligence_prompt(team_.workspace, team_.language);
  if (!prompt) return false;
  ++dialog.diligence_pushes;
  return static_cast<bool>(dialogs_.stage(dialog, events::user_message{.course = row.course,
                                                                       .content = std::move(*prompt),
                                                                       .msg_id = new_uuid(),
                                                                       .origin = events::message_origin::system}));
}

}  // namespace parley::engine
