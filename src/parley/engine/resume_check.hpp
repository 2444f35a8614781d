// Whether `resume` would do anything for a dialog, and why (issue 24). Resume exists for a dialog
// whose drive ended before its work was done: a stopped generation, a failed drive, tool calls
// left without results, input nobody has read yet. A dialog whose last answer was given has
// nothing to resume, and driving it again would only repeat that answer (and its tool effects),
// so the check refuses it; the UI enables its Resume button from the same check.
#pragma once

#include <string_view>

#include "parley/core/result.hpp"
#include "parley/engine/dialog_runtime.hpp"

namespace parley::engine {

enum class resume_reason {
  interrupted,       // its last generation was stopped, or a crash cut it off
  failed,            // its last drive failed (a provider error, a refused write)
  unanswered_calls,  // tool calls of its last generation have no results yet
  unread_input,      // input arrived that no generation has answered
};

// The reason as a word for clients ("interrupted", "failed", "unanswered_calls", "unread_input").
std::string_view resume_reason_name(resume_reason reason);

// The reason resume would drive `dialog`, or a conflict that says why it would not: dead, not
// running, waiting for a human or a subdialog, being driven right now, or "nothing to resume".
result<resume_reason> resume_reason_of(const dialog_runtime& dialog);

}  // namespace parley::engine
