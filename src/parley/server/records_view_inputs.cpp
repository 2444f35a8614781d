#include "parley/server/records_view_inputs.hpp"

#include <algorithm>

#include "parley/core/json.hpp"
#include "parley/core/json_fields.hpp"

namespace parley::server {

context_block block_of(records_query& records, const record_message& m) {
  multimodal_input input{m.id, m.sender_role, m.content_type, m.content, {}, {}, m.created_at, {}, {}};
  if (auto meta = parse_json(m.content_meta); meta && meta->is_object()) input.content_meta = meta->get_object();
  if (auto meta = parse_json(m.metadata); meta && meta->is_object()) input.metadata = meta->get_object();
  // The write route stores the request's reply_to (a checked string) here; other metadata quotes nothing.
  json_fields metadata(input.metadata, "metadata");
  if (const auto quoted_id = metadata.optional_string("reply_to"); quoted_id && !quoted_id->empty()) {
    if (auto quoted = records.message(*quoted_id); quoted && *quoted) {
      input.quoted_text = (*quoted)->content;
      input.quoted_role = events::to_wire((*quoted)->sender_role);
    }
  }
  return parse_multimodal(input);
}

result<dialogue_turn_input> dialogue_turn_of(records_query& records, const record_turn& turn) {
  dialogue_turn_input input;
  input.turn = turn;
  records_filter of_turn;
  of_turn.turn_id = turn.id;
  of_turn.limit = 500;
  auto messages = records.messages(of_turn);
  if (!messages) return std::move(messages).err();
  input.messages = std::move(messages->items);
  auto links = records.memory_links(turn.id);
  if (!links) return std::move(links).err();
  input.links = std::move(*links);
  if (const record_message* answer = ai_answer_of(input.messages)) {
    auto embedding = records.embedding(answer->id);
    if (!embedding) return std::move(embedding).err();
    if (*embedding) input.answer_embedding = std::move((*embedding)->vector);
  }
  if (turn.closed_at != 0) {
    records_filter after;
    after.dialogue_id = turn.dialogue_id;
    after.role = events::record_role::human;
    after.since = turn.closed_at;
    after.limit = 2;
    auto next = records.messages(after);
    if (!next) return std::move(next).err();
    for (auto& m : next->items) {
      if (m.turn_id != turn.id) {
        input.human_feedback = std::move(m);
        break;
      }
    }
  }
  return input;
}

result<std::vector<std::string>> topic_tags_of(records_query& records, const std::string& dialogue_id) {
  records_filter humans;
  humans.dialogue_id = dialogue_id;
  humans.role = events::record_role::human;
  humans.limit = 500;
  auto page = records.messages(humans);
  if (!page) return std::move(page).err();
  std::vector<std::string> tags;
  for (const auto& m : page->items) {
    const auto list = tags_of(m, "topic_tags");
    if (!list.is_array()) continue;
    for (const auto& tag : list.get_array()) {
      if (!tag.is_string()) continue;
      std::string text(tag.get_string());
      if (std::find(tags.begin(), tags.end(), text) == tags.end()) tags.push_back(std::move(text));
    }
  }
  return tags;
}

result<std::vector<std::string>> tellasker_members(store& log, const std::string& dialog_id) {
  std::vector<std::string> members;
  auto row = log.get_dialog(dialog_id);
  if (!row) return std::move(row).err();
  if (!*row) return members;
  for (const auto* caller : {&(*row)->parent_id, &(*row)->caller_id}) {
    if (caller->empty()) continue;
    auto asking = log.get_dialog(*caller);
    if (!asking) return std::move(asking).err();
    if (!*asking || (*asking)->member_id.empty()) continue;
    if (std::find(members.begin(), members.end(), (*asking)->member_id) == members.end()) {
      members.push_back((*asking)->member_id);
    }
  }
  return members;
}

}  // namespace parley::server
