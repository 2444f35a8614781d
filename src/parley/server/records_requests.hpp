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
  // as sent; records_rules::session_type_of maps the seed's words
  events::requested_session_type session_type = events::requested_session_type::dialogue;
  std::string description;
  std::optional<events::record_role> created_by;
  std::optional<events::triggered_by> triggered_by;
  boost::json::object metadata;
  std::optional<events::trigger_source> trigger_source;
  std::optional<std::string> goal;
  std::optional<std::string> ai_mood_state;

  template <class S, class R>
  static void fields(S& s, R& r) {
    r.required_name("dialogue_id", s.dialogue_id);
    r.one_of("session_type", s.session_type, std::optional{events::requested_session_type::dialogue});
    r.text("description", s.description);
    r.one_of("created_by", s.created_by);
    r.one_of("triggered_by", s.triggered_by);
    r.object("metadata", s.metadata);
    r.one_of("trigger_source", s.trigger_source);
    r.text("goal", s.goal);
    r.text("ai_mood_state", s.ai_mood_state);
  }
  result<void> check() const;

  bool self_reflection() const {
    return records_rules::session_type_of(session_type) == events::session_type::self_reflection;
  }
};

struct close_session_request {
  std::string summary;
  std::optional<events::session_close_reason> reason;

  template <class S, class R>
  static void fields(S& s, R& r) {
    r.text("summary", s.summary, kMaxIntrospectionFieldBytes);
    r.one_of("reason", s.reason);
  }
};

struct open_turn_request {
  std::string session_id;
  // Parley's names and the seed's; check() takes either and refuses two that disagree.
  std::optional<events::record_role> initiator_role;
  std::optional<events::record_role> initiator;
  std::optional<events::record_role> responder_role;
  std::optional<events::record_role> expected_responder;
  std::optional<std::string> turn_type;
  std::optional<std::int64_t> expected_window_minutes;

  template <class S, class R>
  static void fields(S& s, R& r) {
    r.required_name("session_id", s.session_id);
    r.one_of("initiator_role", s.initiator_role);
    r.one_of("initiator", s.initiator);
    r.one_of("responder_role", s.responder_role);
    r.one_of("expected_responder", s.expected_responder);
    r.name("turn_type", s.turn_type);
    r.integer("expected_window_minutes", s.expected_window_minutes, 1, kMaxTurnWindowMinutes);
  }
  result<void> check() const;

  // After check(): the initiator and responder, whichever name carried them.
  events::record_role opened_by() const {
    return initiator_role.value_or(initiator.value_or(events::record_role::human));
  }
  events::record_role waits_for() const {
    return responder_role.value_or(expected_responder.value_or(events::record_role::human));
  }
  // The turn's own response window, when the request gives one.
  std::optional<std::int64_t> window_ms() const {
    if (!expected_window_minutes) return std::nullopt;
    return *expected_window_minutes * 60 * 1000;
  }
};

struct close_turn_request {
  events::turn_close status = events::turn_close::responded;
  std::optional<events::record_role> closed_by;

  template <class S, class R>
  static void fields(S& s, R& r) {
    r.one_of("status", s.status, std::optional{events::turn_close::responded});
    r.one_of("closed_by", s.closed_by);
  }
};

struct record_message_request {
  // The turn, or (seed 002) the dialogue or session whose open turn the message joins.
  std::string turn_id;
  std::string dialogue_id;
  std::string session_id;
  events::record_role sender_role = events::record_role::human;
  std::string sender_id;
  std::string content;
  events::content_type content_type = events::content_type::text;
  std::optional<boost::json::object> content_meta;
  boost::json::object metadata;
  std::string reply_to;
  std::optional<events::utterance_target> target;
  std::optional<std::string> notes;

  template <class S, class R>
  static void fields(S& s, R& r) {
    r.name("turn_id", s.turn_id);
    r.name("dialogue_id", s.dialogue_id);
    r.name("session_id", s.session_id);
    r.one_of("sender_role", s.sender_role, std::optional<events::record_role>{});
    r.name("sender_id", s.sender_id);
    r.required_text("content", s.content, kMaxMessageContentBytes);
    r.one_of("content_type", s.content_type, std::optional{events::content_type::text},
             records_rules::kWritableContentTypes);
    r.object("content_meta", s.content_meta);
    r.object("metadata", s.metadata);
    r.name("reply_to", s.reply_to);
    r.one_of("target", s.target);
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
