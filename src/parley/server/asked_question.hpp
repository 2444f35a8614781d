// A question for the human (Q4H) that a root's tree waits on once it is at rest: how the OpenAI
// endpoint notes it after an answer, and how an MCP tool call returns it (dialog_answers.hpp).
#pragma once

#include <string>

namespace parley::server {

struct asked_question {
  std::string dialog_id;    // the dialog that asks, the root or a subdialog
  std::string question_id;  // for POST /api/dialogs/{dialog_id}/answer, or MCP's answer_question
  std::string text;
  std::string member_id;  // the member whose dialog asks
};

}  // namespace parley::server
