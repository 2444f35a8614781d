// The records writer's statements, prepared once per connection (records_writer.hpp), grouped by
// the rows they read or write.
#include <string>

#include "parley/store/sqlite/message_log_metadata.hpp"
#include "parley/store/sqlite/records_writer.hpp"

namespace parley::sqlite {

result<void> records_writer::prepare(connection& db) {
  db_ = &db;
  PARLEY_TRY(prepare_cursor_statements(db));
  PARLEY_TRY(prepare_record_statements(db));
  PARLEY_TRY(prepare_lookup_statements(db));
  PARLEY_TRY(prepare_reflection_statements(db));
  return prepare_annotation_statements(db);
}

// The dialog's records_cursor: where its latest dialogue, session and turn stand.
result<void> records_writer::prepare_cursor_statements(connection& db) {
  PARLEY_TRY(prepare_into(
      db, load_cursor_,
      "SELECT coalesce((SELECT record_id_text(d.id) FROM dialogue AS d WHERE d.rowid = c.dialogue_rowid), ''), "
      "c.counterpart, c.window_ms, c.gap_ms, "
      "coalesce((SELECT record_id_text(s.id) FROM session AS s WHERE s.rowid = c.session_rowid), ''), "
      "c.session_last_ms, coalesce(record_id_text(t.id), ''), "
      "c.turn_initiator, c.turn_responder, c.turn_type, c.turn_started_ms, c.session_type, "
      // The open turn's own window lives in its row (records_cursor.turn_window_ms).
      "c.reflection_trigger, c.reflection_goal, c.reflection_mood, c.turn_initiator_id, "
      "coalesce(t.window_ms, 0), "
      "c.dialogue_rowid, c.session_rowid, c.turn_rowid "
      "FROM records_cursor AS c LEFT JOIN turn AS t ON t.rowid = c.turn_rowid WHERE c.dialog_id = ?1"));
  PARLEY_TRY(
      prepare_into(db, save_cursor_,
                   "INSERT OR REPLACE INTO records_cursor (dialog_id, dialogue_rowid, counterpart, window_ms, "
                   "gap_ms, session_rowid, session_last_ms, turn_rowid, turn_initiator, turn_responder, turn_type, "
                   "turn_started_ms, session_type, reflection_trigger, reflection_goal, reflection_mood, "
                   "turn_initiator_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, "
                   "?16, ?17)"));
  return ok();
}

// The four layers: dialogue, session, turn, message (and the message's full-text row).
result<void> records_writer::prepare_record_statements(connection& db) {
  // Empty text is stored as NULL where the seed's column is optional.
  PARLEY_TRY(prepare_into(db, insert_dialogue_,
                          "INSERT INTO dialogue (id, dialog_id, dialogue_type, human_id, ai_id, relation_id, "
                          "created_at, is_active, last_activity_at, metadata) VALUES (?1, ?2, ?3, "
                          "NULLIF(?4, ''), NULLIF(?5, ''), NULLIF(?6, ''), ?7, ?8, ?9, ?10)"));
  PARLEY_TRY(prepare_into(db, update_dialogue_,
                          "UPDATE dialogue SET is_active = ?2, last_activity_at = max(last_activity_at, ?3) "
                          "WHERE id = ?1"));
  PARLEY_TRY(prepare_into(db, insert_session_,
                          "INSERT INTO session (id, dialogue_rowid, session_type, start_at, end_at, description, "
                          "created_by, metadata, trigger_source, goal, ai_mood_state) VALUES (?1, ?2, ?3, ?4, NULL, "
                          "NULLIF(?5, ''), ?6, ?7, NULLIF(?8, ''), NULLIF(?9, ''), NULLIF(?10, ''))"));
  PARLEY_TRY(prepare_into(db, close_session_,
                          "UPDATE session SET end_at = ?2, summary = coalesce(NULLIF(?3, ''), summary), "
                          "metadata = CASE WHEN ?4 = '' THEN metadata ELSE json_patch(metadata, ?4) END "
                          "WHERE id = ?1"));
  PARLEY_TRY(prepare_into(db, insert_turn_,
                          "INSERT INTO turn (id, dialogue_rowid, session_rowid, turn_type, initiator_role, "
                          "responder_role, started_at, closed_at, status, response_time, window_ms, metadata) VALUES "
                          "(?1, ?2, NULLIF(?3, 0), "
                          "?4, ?5, ?6, ?7, NULL, 'pending', NULL, ?8, ?9)"));
  // A metadata that only names the answering message by its UUID keeps that message's rowid
  // instead, and '' (records_v19.hpp).
  PARLEY_TRY(prepare_into(db, close_turn_,
                          "UPDATE turn SET turn_type = ?2, closed_at = ?3, status = ?4, "
                          "response_time = CASE WHEN ?4 = 'responded' THEN ?5 END, metadata = ?6, "
                          "responded_by = NULLIF(?7, 0) WHERE id = ?1"));
  PARLEY_TRY(prepare_into(db, insert_message_,
                          "INSERT INTO message (id, dialogue_rowid, session_rowid, turn_rowid, sender_role, sender_id, "
                          "content, content_type, created_at, metadata, event_id, content_meta) VALUES (?1, ?2, "
                          "NULLIF(?3, 0), NULLIF(?4, 0), ?5, NULLIF(?6, ''), ?7, ?8, ?9, ?10, ?11, NULLIF(?12, ''))"));
  PARLEY_TRY(prepare_into(db, insert_fts_, "INSERT INTO message_fts (rowid, content) VALUES (?1, ?2)"));
  return ok();
}

// A row's rowid by its id, and an event's by its dialog and seq.
result<void> records_writer::prepare_lookup_statements(connection& db) {
  PARLEY_TRY(prepare_into(db, find_dialogue_, "SELECT rowid FROM dialogue WHERE id = ?1"));
  PARLEY_TRY(prepare_into(db, find_session_, "SELECT rowid FROM session WHERE id = ?1"));
  PARLEY_TRY(prepare_into(db, find_turn_, "SELECT rowid FROM turn WHERE id = ?1"));
  PARLEY_TRY(prepare_into(db, find_message_, "SELECT rowid FROM message WHERE id = ?1"));
  PARLEY_TRY(prepare_into(db, find_event_,
                          "SELECT l.id FROM event_log AS l JOIN dialog_keys AS k ON k.key = l.dialog_key "
                          "WHERE k.id = ?1 AND l.seq = ?2"));
  return ok();
}

// Self-reflection's rows: system utterances, introspection turns, memory entries and their links.
result<void> records_writer::prepare_reflection_statements(connection& db) {
  // An utterance is its message, written just before it (schema version 14): only what the
  // message lacks is stored. VALUES, not INSERT ... SELECT: a statement that may insert several
  // rows opens a statement savepoint, and a savepoint makes FTS5 flush the message text it holds
  // in memory — a quarter of the writer's instructions when every utterance did it.
  PARLEY_TRY(prepare_into(db, insert_utterance_,
                          "INSERT INTO system_utterance (message_rowid, trigger, target, notes) "
                          "VALUES (?1, ?2, ?3, NULLIF(?4, ''))"));
  PARLEY_TRY(prepare_into(db, insert_introspection_,
                          "INSERT INTO introspection_turn (id, session_id, dialogue_id, purpose, input_context, "
                          "tool_used, tool_input, tool_output, generated_entry, mood_shift, value_impact, started_at, "
                          "duration_ms) VALUES (?1, ?2, ?3, ?4, "
                          "NULLIF(?5, ''), NULLIF(?6, ''), NULLIF(?7, ''), "
                          "NULLIF(?8, ''), NULLIF(?9, ''), NULLIF(?10, ''), NULLIF(?11, ''), ?12, ?13)"));
  PARLEY_TRY(prepare_into(db, insert_memory_,
                          "INSERT INTO memory_entry (id, dialogue_id, ai_id, content, created_at, source_turn_id) "
                          "VALUES (?1, ?2, NULLIF(?3, ''), ?4, ?5, "
                          "NULLIF(?6, ''))"));
  // A link made twice is one link.
  PARLEY_TRY(prepare_into(db, insert_link_,
                          "INSERT OR IGNORE INTO memory_links (turn_id, memory_id, relation, created_at) "
                          "VALUES (?1, ?2, ?3, ?4)"));
  return ok();
}

// What is added to a written message later: metadata patches and embeddings.
result<void> records_writer::prepare_annotation_statements(connection& db) {
  PARLEY_TRY(prepare_into(
      db, patch_message_metadata_,
      "UPDATE message AS m SET metadata = json_patch(" + stored_message_metadata_sql() + ", ?2) WHERE m.id = ?1"));
  // The latest embedding of a message replaces an earlier one (another model, a retry); one for a
  // message the records do not hold is dropped, as the metadata patch changes no row then.
  PARLEY_TRY(prepare_into(db, upsert_embedding_,
                          "INSERT INTO message_embedding (message_id, model, dimensions, vector) "
                          "SELECT ?1, ?2, ?3, ?4 WHERE EXISTS (SELECT 1 FROM message WHERE id = ?1) "
                          "ON CONFLICT "
                          "(message_id) DO UPDATE SET model = excluded.model, "
                          "dimensions = excluded.dimensions, vector = excluded.vector"));
  return ok();
}

}  // namespace parley::sqlite
