// Seed 002's composed views over the records: a turn as its `DialogueTurn` (who spoke in which
// order, the human's input, the system's actions — the tool loop round by round — the AI's
// response, the memory it touched) and a dialogue as its `ConversationThread`. Built from the
// stored rows; nothing here writes. Internal to the server module.
#pragma once

#include <boost/json/object.hpp>

#include <optional>
#include <vector>

#include "parley/model/conversation_records.hpp"
#include "parley/server/prompt_log.hpp"

namespace parley::server {

struct dialogue_turn_input {
  record_turn turn;
  std::vector<record_message> messages;  // the turn's, in log order
  std::vector<record_memory_link> links;
  std::optional<record_message> human_feedback;  // the human's first message after the turn closed
};

boost::json::object dialogue_turn_view(const dialogue_turn_input& input);

struct conversation_thread_input {
  record_dialogue dialogue;
  std::vector<record_turn> turns;  // oldest first
  std::vector<std::string> linked_memory_ids;
  std::vector<logged_prompt> prompts;  // the dialog's prompt versions: the thread's context snapshots
  // An AI-only dialogue's other AIs (a Tellask's tellaskers), beside its own `ai_id`.
  std::vector<std::string> other_ais;
};

boost::json::object conversation_thread_view(const conversation_thread_input& input);

}  // namespace parley::server
