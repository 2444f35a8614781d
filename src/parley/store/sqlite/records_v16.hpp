// Schema version 16: seed 002's records refer to rows and to the log (docs/store.md "Records refer
// to rows and to the log"). Kept apart from schema.cpp's list so the version it gets there is the
// only thing tied to it.
//
// A message named its dialogue, session and turn by their 36-character UUID text, in its row and
// in each of its three indexes (a turn and a session likewise): ~60 bytes an index entry, 18
// messages a fanout-3 task. They now hold the integer rowid of the row they refer to, and the UUID
// text is kept once, in that row. Readers put the text back with one lookup by rowid; a filter by
// a UUID looks its rowid up once. `dialogue` gets a rowid (it had none), and every table referred to
// by rowid declares it as its INTEGER PRIMARY KEY, so that VACUUM keeps it (SQLite may renumber an
// implicit rowid). The name stays `rowid`, so every query that said `m.rowid` reads the same.
//
// `records_cursor`, the reducer's per-dialog state, names its dialogue, session and open turn by
// rowid too (0 for none).
//
// The migration makes the four tables again, in the current layout, keeping every rowid (the FTS
// index and `system_utterance` name messages by theirs), and makes the views on them again. A
// reference to a row that does not exist (never written so) becomes NULL, or 0 for a dialogue.
//
// A message's metadata that is only a shape of its event's fields is read from the log too
// (message_log_metadata.hpp). A message's text that is a copy of its event's field (a user_message's `content`, a
// generation_finished's `saying`, a tool_result's or reply_received's `content`) is stored NULL
// and read from the log by kMessageContentSql: 0.8 KB of a fanout-3 task. A message whose text is
// not its event's (written through the records routes, an analyst's, one the migration found
// different) keeps its own.
#pragma once

#include <string>

namespace parley::sqlite {

// `m.content` of `message AS m` as the reducer wrote it. The writer stores NULL only where the
// event's field is exactly the text, so json_extract gives it back byte for byte; json_valid
// keeps a payload no json function can read from failing the query.
// Version 22 names the event by id (records_v22.hpp, kMessageContentSql); this is version 16's
// expression, which its migration runs.
#define PARLEY_MESSAGE_CONTENT_FROM_EVENT_SQL                                                   \
  "coalesce(m.content, (SELECT CASE WHEN json_valid(e_.payload) THEN json_extract(e_.payload, " \
  "CASE e_.type WHEN 'generation_finished' THEN '$.saying' ELSE '$.content' END) END "          \
  "FROM events AS e_ WHERE "
inline constexpr const char* kV16MessageContentSql =
    PARLEY_MESSAGE_CONTENT_FROM_EVENT_SQL "e_.dialog_id = m.dialog_id AND e_.seq = m.seq))";

// The rest of version 16, run after kV16RecordsSql: metadata that its event builds becomes NULL
// (message_log_metadata.hpp), and the views (message_search, system_utterance_log) are made again
// reading the text through kMessageContentSql.
const char* v16_records_from_log_sql();

// The two views over `message` that read its text through `content_sql` (kV16MessageContentSql at
// version 16, records_v22.hpp's kMessageContentSql since version 22).
std::string records_views_sql(const std::string& content_sql);

inline constexpr const char* kV16RecordsSql = R"sql(
DROP VIEW system_utterance_log;
DROP VIEW message_search;
CREATE TABLE dialogue_v16 (
  rowid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  dialog_id TEXT NOT NULL UNIQUE,
  dialogue_type TEXT NOT NULL CHECK (dialogue_type = 'human_ai' OR dialogue_type = 'ai_ai' OR
        dialogue_type = 'ai_self' OR dialogue_type = 'lio_group' OR dialogue_type = 'human_human' OR
        dialogue_type = 'human_human_group' OR dialogue_type = 'human_group_ai'),
  human_id TEXT,
  ai_id TEXT,
  relation_id TEXT,
  created_at INTEGER NOT NULL,
  is_active INTEGER NOT NULL,
  last_activity_at INTEGER NOT NULL,
  metadata TEXT NOT NULL
);
INSERT INTO dialogue_v16 (id, dialog_id, dialogue_type, human_id, ai_id, relation_id, created_at, is_active,
                          last_activity_at, metadata)
  SELECT id, dialog_id, dialogue_type, human_id, ai_id, relation_id, created_at, is_active, last_activity_at, metadata
  FROM dialogue ORDER BY created_at, id;
CREATE TABLE session_v16 (
  rowid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  dialogue_rowid INTEGER NOT NULL,
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
INSERT INTO session_v16 (rowid, id, dialogue_rowid, session_type, start_at, end_at, description, created_by, metadata,
                         trigger_source, goal, ai_mood_state, summary)
  SELECT s.rowid, s.id, coalesce((SELECT d.rowid FROM dialogue_v16 AS d WHERE d.id = s.dialogue_id), 0),
         s.session_type, s.start_at, s.end_at, s.description, s.created_by, s.metadata, s.trigger_source, s.goal,
         s.ai_mood_state, s.summary
  FROM session AS s ORDER BY s.rowid;
CREATE TABLE turn_v16 (
  rowid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  dialogue_rowid INTEGER NOT NULL,
  session_rowid INTEGER,
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
INSERT INTO turn_v16 (rowid, id, dialogue_rowid, session_rowid, turn_type, initiator_role, responder_role, started_at,
                      closed_at, status, response_time, window_ms, metadata)
  SELECT t.rowid, t.id, coalesce((SELECT d.rowid FROM dialogue_v16 AS d WHERE d.id = t.dialogue_id), 0),
         (SELECT s.rowid FROM session AS s WHERE s.id = t.session_id), t.turn_type, t.initiator_role,
         t.responder_role, t.started_at, t.closed_at, t.status, t.response_time, t.window_ms, t.metadata
  FROM turn AS t ORDER BY t.rowid;
CREATE TABLE message_v16 (
  rowid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  dialogue_rowid INTEGER NOT NULL,
  session_rowid INTEGER,
  turn_rowid INTEGER,
  sender_role TEXT NOT NULL CHECK (sender_role = 'human' OR sender_role = 'ai' OR
        sender_role = 'system'),
  sender_id TEXT,
  content TEXT,
  content_type TEXT NOT NULL
    CHECK (content_type = 'text' OR content_type = 'markdown' OR content_type = 'image' OR
          content_type = 'audio' OR content_type = 'prompt' OR content_type = 'quote_reply' OR
          content_type = 'tool_input' OR content_type = 'tool_output' OR
          content_type = 'system_context' OR content_type = 'command'),
  created_at INTEGER NOT NULL,
  metadata TEXT,
  dialog_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  content_meta TEXT
);
INSERT INTO message_v16 (rowid, id, dialogue_rowid, session_rowid, turn_rowid, sender_role, sender_id, content,
                         content_type, created_at, metadata, dialog_id, seq, content_meta)
  SELECT m.rowid, m.id, coalesce((SELECT d.rowid FROM dialogue_v16 AS d WHERE d.id = m.dialogue_id), 0),
         (SELECT s.rowid FROM session AS s WHERE s.id = m.session_id),
         (SELECT t.rowid FROM turn AS t WHERE t.id = m.turn_id), m.sender_role, m.sender_id,
         CASE WHEN m.content != '' AND m.content IS (
                SELECT CASE WHEN json_valid(e.payload) THEN json_extract(e.payload,
                         CASE e.type WHEN 'generation_finished' THEN '$.saying' ELSE '$.content' END) END
                FROM events AS e WHERE e.dialog_id = m.dialog_id AND e.seq = m.seq AND
                  (e.type = 'user_message' OR e.type = 'generation_finished' OR e.type = 'tool_result' OR
                   e.type = 'reply_received'))
              THEN NULL ELSE m.content END,
         m.content_type, m.created_at, m.metadata, m.dialog_id, m.seq, m.content_meta
  FROM message AS m ORDER BY m.rowid;
CREATE TABLE records_cursor_v16 (
  dialog_id TEXT PRIMARY KEY,
  dialogue_rowid INTEGER NOT NULL,
  counterpart TEXT NOT NULL,
  window_ms INTEGER NOT NULL,
  gap_ms INTEGER NOT NULL,
  session_rowid INTEGER NOT NULL,
  session_type TEXT NOT NULL,
  session_last_ms INTEGER NOT NULL,
  reflection_trigger TEXT NOT NULL,
  reflection_goal TEXT NOT NULL,
  reflection_mood TEXT NOT NULL,
  turn_rowid INTEGER NOT NULL,
  turn_initiator TEXT NOT NULL,
  turn_initiator_id TEXT NOT NULL,
  turn_responder TEXT NOT NULL,
  turn_type TEXT NOT NULL,
  turn_started_ms INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO records_cursor_v16 (dialog_id, dialogue_rowid, counterpart, window_ms, gap_ms, session_rowid, session_type,
                                session_last_ms, reflection_trigger, reflection_goal, reflection_mood, turn_rowid,
                                turn_initiator, turn_initiator_id, turn_responder, turn_type, turn_started_ms)
  SELECT c.dialog_id, coalesce((SELECT d.rowid FROM dialogue_v16 AS d WHERE d.id = c.dialogue_id), 0), c.counterpart,
         c.window_ms, c.gap_ms, coalesce((SELECT s.rowid FROM session AS s WHERE s.id = c.session_id), 0),
         c.session_type, c.session_last_ms, c.reflection_trigger, c.reflection_goal, c.reflection_mood,
         coalesce((SELECT t.rowid FROM turn AS t WHERE t.id = c.turn_id), 0), c.turn_initiator, c.turn_initiator_id,
         c.turn_responder, c.turn_type, c.turn_started_ms
  FROM records_cursor AS c;
DROP TABLE records_cursor;
ALTER TABLE records_cursor_v16 RENAME TO records_cursor;
DROP TABLE message;
DROP TABLE turn;
DROP TABLE session;
DROP TABLE dialogue;
ALTER TABLE dialogue_v16 RENAME TO dialogue;
ALTER TABLE session_v16 RENAME TO session;
ALTER TABLE turn_v16 RENAME TO turn;
ALTER TABLE message_v16 RENAME TO message;
CREATE INDEX dialogue_by_created ON dialogue (created_at);
CREATE INDEX session_by_dialogue ON session (dialogue_rowid, start_at);
CREATE INDEX session_by_start ON session (start_at);
CREATE INDEX turn_by_dialogue ON turn (dialogue_rowid, started_at);
CREATE INDEX turn_by_session ON turn (session_rowid, started_at);
CREATE INDEX turn_by_started ON turn (started_at);
CREATE INDEX message_by_dialogue ON message (dialogue_rowid, created_at);
CREATE INDEX message_by_session ON message (session_rowid, created_at);
CREATE INDEX message_by_turn ON message (turn_rowid, created_at);
CREATE INDEX message_by_created ON message (created_at);
)sql";

}  // namespace parley::sqlite
