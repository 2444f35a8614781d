#include "parley/store/postgres/pg_records_statements.hpp"

#include <string>

namespace parley::pg::records_sql {

namespace {

struct prepared_statement {
  const char* name;
  const char* sql;
};

// The four layers: dialogue, session, turn, message. A row made and changed in one transaction is
// inserted as it ends up (pg_records_changes.hpp); the UPDATEs are for rows made before it. A
// message's folded search text is kept only where lower() does not give it (pg_schema.hpp).
constexpr prepared_statement kLayers[] = {
    {kInsertDialogues,
     "INSERT INTO dialogue (id, dialog_id, dialogue_type, human_id, ai_id, relation_id, created_at, is_active, "
     "last_activity_at, metadata) SELECT x.id, x.dialog_id, x.dialogue_type, NULLIF(x.human_id, ''), "
     "NULLIF(x.ai_id, ''), NULLIF(x.relation_id, ''), x.created_at, x.is_active, x.last_activity_at, x.metadata "
     "FROM json_to_recordset($1::json) AS x(id text, dialog_id text, dialogue_type text, human_id text, ai_id text, "
     "relation_id text, created_at bigint, is_active boolean, last_activity_at bigint, metadata text)"},
    {kDialogueActivity,
     "UPDATE dialogue d SET is_active = x.is_active, last_activity_at = greatest(d.last_activity_at, "
     "x.last_activity_at) FROM json_to_recordset($1::json) AS x(id text, is_active boolean, last_activity_at bigint) "
     "WHERE d.id = x.id"},
    {kInsertSessions,
     "INSERT INTO session (id, dialogue_id, session_type, start_at, end_at, description, created_by, metadata, "
     "trigger_source, goal, ai_mood_state, summary) SELECT x.id, x.dialogue_id, x.session_type, x.start_at, "
     "NULLIF(x.end_at, 0), NULLIF(x.description, ''), x.created_by, x.metadata, NULLIF(x.trigger_source, ''), "
     "NULLIF(x.goal, ''), NULLIF(x.ai_mood_state, ''), NULLIF(x.summary, '') FROM json_to_recordset($1::json) AS "
     "x(n bigint, id text, dialogue_id text, session_type text, start_at bigint, end_at bigint, description text, "
     "created_by text, metadata text, trigger_source text, goal text, ai_mood_state text, summary text) ORDER BY x.n"},
    // A closing summary replaces one only when it says something; metadata is NULL when unpatched.
    {kCloseSessions,
     "UPDATE session s SET end_at = x.end_at, summary = coalesce(NULLIF(x.summary, ''), s.summary), "
     "metadata = coalesce(x.metadata, s.metadata) FROM json_to_recordset($1::json) AS x(id text, end_at bigint, "
     "summary text, metadata text) WHERE s.id = x.id"},
    {kInsertTurns,
     "INSERT INTO turn (id, dialogue_id, session_id, turn_type, initiator_role, responder_role, started_at, closed_at, "
     "status, response_time, window_ms, metadata) SELECT x.id, x.dialogue_id, NULLIF(x.session_id, ''), x.turn_type, "
     "x.initiator_role, x.responder_role, x.started_at, CASE WHEN x.status <> 'pending' THEN x.closed_at END, "
     "x.status, CASE WHEN x.status = 'responded' THEN x.response_time END, x.window_ms, x.metadata FROM "
     "json_to_recordset($1::json) AS x(n bigint, id text, dialogue_id text, session_id text, turn_type text, "
     "initiator_role text, responder_role text, started_at bigint, closed_at bigint, status text, "
     "response_time bigint, window_ms bigint, metadata text) ORDER BY x.n"},
    {kCloseTurns,
     "UPDATE turn t SET turn_type = x.turn_type, closed_at = x.closed_at, status = x.status, response_time = CASE "
     "WHEN x.status = 'responded' THEN x.response_time END, metadata = x.metadata FROM json_to_recordset($1::json) "
     "AS x(id text, turn_type text, closed_at bigint, status text, response_time bigint, metadata text) "
     "WHERE t.id = x.id"},
    {kInsertMessages,
     "INSERT INTO message (id, dialogue_id, session_id, turn_id, sender_role, sender_id, content, content_json, "
     "content_type, created_at, metadata, dialog_id, seq, content_meta, search_folded) SELECT x.id, x.dialogue_id, "
     "NULLIF(x.session_id, ''), NULLIF(x.turn_id, ''), x.sender_role, NULLIF(x.sender_id, ''), x.content, "
     "x.content_json, x.content_type, x.created_at, x.metadata, x.dialog_id, x.seq, NULLIF(x.content_meta, ''), "
     "NULLIF(x.search_folded, lower(x.content)) FROM json_to_recordset($1::json) AS x(n bigint, id text, "
     "dialogue_id text, session_id text, turn_id text, sender_role text, sender_id text, content text, "
     "content_json text, content_type text, created_at bigint, metadata text, dialog_id text, seq bigint, "
     "content_meta text, search_folded text) ORDER BY x.n"},
};

// What is added to a written message later (its metadata patched, an embedding), and
// self-reflection's rows. An embedding of a message the records do not hold is dropped, as the
// SQLite store drops it; a link made twice is one link.
constexpr prepared_statement kAdditions[] = {
    {kMessageMetadata,
     "UPDATE message m SET metadata = x.metadata FROM json_to_recordset($1::json) AS x(id text, metadata text) "
     "WHERE m.id = x.id"},
    {kUpsertEmbeddings,
     "INSERT INTO message_embedding (message_id, model, dimensions, vector) SELECT x.message_id, x.model, "
     "x.dimensions, decode(x.vector, 'base64') FROM json_to_recordset($1::json) AS x(message_id text, model text, "
     "dimensions bigint, vector text) WHERE EXISTS (SELECT 1 FROM message m WHERE m.id = x.message_id) "
     "ON CONFLICT (message_id) DO UPDATE SET model = EXCLUDED.model, dimensions = EXCLUDED.dimensions, "
     "vector = EXCLUDED.vector"},
    {kInsertUtterances,
     "INSERT INTO system_utterance (message_id, trigger, target, notes) SELECT x.message_id, x.trigger, x.target, "
     "NULLIF(x.notes, '') FROM json_to_recordset($1::json) AS x(message_id text, trigger text, target text, "
     "notes text)"},
    {kInsertIntrospections,
     "INSERT INTO introspection_turn (id, session_id, dialogue_id, purpose, input_context, tool_used, tool_input, "
     "tool_output, generated_entry, mood_shift, value_impact, started_at, duration_ms) SELECT x.id, x.session_id, "
     "x.dialogue_id, x.purpose, NULLIF(x.input_context, ''), NULLIF(x.tool_used, ''), NULLIF(x.tool_input, ''), "
     "NULLIF(x.tool_output, ''), NULLIF(x.generated_entry, ''), NULLIF(x.mood_shift, ''), "
     "NULLIF(x.value_impact, ''), x.started_at, x.duration_ms FROM json_to_recordset($1::json) AS x(n bigint, "
     "id text, session_id text, dialogue_id text, purpose text, input_context text, tool_used text, tool_input text, "
     "tool_output text, generated_entry text, mood_shift text, value_impact text, started_at bigint, "
     "duration_ms bigint) ORDER BY x.n"},
    {kInsertMemories,
     "INSERT INTO memory_entry (id, dialogue_id, ai_id, content, created_at, source_turn_id) SELECT x.id, "
     "x.dialogue_id, NULLIF(x.ai_id, ''), x.content, x.created_at, NULLIF(x.source_turn_id, '') FROM "
     "json_to_recordset($1::json) AS x(id text, dialogue_id text, ai_id text, content text, created_at bigint, "
     "source_turn_id text)"},
    {kInsertLinks,
     "INSERT INTO memory_links (turn_id, memory_id, relation, created_at) SELECT x.turn_id, x.memory_id, x.relation, "
     "x.created_at FROM json_to_recordset($1::json) AS x(turn_id text, memory_id text, relation text, "
     "created_at bigint) ON CONFLICT (turn_id, memory_id) DO NOTHING"},
    {kSaveCursors,
     "INSERT INTO records_cursor AS c (dialog_id, dialogue_id, counterpart, window_ms, gap_ms, session_id, "
     "session_type, session_last_ms, reflection_trigger, reflection_goal, reflection_mood, turn_id, turn_initiator, "
     "turn_initiator_id, turn_responder, turn_type, turn_started_ms, turn_window_ms) SELECT * FROM "
     "json_to_recordset($1::json) AS x(dialog_id text, dialogue_id text, counterpart text, window_ms bigint, "
     "gap_ms bigint, session_id text, session_type text, session_last_ms bigint, reflection_trigger text, "
     "reflection_goal text, reflection_mood text, turn_id text, turn_initiator text, turn_initiator_id text, "
     "turn_responder text, turn_type text, turn_started_ms bigint, turn_window_ms bigint) ON CONFLICT (dialog_id) DO "
     "UPDATE SET dialogue_id = EXCLUDED.dialogue_id, counterpart = EXCLUDED.counterpart, window_ms = "
     "EXCLUDED.window_ms, gap_ms = EXCLUDED.gap_ms, session_id = EXCLUDED.session_id, session_type = "
     "EXCLUDED.session_type, session_last_ms = EXCLUDED.session_last_ms, reflection_trigger = "
     "EXCLUDED.reflection_trigger, reflection_goal = EXCLUDED.reflection_goal, reflection_mood = "
     "EXCLUDED.reflection_mood, turn_id = EXCLUDED.turn_id, turn_initiator = EXCLUDED.turn_initiator, "
     "turn_initiator_id = EXCLUDED.turn_initiator_id, turn_responder = EXCLUDED.turn_responder, turn_type = "
     "EXCLUDED.turn_type, turn_started_ms = EXCLUDED.turn_started_ms, turn_window_ms = EXCLUDED.turn_window_ms"},
};

result<void> prepare_each(connection& conn, const prepared_statement& statement) {
  PGresult* res = PQprepare(conn.raw(), statement.name, statement.sql, 0, nullptr);
  const rows owned(res);
  if (res == nullptr) {
    return make_error(errc::unavailable, std::string("preparing ") + statement.name + ": " + conn.last_error());
  }
  if (PQresultStatus(res) != PGRES_COMMAND_OK) return error_of(res, std::string("preparing ") + statement.name);
  return ok();
}

}  // namespace

result<void> prepare(connection& conn) {
  for (const auto& statement : kLayers) PARLEY_TRY(prepare_each(conn, statement));
  for (const auto& statement : kAdditions) PARLEY_TRY(prepare_each(conn, statement));
  return ok();
}

}  // namespace parley::pg::records_sql
