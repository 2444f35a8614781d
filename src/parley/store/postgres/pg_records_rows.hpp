// Moves seed 002's records between their C++ rows (model/conversation_records.hpp) and the
// PostgreSQL store's records tables (pg_schema.cpp, version 2): writes as elements of JSON record
// sets, with the keys pg_records_statements.cpp's json_to_recordset definitions name; reads from
// text columns selected with the column lists here, whose order the readers follow.
//
// Text goes through storable_text (PostgreSQL's text cannot hold NUL) except a message's content,
// which search and the API must give back exactly: one with a NUL also keeps its exact text as a
// JSON string (`content_json`), as the msgId index keeps an input's (pg_rows.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "parley/core/json_text.hpp"
#include "parley/core/result.hpp"
#include "parley/model/conversation_records.hpp"
#include "parley/store/postgres/pg_connection.hpp"

namespace parley::pg {

// Each appends one element; `n` orders the rows a statement inserts (their log order).
void write_dialogue(json_text_writer& out, const record_dialogue& d);
void write_session(json_text_writer& out, const record_session& s, std::int64_t n);
void write_turn(json_text_writer& out, const record_turn& t, std::int64_t n);
// `metadata`: the message's, with the patches of this transaction applied; `search_folded`: its
// search text (message_search_text) folded as SQLite's trigram tokenizer folds it (pg_schema.hpp).
void write_message(json_text_writer& out, const record_message& m, std::string_view metadata,
                   std::string_view search_folded, std::int64_t n);
void write_utterance(json_text_writer& out, const record_system_utterance& u);
void write_introspection(json_text_writer& out, const record_introspection& i, std::int64_t n);
void write_memory(json_text_writer& out, const record_memory_entry& m);
void write_link(json_text_writer& out, const record_memory_link& l);
void write_cursor(json_text_writer& out, const std::string& dialog_id, const records_cursor& c);
// The updates of rows made before: a dialogue's activity, a session's and a turn's closing (a
// session's `metadata` absent when unchanged), a message's patched metadata, an embedding
// (`vector` in base64).
void write_activity(json_text_writer& out, std::string_view id, bool is_active, std::int64_t last_activity_at);
void write_session_close(json_text_writer& out, std::string_view id, std::int64_t end_at, std::string_view summary,
                         const std::optional<std::string>& metadata);
void write_turn_close(json_text_writer& out, const record_turn& t);
void write_message_metadata(json_text_writer& out, std::string_view id, std::string_view metadata);
void write_embedding(json_text_writer& out, std::string_view message_id, std::string_view model,
                     std::int64_t dimensions, std::string_view vector_base64);

// Column lists in the order the readers below read them, for tables aliased d, s, t, m, i, u, e.
inline constexpr std::string_view kDialogueColumns =
    "d.id, d.dialog_id, d.dialogue_type, coalesce(d.human_id, ''), coalesce(d.ai_id, ''), "
    "coalesce(d.relation_id, ''), d.created_at, d.is_active, d.last_activity_at, d.metadata";
inline constexpr std::string_view kSessionColumns =
    "s.id, s.dialogue_id, s.session_type, s.start_at, coalesce(s.end_at, 0), coalesce(s.description, ''), "
    "s.created_by, s.metadata, coalesce(s.trigger_source, ''), coalesce(s.goal, ''), coalesce(s.ai_mood_state, ''), "
    "coalesce(s.summary, '')";
inline constexpr std::string_view kTurnColumns =
    "t.id, t.dialogue_id, coalesce(t.session_id, ''), t.turn_type, t.initiator_role, t.responder_role, t.started_at, "
    "coalesce(t.closed_at, 0), t.status, coalesce(t.response_time, 0), t.window_ms, t.metadata";
inline constexpr std::string_view kMessageColumns =
    "m.id, m.dialogue_id, coalesce(m.session_id, ''), coalesce(m.turn_id, ''), m.sender_role, "
    "coalesce(m.sender_id, ''), m.content, m.content_json, m.content_type, m.created_at, m.metadata, m.dialog_id, "
    "m.seq, coalesce(m.content_meta, '')";
inline constexpr std::string_view kIntrospectionColumns =
    "i.id, i.session_id, i.dialogue_id, i.purpose, coalesce(i.input_context, ''), coalesce(i.tool_used, ''), "
    "coalesce(i.tool_input, ''), coalesce(i.tool_output, ''), coalesce(i.generated_entry, ''), "
    "coalesce(i.mood_shift, ''), coalesce(i.value_impact, ''), i.started_at, i.duration_ms";
// From the system_utterance_log view, whose content is its message's (read exactly through
// content_json as a message's is).
inline constexpr std::string_view kUtteranceColumns =
    "u.log_id, u.timestamp, u.conversation_id, u.trigger, u.content, u.content_json, u.target, "
    "coalesce(u.linked_turn_id, ''), coalesce(u.notes, '')";
inline constexpr std::string_view kMemoryColumns =
    "e.id, e.dialogue_id, coalesce(e.ai_id, ''), e.content, e.created_at, coalesce(e.source_turn_id, '')";
inline constexpr std::string_view kCursorColumns =
    "c.dialogue_id, c.counterpart, c.window_ms, c.gap_ms, c.session_id, c.session_type, c.session_last_ms, "
    "c.reflection_trigger, c.reflection_goal, c.reflection_mood, c.turn_id, c.turn_initiator, c.turn_initiator_id, "
    "c.turn_responder, c.turn_type, c.turn_started_ms, c.turn_window_ms";

result<record_dialogue> read_dialogue(const rows& r, int row);
result<record_session> read_session(const rows& r, int row);
result<record_turn> read_turn(const rows& r, int row);
result<record_message> read_record_message(const rows& r, int row);
result<record_introspection> read_introspection(const rows& r, int row);
result<record_system_utterance> read_utterance(const rows& r, int row);
result<record_memory_entry> read_memory(const rows& r, int row);
// A records_cursor row of `dialog_id`, selected with kCursorColumns.
result<records_cursor> read_cursor(const rows& r, int row, const std::string& dialog_id);

}  // namespace parley::pg
