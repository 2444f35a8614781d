// The typed requests of the records write routes (docs/records.md "Writing records"), each read
// from its JSON body by request_reader. Every route takes Parley's field names and seed 002's own
// ("对话写入接口标准定义"): `initiator`/`expected_responder` beside `initiator_role`/`responder_role`,
// `reflection|interaction` beside `self_reflection|dialogue`, `triggered_by`, a turn's seed outcomes
// and closer, a session's close `reason`, a message placed by `dialogue_id`/`session_id`.
// `check()` holds the rules between fields; the rules against the stored records are
// model/records_write_rules.hpp. Internal to the server module.
#pragma once

#include <boost/json/object.hpp>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/model/records_write_rules.hpp"
#include "parley/server/request_reader.hpp"

namespace parley::server {

inline constexpr std::size_t kMaxMessageContentBytes = 1024 * 1024;
inline constexpr std::size_t kMaxIntrospectionFieldBytes = 256 * 1024;
inline constexpr std::size_t kMaxRelatedMemories = 100;
inline constexpr std::int64_t kMaxTurnWindowMinutes = 30LL * 24 * 60;
inline constexpr std::int64_t kAnyCount = std::numeric_limits<std::int64_t>::max();

struct open_session_request {
  std::string dialogue_id;
  std::string session_type;  // as sent; records_rules::session_type_of maps the seed's words
  std::string description;
  std::optional<std::string> created_by;
  std::optional<std::string> triggered_by;
  boost::json::object metadata;
  std::optional<std::string> trigger_source;
  std::optional<std::string> goal;
  std::optional<std::string> ai_mood_state;

  template <class S, class R>
  static void fields(S& s, R& r) {
    r.required_name("dialogue_id", s.dialogue_id);
    r.one_of("session_type", s.session_type, records_rules::kSessionTypes, "dialogue");
    r.text("description", s.description);
    r.one_of("created_by", s.created_by, records_rules::kRoles);
    r.one_of("triggered_by", s.triggered_by, records_rules::kTriggeredBy);
    r.object("metadata", s.metadata);
    r.one_of("trigger_source", s.trigger_source, records_rules::kTriggerSources);
    r.text("goal", s.goal);
    r.text("ai_mood_state", s.ai_mood_state);
  }
  result<void> check() const;

  bool self_reflection() const { return records_rules::session_type_of(session_type) == "self_reflection"; }
};

struct close_session_request {
  std::string summary;
  std::optional<std::string> reason;

  template <class S, class R>
  static void fields(S& s, R& r) {
    r.text("summary", s.summary, kMaxIntrospectionFieldBytes);
    r.one_of("reason", s.reason, records_rules::kSessionCloseReasons);
  }
};

struct open_turn_request {
  std::string session_id;
  // Parley's names and the seed's; check() takes either and refuses two that disagree.
  std::optional<std::string> initiator_role;
  std::optional<std::string> initiator;
  std::optional<std::string> responder_role;
  std::optional<std::string> expected_responder;
  std::optional<std::string> turn_type;
  std::optional<std::int64_t> expected_window_minutes;

  template <class S, class R>
  static void fields(S& s, R& r) {
    r.required_name("session_id", s.session_id);
    r.one_of("initiator_role", s.initiator_role, records_rules::kRoles);
    r.one_of("initiator", s.initiator, records_rules::kRoles);
    r.one_of("responder_role", s.responder_role, records_rules::kRoles);
    r.one_of("expected_responder", s.expected_responder, records_rules::kRoles);
    r.name("turn_type", s.turn_type);
    r.integer("expected_window_minutes", s.expected_window_minutes, 1, kMaxTurnWindowMinutes);
  }
  result<void> check() const;

  // After check(): the initiator and responder, whichever name carried them.
  std::string opened_by() const { return initiator_role.value_or(initiator.value_or("")); }
  std::string waits_for() const { return responder_role.value_or(expected_responder.value_or("")); }
  // The turn's own response window, when the request gives one.
  std::optional<std::int64_t> window_ms() const {
    if (!expected_window_minutes) return std::nullopt;
    return *expected_window_minutes * 60 * 1000;
  }
};

struct close_turn_request {
  std::string status;  // responded | unresponded | the seed's expired | ignored
  std::optional<std::string> closed_by;

  template <class S, class R>
  static void fields(S& s, R& r) {
    r.one_of("status", s.status, records_rules::kTurnOutcomes, "responded");
    r.one_of("closed_by", s.closed_by, records_rules::kClosedBy);
  }
};

struct record_message_request {
  // The turn, or (seed 002) the dialogue or session whose open turn the message joins.
  std::string turn_id;
  std::string dialogue_id;
  std::string session_id;
  std::string sender_role;
  std::string sender_id;
  std::string content;
  std::string content_type;
  std::optional<boost::json::object> content_meta;
  boost::json::object metadata;
  std::string reply_to;
  std::optional<std::string> target;
  std::optional<std::string> notes;

  template <class S, class R>
  static void fields(S& s, R& r) {
    r.name("turn_id", s.turn_id);
    r.name("dialogue_id", s.dialogue_id);
    r.name("session_id", s.session_id);
    r.one_of("sender_role", s.sender_role, records_rules::kRoles);
    r.name("sender_id", s.sender_id);
    r.required_text("content", s.content, kMaxMessageContentBytes);
    r.one_of("content_type", s.content_type, records_rules::kWritableContentTypes, "text");
    r.object("content_meta", s.content_meta);
    r.object("metadata", s.metadata);
    r.name("reply_to", s.reply_to);
    r.one_of("target", s.target, records_rules::kUtteranceTargets);
    r.text("notes", s.notes);
  }
  result<void> check() const;
};

struct introspection_request {
  std::string purpose;
  std::optional<std::string> input_context;
  std::optional<std::string> tool_used;
  std::optional<std::string> tool_input;
  std::optional<std::string> tool_output;
  std::optional<std::string> generated_entry;
  std::optional<std::string> mood_shift;
  std::optional<std::string> value_impact;
  std::int64_t duration_ms = 0;
  std::optional<std::int64_t> started_at;
  std::vector<std::string> related_memory_ids;

  template <class S, class R>
  static void fields(S& s, R& r) {
    r.required_text("purpose", s.purpose, kMaxIntrospectionFieldBytes);
    r.text("input_context", s.input_context, kMaxIntrospectionFieldBytes);
    r.text("tool_used", s.tool_used, kMaxIntrospectionFieldBytes);
    r.text("tool_input", s.tool_input, kMaxIntrospectionFieldBytes);
    r.text("tool_output", s.tool_output, kMaxIntrospectionFieldBytes);
    r.text("generated_entry", s.generated_entry, kMaxIntrospectionFieldBytes);
    r.text("mood_shift", s.mood_shift, kMaxIntrospectionFieldBytes);
    r.text("value_impact", s.value_impact, kMaxIntrospectionFieldBytes);
    r.integer("duration_ms", s.duration_ms, 0, kAnyCount);
    r.time("started_at", s.started_at);
    r.text_list("related_memory_ids", s.related_memory_ids, kMaxRelatedMemories);
  }
};

struct memory_link_request {
  std::string memory_id;

  template <class S, class R>
  static void fields(S& s, R& r) {
    r.required_name("memory_id", s.memory_id);
  }
};

}  // namespace parley::server
