#include "parley/server/records_json.hpp"

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

// Stored metadata is always an object the reducer wrote; anything else shows as {}.
boost::json::object metadata_of(const std::string& text) {
  auto parsed = parse_json(text);
  if (parsed && parsed->is_object()) return std::move(parsed->as_object());
  return {};
}

}  // namespace

boost::json::object dialogue_json(const record_dialogue& d) {
  return {{"id", d.id},
          {"dialog_id", d.dialog_id},
          {"dialogue_type", d.dialogue_type},
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
          {"session_type", s.session_type},
          {"start_at", format_iso8601_ms(s.start_at)},
          {"end_at", time_or_null(s.end_at)},
          {"description", text_or_null(s.description)},
          {"created_by", s.created_by},
          {"metadata", metadata_of(s.metadata)}};
}

boost::json::object turn_json(const record_turn& t) {
  const bool pending = t.status == "pending";
  return {
      {"id", t.id},
      {"dialogue_id", t.dialogue_id},
      {"session_id", t.session_id},
      {"turn_type", t.turn_type},
      {"initiator_role", t.initiator_role},
      {"responder_role", t.responder_role},
      {"started_at", format_iso8601_ms(t.started_at)},
      {"closed_at", pending ? boost::json::value(nullptr) : boost::json::value(format_iso8601_ms(t.closed_at))},
      {"status", t.status},
      // INTERVAL in the seed: milliseconds here.
      {"response_time", t.status == "responded" ? boost::json::value(t.response_time) : boost::json::value(nullptr)},
      {"response_window_ms", t.window_ms},
      {"deadline_at", format_iso8601_ms(t.started_at + t.window_ms)},
      {"metadata", metadata_of(t.metadata)}};
}

boost::json::object record_message_json(const record_message& m) {
  return {{"id", m.id},
          {"turn_id", m.turn_id},
          {"session_id", m.session_id},
          {"dialogue_id", m.dialogue_id},
          {"sender_role", m.sender_role},
          {"sender_id", text_or_null(m.sender_id)},
          {"content", m.content},
          {"content_type", m.content_type},
          {"created_at", format_iso8601_ms(m.created_at)},
          {"metadata", metadata_of(m.metadata)},
          {"dialog_id", m.dialog_id},
          {"seq", m.seq}};
}

}  // namespace parley::server
