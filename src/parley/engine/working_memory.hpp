// Working memory and the Taskdoc (seed 001 "Mental Clarity Tools", "Reminder Management"):
// reminders, clear_mind (a new course that keeps reminders and the registry) and change_mind
// (one Taskdoc section, root dialogs only, no new course); and what keeps a dialog's mind clear
// without being asked: context health (a course that stayed critical ends) and the diligence push
// of a root that stopped.
//
// Owns no state of its own: what it changes is staged on the dialog (its reminders, course and
// health live in the log) or written to the Taskdoc in the workspace. Decides and stages; the
// drive loop commits. Runs on the engine's executor.
#pragma once

#include <boost/json/object.hpp>

#include <cstdint>
#include <string>

#include "parley/config/team.hpp"
#include "parley/core/result.hpp"
#include "parley/engine/dialog_host.hpp"
#include "parley/engine/member_roster.hpp"
#include "parley/engine/tellask_router.hpp"

namespace parley::engine {

class working_memory {
 public:
  // Keeps references to all three; they outlive it (the engine owns them all).
  working_memory(const config::team_config& team, dialog_host& dialogs, tellask_router& router)
      : team_(team), dialogs_(dialogs), router_(router) {}

  // add_reminder, update_reminder, delete_reminder, with arguments the tool's schema accepted.
  result<tool_reply> edit_reminders(dialog_runtime& dialog, const llm::tool_call& call,
                                    const boost::json::object& args);
  result<tool_reply> change_mind(dialog_runtime& dialog, const boost::json::object& args);
  // clear_mind: answers the call and starts the next course.
  result<void> start_new_course(dialog_runtime& dialog, const llm::tool_call& call);
  // Stages the start of the next course: its first message is `prompt` (after a subdialog's header).
  result<void> stage_course_start(dialog_runtime& dialog, std::string prompt);
  // Context health (seed 001's clear_mind remediation): measures a generation's prompt against the
  // model's window, and ends a course that stayed critical for longer than the team allows.
  result<void> stage_context_health(dialog_runtime& dialog, const member_setup& member, std::int64_t genseq,
                                    std::int64_t prompt_tokens);
  bool context_stayed_critical(const dialog_runtime& dialog) const;
  // Stages the diligence push for a root that stopped, when its member's budget and the workspace
  // allow one (engine/diligence.hpp).
  bool push_diligence(dialog_runtime& dialog, const config::member_config& member);

 private:
  const config::team_config& team_;
  dialog_host& dialogs_;
  tellask_router& router_;
};

}  // namespace parley::engine
