#include "parley/server/records_json.hpp"

#include <boost/json/array.hpp>

#include <boost/json/value.hpp>

#include "parley/core/json.hpp"
#include "parley/core/time.hpp"

namespace parley::server {
namespace {

boost::json::value time_or_null(std::int64_t ms) {
  if (ms == 0) return nullptr;
  return boost::json::value(format_iso8601_ms(ms));
}

boost::json::value text_or_null(const std::string& text) {
  if (text.empty()) return nullptr;
  return boost::json::value(text);
}

}  // namespace

// Stored metadata is always an object the reducer wrote; anything else shows as {}.
boost::json::object metadata_of(const std::string& text) {
  auto parsed = parse_json(text);
  if (parsed && parsed->is_object()) return std::move(parsed->as_object());
  return {};
}

boost::json::object dialogue_json(const record_dialogue& d) {
  return {{"id", d.id},
          {"dialog_id", d.dialog_id},
          {"dialogue_type", events::to_wire(d.dialogue_type)},
          {"human_id", text_or_null(d.human_id)},
          {"ai_id", text_or_null(d.ai_id)},
          {"relation_id", text_or_null(d.relation_id)},
          {"created_at", format_iso8601_ms(d.created_at)},
          {"is_active", d.is_active},
          {"last_activity_at", format_iso8601_ms(d.last_activity_at)},
          {"metadata", metadata_of(d.metadata)}};
}

boost::json::object session_json(const record_session& s) {
  return {{"id", s.id},
          {"dialogue_id", s.dialogue_id},
          {"session_type", events::to_wire(s.session_type)},
          {"start_at", format_iso8601_ms(s.start_at)},
          {"end_at", time_or_null(s.end_at)},
          {"description", text_or_null(s.description)},
          {"created_by", events::to_wire(s.created_by)},
          {"metadata", metadata_of(s.metadata)},
          {"trigger_source",
           s.trigger_source ? boost::json::value(events::to_wire(*s.trigger_source)) : boost::json::value(nullptr)},
          {"goal", text_or_null(s.goal)},
          {"ai_mood_state", text_or_null(s.ai_mood_state)},
          {"summary", text_or_null(s.summary)}};
}

boost::json::object introspection_json(const record_introspection& t) {
  return {{"turn_id", t.id},
          {"session_id", t.session_id},
          {"dialogue_id", t.dialogue_id},
          {"purpose", t.purpose},
          {"input_context", text_or_null(t.input_context)},
          {"tool_used", text_or_null(t.tool_used)},
          {"tool_input", text_or_null(t.tool_input)},
          {"tool_output", text_or_null(t.tool_output)},
          {"generated_entry", text_or_null(t.generated_entry)},
          {"mood_shift", text_or_null(t.mood_shift)},
          {"value_impact", text_or_null(t.value_impact)},
          {"started_at", format_iso8601_ms(t.started_at)},
          {"duration_ms", t.duration_ms}};
}

boost::json::object memory_entry_json(const record_memory_entry& m) {
  return {{"id", m.id},
          {"dialogue_id", m.dialogue_id},
          {"ai_id", text_or_null(m.ai_id)},
          {"content", m.content},
          {"created_at", format_iso8601_ms(m.created_at)},
          {"source_turn_id", text_or_null(m.source_turn_id)}};
}

boost::json::object memory_link_json(const record_memory_link& l) {
  return {{"turn_id", l.turn_id},
          {"memory_id", l.memory_id},
          {"relation", l.relation},
          {"created_at", format_iso8601_ms(l.created_at)}};
}

boost::json::object system_utterance_json(const record_system_utterance& u) {
  return {{"log_id", u.log_id},
          {"timestamp", format_iso8601_ms(u.timestamp)},
          {"conversation_id", u.conversation_id},
          {"trigger", events::to_wire(u.trigger)},
          {"content", u.content},
          {"target", events::to_wire(u.target)},
          {"linked_turn_id", text_or_null(u.linked_turn_id)},
          {"notes", text_or_null(u.notes)}};
}

boost::json::object turn_json(const record_turn& t) {
  const bool pending = t.status == events::turn_status::pending;
  return {{"id", t.id},
          {"dialogue_id", t.dialogue_id},
          {"session_id", t.session_id},
          {"turn_type", events::to_wire(t.turn_type)},
          {"initiator_role", events::to_wire(t.initiator_role)},
          {"responder_role", events::to_wire(t.responder_role)},
          {"started_at", format_iso8601_ms(t.started_at)},
          {"closed_at", pending ? boost::json::value(nullptr) : boost::json::value(format_iso8601_ms(t.closed_at))},
          {"status", events::to_wire(t.status)},
          // INTERVAL in the seed: milliseconds here.
          {"response_time", t.status == events::turn_status::responded ? boost::json::value(t.response_time)
                                                                       : boost::json::value(nullptr)},
          {"response_window_ms", t.window_ms},
          // The seed's name for the same window, in whole minutes (a window set in milliseconds by
          // `parley serve --turn-window` is rounded up).
          {"expected_window_minutes", (t.window_ms + 59999) / 60000},
          {"deadline_at", format_iso8601_ms(t.started_at + t.window_ms)},
          {"metadata", metadata_of(t.metadata)}};
}

boost::json::object record_message_json(const record_message& m) {
  // The analyst's reading (seed 002's intent_tags, emotion, topic_tags) kept in the metadata,
  // shown at the top as the seed names them; null before (or without) an analysis.
  const auto meta = metadata_of(m.metadata);
  const auto field = [&meta](std::string_view key) {
    const auto* v = meta.if_contains(key);
    return v == nullptr ? boost::json::value(nullptr) : *v;
  };
  return {{"id", m.id},
          {"intent_tags", field("intent_tags")},
          {"emotion", field("emotion")},
          {"topic_tags", field("topic_tags")},
          {"turn_id", m.turn_id},
          {"session_id", m.session_id},
          {"dialogue_id", m.dialogue_id},
          {"sender_role", events::to_wire(m.sender_role)},
          {"sender_id", text_or_null(m.sender_id)},
          {"content", m.content},
          {"content_type", events::to_wire(m.content_type)},
          {"content_meta",
           m.content_meta.empty() ? boost::json::value(nullptr) : boost::json::value(metadata_of(m.content_meta))},
          {"created_at", format_iso8601_ms(m.created_at)},
          {"metadata", metadata_of(m.metadata)},
          {"dialog_id", m.dialog_id},
          {"seq", m.seq}};
}

boost::json::object context_block_json(const context_block& block) {
  return {{"text_block", block.text_block},
          {"semantic_tags", boost::json::array(block.semantic_tags.begin(), block.semantic_tags.end())},
          {"emotions", boost::json::array(block.emotions.begin(), block.emotions.end())},
          {"source_message_id", block.source_message_id},
          {"origin", block.origin},
          {"timestamp", format_iso8601_ms(block.timestamp)}};
}

}  // namespace parley::server
