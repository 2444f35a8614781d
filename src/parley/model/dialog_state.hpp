// What a dialog waits for and keeps besides its messages — the hierarchy and working memory of
// seed 001: the calls it waits on (subdialogs, the tellasker), the tellaskBack answers it owes,
// its open questions for the human (the Q4H index), its reminders and the assignment from its
// current tellasker. Derived from the log by `apply_state_event`, never stored on its own, so the
// seed's index files (q4h.yaml, subdlg.yaml, reminders.json) cannot disagree with the log.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "parley/model/event.hpp"

namespace parley {

// A call of this dialog that another dialog answers.
struct awaited_reply {
  std::string call_id;  // empty: no call waits any more (after answering a tellaskBack), only the dialog
  std::string dialog_id;
  events::call_kind name = events::call_kind::tellask;  // the call's name
};

// A tellaskBack this dialog received and answers with its next final saying.
struct owed_answer {
  std::string dialog_id;  // the subdialog that asked
  std::string call_id;    // its tellaskBack call
};

struct human_question {  // seed 001 `HumanQuestion`, plus where it was asked
  std::string id;
  std::string mention_list;  // the headline: the first line of the question
  std::string tellask_content;
  std::string asked_at;  // ISO-8601 UTC
  std::string call_id;   // the askHuman call it answers
  std::int64_t course = 1;
  std::int64_t seq = 0;  // the event that recorded it: the call site in the log
};

struct assignment {  // seed 001 `assignmentFromSup`
  std::string caller_id;
  std::string caller_member_id;
  std::string call_id;
  events::call_kind call_name = events::call_kind::tellask;
  std::string session_slug;
  std::string tellask_content;
  bool replied = false;  // the final reply to this assignment was delivered
};

struct context_health {                       // the last context_health event of the current course
  std::optional<events::health_level> level;  // nullopt: never measured in this course
  std::int64_t prompt_tokens = 0;
  std::int64_t context_window = 0;
  std::int64_t critical_rounds = 0;  // generations in a row of this course that ended critical

  bool is(events::health_level l) const noexcept { return level == l; }
};

struct dialog_state {
  std::vector<awaited_reply> awaited;
  std::vector<owed_answer> owed;
  std::vector<human_question> questions;
  std::vector<std::string> answered_questions;  // ids answered in the current course
  std::vector<std::string> reminders;
  std::optional<assignment> assigned;
  // Input arrived after the current generation started: the model has not seen it yet.
  bool input_during_generation = false;
  // The last generation_progress of the current generation (what a crash would otherwise lose).
  std::string partial_thinking;
  std::string partial_saying;
  context_health health;
  // In a group: the member the last human message asked to answer (empty: the dialog's member).
  std::string responder;
  // The version of the last prompt_logged: a generation whose prompt has it logs nothing new.
  std::string prompt_version;

  bool suspended() const { return !awaited.empty() || !questions.empty(); }
  const human_question* find_question(std::string_view id) const;
  bool awaits_call(std::string_view call_id) const;
};

// Folds one event into the state. Call it after apply_event accepted the event.
void apply_state_event(const event& ev, dialog_state& state);

}  // namespace parley
