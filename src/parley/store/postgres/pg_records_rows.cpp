#include "parley/store/postgres/pg_records_rows.hpp"

#include <boost/json/string.hpp>

#include "parley/core/json_read.hpp"
#include "parley/store/postgres/pg_rows.hpp"
#include "parley/store/stored_vocab.hpp"

namespace parley::pg {

namespace {

// A key and a text PostgreSQL can hold (storable_text).
void text_field(json_text_writer& out, std::string_view name, std::string_view text) {
  if (text.find('\0') == std::string_view::npos) {
    out.field(name, text);
  } else {
    out.field(name, storable_text(text));
  }
}

// The wire name of an optional vocabulary value; "" (NULL in the table) when absent.
template <events::wire_enum E>
std::string_view wire_or_empty(const std::optional<E>& value) {
  return value ? events::to_wire(*value) : std::string_view();
}

bool stored_true(std::string_view text) { return text == "t"; }

}  // namespace

void write_dialogue(json_text_writer& out, const record_dialogue& d) {
  out.begin_object();
  text_field(out, "id", d.id);
  text_field(out, "dialog_id", d.dialog_id);
  out.field("dialogue_type", events::to_wire(d.dialogue_type));
  text_field(out, "human_id", d.human_id);
  text_field(out, "ai_id", d.ai_id);
  text_field(out, "relation_id", d.relation_id);
  out.key("created_at").integer(d.created_at).key("is_active").boolean(d.is_active);
  out.key("last_activity_at").integer(d.last_activity_at);
  text_field(out, "metadata", d.metadata);
  out.end_object();
}

void write_session(json_text_writer& out, const record_session& s, std::int64_t n) {
  out.begin_object().key("n").integer(n);
  text_field(out, "id", s.id);
  text_field(out, "dialogue_id", s.dialogue_id);
  out.field("session_type", events::to_wire(s.session_type));
  out.key("start_at").integer(s.start_at).key("end_at").integer(s.end_at);
  text_field(out, "description", s.description);
  out.field("created_by", events::to_wire(s.created_by));
  text_field(out, "metadata", s.metadata);
  out.field("trigger_source", wire_or_empty(s.trigger_source));
  text_field(out, "goal", s.goal);
  text_field(out, "ai_mood_state", s.ai_mood_state);
  text_field(out, "summary", s.summary);
  out.end_object();
}

void write_turn(json_text_writer& out, const record_turn& t, std::int64_t n) {
  out.begin_object().key("n").integer(n);
  text_field(out, "id", t.id);
  text_field(out, "dialogue_id", t.dialogue_id);
  text_field(out, "session_id", t.session_id);
  out.field("turn_type", events::to_wire(t.turn_type));
  out.field("initiator_role", events::to_wire(t.initiator_role));
  out.field("responder_role", events::to_wire(t.responder_role));
  out.key("started_at").integer(t.started_at).key("closed_at").integer(t.closed_at);
  out.field("status", events::to_wire(t.status));
  out.key("response_time").integer(t.response_time).key("window_ms").integer(t.window_ms);
  text_field(out, "metadata", t.metadata);
  out.end_object();
}

void write_message(json_text_writer& out, const record_message& m, std::string_view metadata,
                   std::string_view search_folded, std::int64_t n) {
  out.begin_object().key("n").integer(n);
  text_field(out, "id", m.id);
  text_field(out, "dialogue_id", m.dialogue_id);
  text_field(out, "session_id", m.session_id);
  text_field(out, "turn_id", m.turn_id);
  out.field("sender_role", events::to_wire(m.sender_role));
  text_field(out, "sender_id", m.sender_id);
  text_field(out, "content", m.content);
  if (m.content.find('\0') != std::string::npos) {
    std::string exact;
    append_json_string(exact, m.content);
    out.field("content_json", exact);
  }
  out.field("content_type", events::to_wire(m.content_type));
  out.key("created_at").integer(m.created_at);
  text_field(out, "metadata", metadata);
  text_field(out, "dialog_id", m.dialog_id);
  out.key("seq").integer(m.seq);
  text_field(out, "content_meta", m.content_meta);
  text_field(out, "search_folded", search_folded);
  out.end_object();
}

void write_utterance(json_text_writer& out, const record_system_utterance& u) {
  out.begin_object();
  text_field(out, "message_id", u.log_id);
  out.field("trigger", events::to_wire(u.trigger)).field("target", events::to_wire(u.target));
  text_field(out, "notes", u.notes);
  out.end_object();
}

void write_introspection(json_text_writer& out, const record_introspection& i, std::int64_t n) {
  out.begin_object().key("n").integer(n);
  text_field(out, "id", i.id);
  text_field(out, "session_id", i.session_id);
  text_field(out, "dialogue_id", i.dialogue_id);
  text_field(out, "purpose", i.purpose);
  text_field(out, "input_context", i.input_context);
  text_field(out, "tool_used", i.tool_used);
  text_field(out, "tool_input", i.tool_input);
  text_field(out, "tool_output", i.tool_output);
  text_field(out, "generated_entry", i.generated_entry);
  text_field(out, "mood_shift", i.mood_shift);
  text_field(out, "value_impact", i.value_impact);
  out.key("started_at").integer(i.started_at).key("duration_ms").integer(i.duration_ms);
  out.end_object();
}

void write_memory(json_text_writer& out, const record_memory_entry& m) {
  out.begin_object();
  text_field(out, "id", m.id);
  text_field(out, "dialogue_id", m.dialogue_id);
  text_field(out, "ai_id", m.ai_id);
  text_field(out, "content", m.content);
  out.key("created_at").integer(m.created_at);
  text_field(out, "source_turn_id", m.source_turn_id);
  out.end_object();
}

void write_link(json_text_writer& out, const record_memory_link& l) {
  out.begin_object();
  text_field(out, "turn_id", l.turn_id);
  text_field(out, "memory_id", l.memory_id);
  out.field("relation", l.relation).key("created_at").integer(l.created_at);
  out.end_object();
}

void write_cursor(json_text_writer& out, const std::string& dialog_id, const records_cursor& c) {
  out.begin_object();
  text_field(out, "dialog_id", dialog_id);
  text_field(out, "dialogue_id", c.dialogue_id);
  out.field("counterpart", events::to_wire(c.counterpart));
  out.key("window_ms").integer(c.window_ms).key("gap_ms").integer(c.gap_ms);
  text_field(out, "session_id", c.session_id);
  out.field("session_type", events::to_wire(c.session_type));
  out.key("session_last_ms").integer(c.session_last_ms);
  text_field(out, "reflection_trigger", c.reflection_trigger);
  text_field(out, "reflection_goal", c.reflection_goal);
  text_field(out, "reflection_mood", c.reflection_mood);
  text_field(out, "turn_id", c.turn_id);
  out.field("turn_initiator", wire_or_empty(c.turn_initiator));
  text_field(out, "turn_initiator_id", c.turn_initiator_id);
  out.field("turn_responder", wire_or_empty(c.turn_responder));
  out.field("turn_type", wire_or_empty(c.turn_type));
  out.key("turn_started_ms").integer(c.turn_started_ms).key("turn_window_ms").integer(c.turn_window_ms);
  out.end_object();
}

void write_activity(json_text_writer& out, std::string_view id, bool is_active, std::int64_t last_activity_at) {
  out.begin_object();
  text_field(out, "id", id);
  out.key("is_active").boolean(is_active).key("last_activity_at").integer(last_activity_at);
  out.end_object();
}

void write_session_close(json_text_writer& out, std::string_view id, std::int64_t end_at, std::string_view summary,
                         const std::optional<std::string>& metadata) {
  out.begin_object();
  text_field(out, "id", id);
  out.key("end_at").integer(end_at);
  text_field(out, "summary", summary);
  if (metadata) text_field(out, "metadata", *metadata);
  out.end_object();
}

void write_turn_close(json_text_writer& out, const record_turn& t) {
  out.begin_object();
  text_field(out, "id", t.id);
  out.field("turn_type", events::to_wire(t.turn_type)).key("closed_at").integer(t.closed_at);
  out.field("status", events::to_wire(t.status)).key("response_time").integer(t.response_time);
  text_field(out, "metadata", t.metadata);
  out.end_object();
}

void write_message_metadata(json_text_writer& out, std::string_view id, std::string_view metadata) {
  out.begin_object();
  text_field(out, "id", id);
  text_field(out, "metadata", metadata);
  out.end_object();
}

void write_embedding(json_text_writer& out, std::string_view message_id, std::string_view model,
                     std::int64_t dimensions, std::string_view vector_base64) {
  out.begin_object();
  text_field(out, "message_id", message_id);
  text_field(out, "model", model);
  out.key("dimensions").integer(dimensions).field("vector", vector_base64);
  out.end_object();
}

result<record_dialogue> read_dialogue(const rows& r, int i) {
  record_dialogue d;
  d.id = r.text(i, 0);
  d.dialog_id = r.text(i, 1);
  PARLEY_TRY_ASSIGN(d.dialogue_type,
                    stored_vocab<events::dialogue_type>("dialogue", d.id, "dialogue_type", r.text(i, 2)));
  d.human_id = r.text(i, 3);
  d.ai_id = r.text(i, 4);
  d.relation_id = r.text(i, 5);
  PARLEY_TRY_ASSIGN(d.created_at, r.integer(i, 6));
  d.is_active = stored_true(r.text(i, 7));
  PARLEY_TRY_ASSIGN(d.last_activity_at, r.integer(i, 8));
  d.metadata = r.text(i, 9);
  return d;
}

result<record_session> read_session(const rows& r, int i) {
  record_session s;
  s.id = r.text(i, 0);
  s.dialogue_id = r.text(i, 1);
  PARLEY_TRY_ASSIGN(s.session_type, stored_vocab<events::session_type>("session", s.id, "session_type", r.text(i, 2)));
  PARLEY_TRY_ASSIGN(s.start_at, r.integer(i, 3));
  PARLEY_TRY_ASSIGN(s.end_at, r.integer(i, 4));
  s.description = r.text(i, 5);
  PARLEY_TRY_ASSIGN(s.created_by, stored_vocab<events::record_role>("session", s.id, "created_by", r.text(i, 6)));
  s.metadata = r.text(i, 7);
  if (const auto trigger = r.text(i, 8); !trigger.empty()) {
    PARLEY_TRY_ASSIGN(s.trigger_source,
                      stored_vocab<events::trigger_source>("session", s.id, "trigger_source", trigger));
  }
  s.goal = r.text(i, 9);
  s.ai_mood_state = r.text(i, 10);
  s.summary = r.text(i, 11);
  return s;
}

result<record_turn> read_turn(const rows& r, int i) {
  record_turn t;
  t.id = r.text(i, 0);
  t.dialogue_id = r.text(i, 1);
  t.session_id = r.text(i, 2);
  PARLEY_TRY_ASSIGN(t.turn_type, stored_vocab<events::turn_type>("turn", t.id, "turn_type", r.text(i, 3)));
  PARLEY_TRY_ASSIGN(t.initiator_role, stored_vocab<events::record_role>("turn", t.id, "initiator_role", r.text(i, 4)));
  PARLEY_TRY_ASSIGN(t.responder_role, stored_vocab<events::record_role>("turn", t.id, "responder_role", r.text(i, 5)));
  PARLEY_TRY_ASSIGN(t.started_at, r.integer(i, 6));
  PARLEY_TRY_ASSIGN(t.closed_at, r.integer(i, 7));
  PARLEY_TRY_ASSIGN(t.status, stored_vocab<events::turn_status>("turn", t.id, "status", r.text(i, 8)));
  PARLEY_TRY_ASSIGN(t.response_time, r.integer(i, 9));
  PARLEY_TRY_ASSIGN(t.window_ms, r.integer(i, 10));
  t.metadata = r.text(i, 11);
  return t;
}

namespace {

// A message's content: the exact text kept as a JSON string when it has a NUL, else the column.
result<std::string> exact_content(const rows& r, int i, int content, std::string_view table, std::string_view id) {
  if (r.is_null(i, content + 1)) return std::string(r.text(i, content));
  boost::system::error_code ec;
  const boost::json::value exact = read_json(r.text(i, content + 1), ec);
  if (ec || !exact.is_string()) {
    return make_error(errc::corrupt,
                      std::string(table) + " " + std::string(id) + ": content_json is not a JSON string");
  }
  return std::string(exact.get_string());
}

}  // namespace

result<record_message> read_record_message(const rows& r, int i) {
  record_message m;
  m.id = r.text(i, 0);
  m.dialogue_id = r.text(i, 1);
  m.session_id = r.text(i, 2);
  m.turn_id = r.text(i, 3);
  PARLEY_TRY_ASSIGN(m.sender_role, stored_vocab<events::record_role>("message", m.id, "sender_role", r.text(i, 4)));
  m.sender_id = r.text(i, 5);
  PARLEY_TRY_ASSIGN(m.content, exact_content(r, i, 6, "message", m.id));
  PARLEY_TRY_ASSIGN(m.content_type, stored_vocab<events::content_type>("message", m.id, "content_type", r.text(i, 8)));
  PARLEY_TRY_ASSIGN(m.created_at, r.integer(i, 9));
  m.metadata = r.text(i, 10);
  m.dialog_id = r.text(i, 11);
  PARLEY_TRY_ASSIGN(m.seq, r.integer(i, 12));
  m.content_meta = r.text(i, 13);
  return m;
}

result<record_introspection> read_introspection(const rows& r, int i) {
  record_introspection t;
  std::string* const texts[] = {&t.id,          &t.session_id, &t.dialogue_id, &t.purpose,         &t.input_context,
                                &t.tool_used,   &t.tool_input, &t.tool_output, &t.generated_entry, &t.mood_shift,
                                &t.value_impact};
  for (int c = 0; c < 11; ++c) *texts[c] = r.text(i, c);
  PARLEY_TRY_ASSIGN(t.started_at, r.integer(i, 11));
  PARLEY_TRY_ASSIGN(t.duration_ms, r.integer(i, 12));
  return t;
}

result<record_system_utterance> read_utterance(const rows& r, int i) {
  record_system_utterance u;
  u.log_id = r.text(i, 0);
  PARLEY_TRY_ASSIGN(u.timestamp, r.integer(i, 1));
  u.conversation_id = r.text(i, 2);
  PARLEY_TRY_ASSIGN(u.trigger,
                    stored_vocab<events::utterance_trigger>("system_utterance", u.log_id, "trigger", r.text(i, 3)));
  PARLEY_TRY_ASSIGN(u.content, exact_content(r, i, 4, "system_utterance", u.log_id));
  PARLEY_TRY_ASSIGN(u.target,
                    stored_vocab<events::utterance_target>("system_utterance", u.log_id, "target", r.text(i, 6)));
  u.linked_turn_id = r.text(i, 7);
  u.notes = r.text(i, 8);
  return u;
}

result<record_memory_entry> read_memory(const rows& r, int i) {
  record_memory_entry m;
  m.id = r.text(i, 0);
  m.dialogue_id = r.text(i, 1);
  m.ai_id = r.text(i, 2);
  m.content = r.text(i, 3);
  PARLEY_TRY_ASSIGN(m.created_at, r.integer(i, 4));
  m.source_turn_id = r.text(i, 5);
  return m;
}

namespace {

// A cursor column of a vocabulary that is '' until it is set.
template <events::wire_enum E>
result<std::optional<E>> optional_cursor_vocab(const rows& r, int i, int column, const std::string& dialog_id,
                                               std::string_view name) {
  const std::string_view text = r.text(i, column);
  if (text.empty()) return std::optional<E>{};
  auto value = stored_vocab<E>("records_cursor", dialog_id, name, text);
  if (!value) return std::move(value).err();
  return std::optional<E>{*value};
}

}  // namespace

result<records_cursor> read_cursor(const rows& r, int i, const std::string& dialog_id) {
  records_cursor c;
  c.dialog_id = dialog_id;
  c.dialogue_id = r.text(i, 0);
  PARLEY_TRY_ASSIGN(c.counterpart,
                    stored_vocab<events::record_role>("records_cursor", dialog_id, "counterpart", r.text(i, 1)));
  PARLEY_TRY_ASSIGN(c.window_ms, r.integer(i, 2));
  PARLEY_TRY_ASSIGN(c.gap_ms, r.integer(i, 3));
  c.session_id = r.text(i, 4);
  PARLEY_TRY_ASSIGN(c.session_type,
                    stored_vocab<events::session_type>("records_cursor", dialog_id, "session_type", r.text(i, 5)));
  PARLEY_TRY_ASSIGN(c.session_last_ms, r.integer(i, 6));
  c.reflection_trigger = r.text(i, 7);
  c.reflection_goal = r.text(i, 8);
  c.reflection_mood = r.text(i, 9);
  c.turn_id = r.text(i, 10);
  PARLEY_TRY_ASSIGN(c.turn_initiator,
                    optional_cursor_vocab<events::record_role>(r, i, 11, dialog_id, "turn_initiator"));
  c.turn_initiator_id = r.text(i, 12);
  PARLEY_TRY_ASSIGN(c.turn_responder,
                    optional_cursor_vocab<events::record_role>(r, i, 13, dialog_id, "turn_responder"));
  PARLEY_TRY_ASSIGN(c.turn_type, optional_cursor_vocab<events::turn_type>(r, i, 14, dialog_id, "turn_type"));
  PARLEY_TRY_ASSIGN(c.turn_started_ms, r.integer(i, 15));
  PARLEY_TRY_ASSIGN(c.turn_window_ms, r.integer(i, 16));
  return c;
}

}  // namespace parley::pg
