// What humans do to dialogs besides talking: answer a member's question for the human (seed 001's
// Q4H, `drive_dialog_by_user_answer`), list the open questions, and give up on a subdialog
// (declare it dead).
//
// Owns no state of its own: the questions are the dialogs' (in the log). Works on the dialogs
// through the dialog host, tells the Tellask router when questions or subdialogs change, and asks
// the drive loop to drive a dialog that can go on. Runs on the engine's executor.
#pragma once

#include <boost/asio/awaitable.hpp>

#include <string>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/engine/dialog_host.hpp"
#include "parley/engine/drive_loop.hpp"
#include "parley/engine/input_checks.hpp"
#include "parley/engine/tellask_router.hpp"

namespace parley::engine {

// Seed 001 `drive_dialog_by_user_answer`: the human answers an open question (Q4H).
struct user_answer {
  std::string dialog;
  std::string content;
  std::string msg_id;
  std::string question_id;
  std::string continuation_type = "answer";
  std::string from;  // the user who answers, recorded with the answer; "" when none is named
};

struct open_question {
  dialog_row dialog;
  human_question question;
};

class human_questions {
 public:
  // Keeps references to all four; they outlive it (the engine owns them all).
  human_questions(dialog_host& dialogs, tellask_router& router, input_checks& inputs, drive_loop& drives)
      : dialogs_(dialogs), router_(router), inputs_(inputs), drives_(drives) {}

  // Validates the question id, records the answer as the askHuman call's result and drives the
  // dialog once nothing else holds it. A retry of a taken answer (same msgId, question and content)
  // succeeds and changes nothing, after a restart too (input_checks::dialog_of_retry).
  boost::asio::awaitable<result<void>> answer_question(user_answer answer);
  // Open questions of every running dialog, oldest first; read right here (a CLI verb).
  result<std::vector<open_question>> open_questions();
  // The same for a coroutine: the store is read on the read thread.
  boost::asio::awaitable<result<std::vector<open_question>>> open_questions_async();
  // A human gives up on a subdialog: it is never driven again, its Type B registry entry goes (the
  // slug starts afresh next time), and a caller waiting for it gets a failed result and continues.
  boost::asio::awaitable<result<void>> declare_subdialog_dead(std::string dialog_id, std::string reason);

 private:
  dialog_host& dialogs_;
  tellask_router& router_;
  input_checks& inputs_;
  drive_loop& drives_;
};

}  // namespace parley::engine
