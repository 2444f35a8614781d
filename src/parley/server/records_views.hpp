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
  std::vector<float> answer_embedding;           // of the AI's answer (ai_answer_of); empty: none
};

// The AI's answer in a turn's messages: its last message that called no tool; null without one.
const record_message* ai_answer_of(const std::vector<record_message>& messages);
// A message's metadata list `key` (seed 002's intent_tags, topic_tags), or null when absent.
boost::json::value tags_of(const record_message& m, std::string_view key);

boost::json::object dialogue_turn_view(const dialogue_turn_input& input);

struct conversation_thread_input {
  record_dialogue dialogue;
  std::vector<record_turn> turns;  // oldest first
  std::vector<std::string> linked_memory_ids;
  std::vector<logged_prompt> prompts;   // the dialog's prompt versions: the thread's context snapshots
  std::vector<std::string> topic_tags;  // of its messages (the analyst's), first seen first
  // An AI-only dialogue's other AIs (a Tellask's tellaskers), beside its own `ai_id`.
  std::vector<std::string> other_ais;
};

boost::json::object conversation_thread_view(const conversation_thread_input& input);

}  // namespace parley::server
