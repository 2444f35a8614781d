// The states in which resume drives a dialog, read from its runtime (built from the log, so a
// process that restarted answers as the one that wrote it would).
#include "parley/engine/resume_check.hpp"

#include <string>
#include <vector>

#include "parley/core/text.hpp"

namespace parley::engine {
namespace {

// The newest message of the current course is an assistant's that was stopped mid-generation.
bool last_generation_interrupted(const dialog_runtime& dialog) {
  const auto& messages = dialog.messages();
  return !messages.empty() && messages.back().role == events::message_role::assistant && messages.back().interrupted;
}

}  // namespace

std::string_view resume_reason_name(resume_reason reason) {
  switch (reason) {
    case resume_reason::interrupted:
      return "interrupted";
    case resume_reason::failed:
      return "failed";
    case resume_reason::unanswered_calls:
      return "unanswered_calls";
    case resume_reason::unread_input:
      return "unread_input";
  }
  return "interrupted";
}

result<resume_reason> resume_reason_of(const dialog_runtime& dialog) {
  const auto& row = dialog.row();
  const std::string& id = dialog.id();
  if (row.dead) return make_error(errc::conflict, "dialog " + id + " was declared dead");
  if (row.status != events::dialog_status::running) {
    return make_error(errc::conflict, "dialog " + id + " is " + std::string(events::to_wire(row.status)));
  }
  const auto& state = dialog.state();
  if (!state.questions.empty()) {
    return make_error(errc::conflict, "dialog " + id + " waits for the answer to " +
                                          std::to_string(state.questions.size()) + " question(s); answer them instead");
  }
  if (!state.awaited.empty()) {
    std::vector<std::string> ids;
    for (const auto& awaited : state.awaited) ids.push_back(awaited.dialog_id);
    return make_error(errc::conflict, "dialog " + id + " waits for subdialog(s) " + join(ids, ", ") +
                                          "; they revive it when they reply (declare one dead to stop waiting for it)");
  }
  if (dialog.messages().empty()) return make_error(errc::conflict, "dialog " + id + " has nothing to do yet");
  if (dialog.drive_scheduled) {
    return make_error(errc::conflict, "dialog " + id + " is being driven right now; nothing to resume");
  }
  if (!row.last_error.empty()) return resume_reason::failed;
  // `generating` without a drive: a process died mid-generation and nothing has driven it since.
  if (row.generating || last_generation_interrupted(dialog)) return resume_reason::interrupted;
  if (!dialog.unanswered_tool_calls().empty()) return resume_reason::unanswered_calls;
  if (row.needs_drive) return resume_reason::unread_input;
  return make_error(errc::conflict, "dialog " + id + ": nothing to resume (its last answer was given)");
}

}  // namespace parley::engine
