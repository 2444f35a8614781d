// The conversation records of seed 002 (docs/records.md): the migration that adds their tables,
// kept apart from schema.cpp's list so the version it gets there is the only thing tied to it.
#pragma once

#include "parley/core/result.hpp"
#include "parley/store/sqlite/sqlite_handle.hpp"

namespace parley::sqlite {

// Tables, indexes and the FTS5 index of `message`. Shipped: later changes are new migrations.
//
// The seed's TIMESTAMP columns are integer UTC milliseconds (like the log's ts_ms) and its
// INTERVAL `response_time` is milliseconds; NULL where the seed leaves a time open. Beyond the
// seed's columns: `dialogue.dialog_id` and `message.dialog_id, seq` name the log records they come
// from, `turn.turn_type` and `turn.window_ms` the turn's type and response window, and
// `records_cursor` is the reducer's per-dialog state (open turn, current session).
// (Since version 22 a message names its event by `event_log.id` instead: records_v22.hpp.)
// `session`, `turn` and `message` keep a rowid: it is their log order, which breaks ties between
// rows of the same millisecond. Version 10 (schema.cpp) made `dialogue` again with `human_human_group`
// in its CHECK; a fresh database gets this layout first, then that one. `message_fts` is an external-content index (the
// text is stored once, in `message`); the trigram tokenizer matches inside CJK text, which has no spaces between words.
// The seed's enumerations are CHECKs written as `x = 'a' OR x = 'b'`, never `x IN ('a', 'b')`: for
// an IN list SQLite (3.40) builds a temporary index on every INSERT and UPDATE — four per turn row,
// a fifth of the cost of writing the records.
inline constexpr const char* kRecordsSchemaSql = R"sql(
CREATE TABLE dialogue (
  id TEXT PRIMARY KEY,
  dialog_id TEXT NOT NULL UNIQUE,
  dialogue_type TEXT NOT NULL CHECK (dialogue_type = 'human_ai' OR dialogue_type = 'ai_ai' OR
        dialogue_type = 'ai_self' OR dialogue_type = 'lio_group' OR dialogue_type = 'human_human' OR
        dialogue_type = 'human_group_ai'),
  human_id TEXT,
  ai_id TEXT,
  relation_id TEXT,
  created_at INTEGER NOT NULL,
  is_active INTEGER NOT NULL,
  last_activity_at INTEGER NOT NULL,
  metadata TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX dialogue_by_created ON dialogue (created_at);
CREATE TABLE session (
  id TEXT PRIMARY KEY,
  dialogue_id TEXT NOT NULL REFERENCES dialogue (id),
  session_type TEXT NOT NULL CHECK (session_type = 'dialogue' OR session_type = 'self_reflection'),
  start_at INTEGER NOT NULL,
  end_at INTEGER,
  description TEXT,
  created_by TEXT NOT NULL CHECK (created_by = 'system' OR created_by = 'ai' OR
        created_by = 'human'),
  metadata TEXT NOT NULL,
  trigger_source TEXT CHECK (trigger_source = 'schedule' OR trigger_source = 'task_reflection' OR
        trigger_source = 'human_guidance' OR trigger_source = 'api'),
  goal TEXT,
  ai_mood_state TEXT,
  summary TEXT
);
CREATE INDEX session_by_dialogue ON session (dialogue_id, start_at);
CREATE INDEX session_by_start ON session (start_at);
CREATE TABLE turn (
  id TEXT PRIMARY KEY,
  dialogue_id TEXT NOT NULL REFERENCES dialogue (id),
  session_id TEXT NOT NULL REFERENCES session (id),
  turn_type TEXT NOT NULL
    CHECK (turn_type = 'human_query' OR turn_type = 'ai_prompt' OR turn_type = 'system_prompt' OR
          turn_type = 'unresponded_turn'),
  initiator_role TEXT NOT NULL CHECK (initiator_role = 'human' OR initiator_role = 'ai' OR
        initiator_role = 'system'),
  responder_role TEXT NOT NULL CHECK (responder_role = 'human' OR responder_role = 'ai' OR
        responder_role = 'system'),
  started_at INTEGER NOT NULL,
  closed_at INTEGER,
  status TEXT NOT NULL CHECK (status = 'pending' OR status = 'responded' OR status = 'unresponded'),
  response_time INTEGER,
  window_ms INTEGER NOT NULL,
  metadata TEXT NOT NULL
);
CREATE INDEX turn_by_dialogue ON turn (dialogue_id, started_at);
CREATE INDEX turn_by_session ON turn (session_id, started_at);
CREATE INDEX turn_by_started ON turn (started_at);
CREATE TABLE message (
  id TEXT NOT NULL UNIQUE,
  dialogue_id TEXT NOT NULL REFERENCES dialogue (id),
  session_id TEXT NOT NULL REFERENCES session (id),
  turn_id TEXT NOT NULL REFERENCES turn (id),
  sender_role TEXT NOT NULL CHECK (sender_role = 'human' OR sender_role = 'ai' OR
        sender_role = 'system'),
  sender_id TEXT,
  content TEXT NOT NULL,
  content_type TEXT NOT NULL
    CHECK (content_type = 'text' OR content_type = 'markdown' OR content_type = 'image' OR
          content_type = 'audio' OR content_type = 'prompt' OR content_type = 'quote_reply' OR
          content_type = 'tool_input' OR content_type = 'tool_output' OR
          content_type = 'system_context' OR content_type = 'command'),
  created_at INTEGER NOT NULL,
  metadata TEXT NOT NULL,
  dialog_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  content_meta TEXT
);
CREATE INDEX message_by_dialogue ON message (dialogue_id, created_at);
CREATE INDEX message_by_session ON message (session_id, created_at);
CREATE INDEX message_by_turn ON message (turn_id, created_at);
CREATE INDEX message_by_created ON message (created_at);
-- What search finds a message by: its content and, for image and audio, the words that stand for
-- the medium. records_writer indexes exactly this text (search_text_of).
CREATE VIEW message_search AS
  SELECT rowid AS message_rowid,
         CASE WHEN content_meta IS NULL THEN content
              ELSE content || char(10) || coalesce(json_extract(content_meta, '$.caption'), '') || char(10) ||
                   coalesce(json_extract(content_meta, '$.transcription'), '') || char(10) ||
                   coalesce(json_extract(content_meta, '$.text'), '') END AS content
  FROM message;
CREATE VIRTUAL TABLE message_fts USING fts5 (content, content = 'message_search', content_rowid = 'message_rowid',
                                             tokenize = 'trigram');
CREATE TABLE records_cursor (
  dialog_id TEXT PRIMARY KEY,
  dialogue_id TEXT NOT NULL,
  counterpart TEXT NOT NULL,
  window_ms INTEGER NOT NULL,
  gap_ms INTEGER NOT NULL,
  session_id TEXT NOT NULL,
  session_type TEXT NOT NULL,
  session_last_ms INTEGER NOT NULL,
  reflection_trigger TEXT NOT NULL,
  reflection_goal TEXT NOT NULL,
  reflection_mood TEXT NOT NULL,
  turn_id TEXT NOT NULL,
  turn_initiator TEXT NOT NULL,
  turn_initiator_id TEXT NOT NULL,
  turn_responder TEXT NOT NULL,
  turn_type TEXT NOT NULL,
  turn_started_ms INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE introspection_turn (
  id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES session (id),
  dialogue_id TEXT NOT NULL REFERENCES dialogue (id),
  purpose TEXT NOT NULL,
  input_context TEXT,
  tool_used TEXT,
  tool_input TEXT,
  tool_output TEXT,
  generated_entry TEXT,
  mood_shift TEXT,
  value_impact TEXT,
  started_at INTEGER NOT NULL,
  duration_ms INTEGER NOT NULL
);
CREATE INDEX introspection_by_session ON introspection_turn (session_id, started_at);
CREATE TABLE memory_entry (
  id TEXT PRIMARY KEY,
  dialogue_id TEXT NOT NULL REFERENCES dialogue (id),
  ai_id TEXT,
  content TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  source_turn_id TEXT
);
CREATE INDEX memory_entry_by_dialogue ON memory_entry (dialogue_id, created_at);
CREATE TABLE memory_links (
  turn_id TEXT NOT NULL,
  memory_id TEXT NOT NULL REFERENCES memory_entry (id),
  relation TEXT NOT NULL CHECK (relation = 'generated' OR relation = 'related'),
  created_at INTEGER NOT NULL,
  PRIMARY KEY (turn_id, memory_id)
) WITHOUT ROWID;
CREATE INDEX memory_links_by_memory ON memory_links (memory_id);
CREATE TABLE system_utterance_log (
  log_id TEXT PRIMARY KEY,
  timestamp INTEGER NOT NULL,
  conversation_id TEXT NOT NULL REFERENCES dialogue (id),
  trigger TEXT NOT NULL CHECK (trigger = 'tool_result' OR trigger = 'context_hint' OR
        trigger = 'proactive_prompt'),
  content TEXT NOT NULL,
  target TEXT NOT NULL CHECK (target = 'human' OR target = 'ai' OR target = 'all'),
  linked_turn_id TEXT,
  notes TEXT
);
CREATE INDEX system_utterance_by_conversation ON system_utterance_log (conversation_id, timestamp);
)sql";

// Removes every record row (the log is untouched). Call inside a transaction.
result<void> clear_records(connection& db);

}  // namespace parley::sqlite
