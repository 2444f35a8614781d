#include "parley/store/sqlite/schema.hpp"

#include "parley/store/sqlite/compact_log.hpp"
#include "parley/store/sqlite/courses_view.hpp"
#include "parley/store/sqlite/fts_without_positions.hpp"
#include "parley/store/sqlite/message_tool_calls.hpp"
#include "parley/store/sqlite/prompt_versions.hpp"
#include "parley/store/sqlite/records_schema.hpp"
#include "parley/store/sqlite/records_v16.hpp"
#include "parley/store/sqlite/records_v19.hpp"
#include "parley/store/sqlite/records_v22.hpp"
#include "parley/store/sqlite/records_v23.hpp"

#include <array>
#include <string>

namespace parley::sqlite {
namespace {

struct migration {
  std::int64_t version;
  const char* sql;
  const char* then_sql = nullptr;     // run after `sql` in the same transaction
  const char* finally_sql = nullptr;  // and then this
  // A query that finds a row when the store already has this step's layout (a store whose recorded
  // version was set back by hand, as the migration tests do): the step is then only recorded.
  const char* done_if_sql = nullptr;
};

// Version 1: the event log and its projections. Shipped: later changes are new migrations.
//
// Every commit is fsynced, so its cost is the number of pages it dirties: the layout keeps the
// rows a commit touches few and small.
// - The log keeps time only as integer UTC milliseconds; `events_readable` shows it as ISO-8601
//   text for the sqlite3 shell without storing it twice.
// - A message row is only a reference to the event it comes from (its text lives in the event's
//   payload) plus the course it belongs to. Keyed by the event's id, the table only grows at its
//   end; a dialog's messages are found through the log's (dialog_id, seq) index.
// - `dialogs` is clustered by id (no separate rowid b-tree), and its indexes hold only columns that
//   are fixed at creation or, for status, rarely change, so the per-commit update of a row leaves
//   them alone. A team has few members, so a member filter scans `dialogs_by_created` instead of
//   paying for an index of its own on every creation.
constexpr const char* kV1 = R"sql(
CREATE TABLE events (
  id INTEGER PRIMARY KEY,
  dialog_id TEXT NOT NULL,
  root_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  type TEXT NOT NULL,
  payload TEXT NOT NULL,
  ts_ms INTEGER NOT NULL,
  UNIQUE (dialog_id, seq)
);
CREATE VIEW events_readable AS
  SELECT id, dialog_id, root_id, seq, type, payload,
         strftime('%Y-%m-%dT%H:%M:%fZ', ts_ms / 1000.0, 'unixepoch') AS ts, ts_ms
  FROM events;
CREATE TABLE dialogs (
  id TEXT PRIMARY KEY,
  root_id TEXT NOT NULL,
  parent_id TEXT NOT NULL,
  member_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  status TEXT NOT NULL,
  task_doc_path TEXT NOT NULL,
  title TEXT NOT NULL,
  last_error TEXT NOT NULL,
  course INTEGER NOT NULL,
  depth INTEGER NOT NULL,
  last_seq INTEGER NOT NULL,
  last_genseq INTEGER NOT NULL,
  message_count INTEGER NOT NULL,
  open_questions INTEGER NOT NULL,
  pending_subdialogs INTEGER NOT NULL,
  input_tokens INTEGER NOT NULL,
  output_tokens INTEGER NOT NULL,
  created_at_ms INTEGER NOT NULL,
  updated_at_ms INTEGER NOT NULL,
  generating INTEGER NOT NULL,
  needs_drive INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX dialogs_by_created ON dialogs (created_at_ms, id);
CREATE INDEX dialogs_by_status ON dialogs (status, created_at_ms, id);
CREATE INDEX dialogs_by_root ON dialogs (root_id, created_at_ms, id);
CREATE TABLE courses (
  dialog_id TEXT NOT NULL,
  course INTEGER NOT NULL,
  started_at_ms INTEGER NOT NULL,
  PRIMARY KEY (dialog_id, course)
) WITHOUT ROWID;
-- Every course is kept. A message's fields are decoded from its event by the reducer that wrote
-- this row (read_message in row_codec), so they cannot disagree with the log.
CREATE TABLE messages (
  event_id INTEGER PRIMARY KEY,
  course INTEGER NOT NULL
);
)sql";

// Version 2: hierarchical dialogs. A subdialog records how it was called, its Type B session slug
// (the root's registry is derived from these), its current tellasker and whether a human declared
// it dead.
constexpr const char* kV2 = R"sql(
ALTER TABLE dialogs ADD COLUMN call_kind TEXT NOT NULL DEFAULT '';
ALTER TABLE dialogs ADD COLUMN session_slug TEXT NOT NULL DEFAULT '';
ALTER TABLE dialogs ADD COLUMN caller_id TEXT NOT NULL DEFAULT '';
ALTER TABLE dialogs ADD COLUMN dead INTEGER NOT NULL DEFAULT 0;
)sql";

// Version 4: dialogs record their people (seed 002's dialogue types: the humans who take part and
// a group's AI members), and the records know the group types and who opened a turn. The records
// are projections, so their tables are made again in the current layout and derived from the log
// at open (sqlite_open); a fresh database makes them twice, which costs nothing.
constexpr const char* kV4 = R"sql(
ALTER TABLE dialogs ADD COLUMN humans TEXT NOT NULL DEFAULT '';
ALTER TABLE dialogs ADD COLUMN members TEXT NOT NULL DEFAULT '';
)sql";

// Drops seed 002's records, which a migration then makes again in their current layout.
constexpr const char* kDropRecords = R"sql(
DROP VIEW IF EXISTS message_search;
DROP TABLE message_fts;
DROP TABLE message;
DROP TABLE turn;
DROP TABLE session;
DROP TABLE dialogue;
DROP TABLE records_cursor;
DROP TABLE introspection_turn;
DROP TABLE memory_entry;
DROP TABLE memory_links;
DROP TABLE system_utterance_log;
)sql";

// Version 5: the projections trail the log (projector.hpp) and record the newest event they
// include; and the records' enumerations are checked without IN lists (records_schema.hpp). The
// records are made again in that layout and derived from the log at open, like version 4's; the
// other projections were written with their events until now, so they include the whole log.
constexpr const char* kV5 = R"sql(
CREATE TABLE projected_through (event_id INTEGER NOT NULL);
INSERT INTO projected_through (event_id) SELECT coalesce(max(id), 0) FROM events;
)sql";

// Version 6: a client's message id (`msgId`) finds the message it was first sent with, so that a
// retried create or post returns the first result instead of making another (store.hpp,
// find_input). Partial, so only user messages pay for it; json_valid keeps a payload an older
// version stored unreadable (docs/events.md) from failing the migration or a later insert.
constexpr const char* kV6 = R"sql(
CREATE INDEX events_by_msg_id ON events (
  (CASE WHEN json_valid(payload) THEN json_extract(payload, '$.msgId') END)
) WHERE type = 'user_message';
)sql";

// Version 7: the few dialogs a start-up must look at, and those that wait for a human, found
// without reading every dialog's row (store.hpp, dialog_filter): start-up and the Q4H list stay as
// fast at a million dialogs as at ten.
constexpr const char* kV7 = R"sql(
CREATE INDEX dialogs_needing_recovery ON dialogs (status, created_at_ms, id) WHERE generating != 0 OR needs_drive != 0;
CREATE INDEX dialogs_with_open_questions ON dialogs (status, created_at_ms, id) WHERE open_questions > 0;
)sql";

// Version 8: root listings at size (store/root_listing.hpp). Partial indexes over roots alone —
// a quarter of the dialogs in a fanout-3 store, and rows whose indexed columns are fixed at
// creation — let a page newest first, with or without a member filter, read only its own rows
// (the status filter walks dialogs_by_status). Titles of roots get a trigram full-text index, as
// the records' message_fts has for message text, so `q` finds substrings without a scan. The
// index is kept by triggers rather than by the projector: a title is written when its root is
// created and never changes, so the update trigger does not run in practice (and when it does,
// its delete by dialog_id reads the whole index; the id is UNINDEXED).
constexpr const char* kV8 = R"sql(
CREATE INDEX dialogs_roots ON dialogs (created_at_ms, id) WHERE parent_id = '';
CREATE INDEX dialogs_roots_by_member ON dialogs (member_id, created_at_ms, id) WHERE parent_id = '';
CREATE VIRTUAL TABLE root_title_fts USING fts5 (title, dialog_id UNINDEXED, tokenize = 'trigram');
CREATE TRIGGER root_title_on_insert AFTER INSERT ON dialogs WHEN new.parent_id = '' AND new.title != '' BEGIN
  INSERT INTO root_title_fts (title, dialog_id) VALUES (new.title, new.id);
END;
CREATE TRIGGER root_title_on_update AFTER UPDATE OF title ON dialogs
  WHEN new.parent_id = '' AND old.title IS NOT new.title BEGIN
  DELETE FROM root_title_fts WHERE dialog_id = old.id;
  INSERT INTO root_title_fts (title, dialog_id) SELECT new.title, new.id WHERE new.title != '';
END;
INSERT INTO root_title_fts (title, dialog_id) SELECT title, id FROM dialogs WHERE parent_id = '' AND title != '';
)sql";

// Version 9: answers to questions are idempotent by their msgId too (store.hpp, find_input), so
// the msgId index takes question_answered events besides user messages. Made again rather than
// added beside: one index, one lookup per retry check. Answers are rare, so the index stays small
// and appends that are neither pay only the partial index's type test.
constexpr const char* kV9 = R"sql(
DROP INDEX events_by_msg_id;
CREATE INDEX events_by_input_msg_id ON events (
  (CASE WHEN json_valid(payload) THEN json_extract(payload, '$.msgId') END)
) WHERE type IN ('user_message', 'question_answered');
)sql";

// Version 10: message embeddings (seed 002's `embedding_vector`, docs/records.md "Analysis and
// embeddings"), a side table of the records derived from `record_message_embedded` events. The
// vector is a BLOB of little-endian float32s: 4 bytes a dimension, where JSON text in the message's
// metadata would take about 10 and would be parsed again by every read of the message. A row of its
// own keeps the message rows (read by every list) small. Empty after the migration: no log before
// this version holds an embedding.
constexpr const char* kV10 = R"sql(
CREATE TABLE message_embedding (
  message_id TEXT PRIMARY KEY,
  model TEXT NOT NULL,
  dimensions INTEGER NOT NULL,
  vector BLOB NOT NULL
);
)sql";

// Version 11: seed 002 tells private and group human⇄human dialogues apart
// (`human_human_group` beside `human_human`, docs/records.md "Dialogue types"). SQLite cannot alter
// a CHECK, so `dialogue` is made again with the wider one, its rows copied, the old table dropped
// and the new one renamed in its place (SQLite's documented way to change a table; no view or
// trigger names `dialogue`, and foreign keys are not enforced, so the other tables' REFERENCES
// name the new table once it is renamed). A copied human⇄human row of three or more humans (its
// `metadata.humans`) becomes a group, as the reducer now classifies it.
constexpr const char* kV11 = R"sql(
CREATE TABLE dialogue_v11 (
  id TEXT PRIMARY KEY,
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
) WITHOUT ROWID;
INSERT INTO dialogue_v11 (id, dialog_id, dialogue_type, human_id, ai_id, relation_id, created_at, is_active,
                          last_activity_at, metadata)
  SELECT id, dialog_id,
         CASE WHEN dialogue_type = 'human_human' AND json_valid(metadata) AND
                   coalesce(json_array_length(metadata, '$.humans'), 0) > 2
              THEN 'human_human_group' ELSE dialogue_type END,
         human_id, ai_id, relation_id, created_at, is_active, last_activity_at, metadata
  FROM dialogue;
DROP TABLE dialogue;
ALTER TABLE dialogue_v11 RENAME TO dialogue;
CREATE INDEX dialogue_by_created ON dialogue (created_at);
)sql";

// Version 12: a message sent to a flow (seed 004) is idempotent by its msgId too (store.hpp,
// find_input). Its msgId is on the flow event that took it in (`input.msgId`), so a second partial
// index takes those two types; the index of user messages and answers is left as it is, so their
// appends pay nothing more.
constexpr const char* kV12 = R"sql(
CREATE INDEX events_by_flow_input_msg_id ON events (
  (CASE WHEN json_valid(payload) THEN json_extract(payload, '$.input.msgId') END)
) WHERE type IN ('flow_thread_saved', 'flow_thread_appended');
)sql";

// Version 13: a prompt's text once per version (prompt_versions.hpp, docs/store.md "A prompt's
// text, once"). The texts already logged move there: the first text of each version is kept, and
// every event whose text is exactly that one is stored without it; the others keep theirs. The
// shell's view shows each payload as appended. CASE guards every json_ call with json_valid: a
// payload an older version stored unreadable stays as it is (docs/events.md).
constexpr const char* kV13Copy = R"sql(
INSERT OR IGNORE INTO prompt_versions (version, system_prompt, tools)
  SELECT json_extract(payload, '$.version'), json_extract(payload, '$.systemPrompt'), json_extract(payload, '$.tools')
  FROM events
  WHERE type = 'prompt_logged' AND CASE WHEN json_valid(payload) THEN
      json_type(payload, '$.version') = 'text' AND json_type(payload, '$.systemPrompt') = 'text' AND
      json_type(payload, '$.tools') = 'array' ELSE 0 END
  ORDER BY id;
UPDATE events SET payload = json_remove(payload, '$.systemPrompt', '$.tools')
  WHERE type = 'prompt_logged' AND CASE WHEN json_valid(payload) THEN EXISTS (
      SELECT 1 FROM prompt_versions AS p WHERE p.version = json_extract(events.payload, '$.version') AND
        p.system_prompt = json_extract(events.payload, '$.systemPrompt') AND
        p.tools = json_extract(events.payload, '$.tools')) ELSE 0 END;
DROP VIEW events_readable;
)sql";

const char* v13_view_sql() {
  static const std::string sql =
      std::string("CREATE VIEW events_readable AS SELECT e.id, e.dialog_id, e.root_id, e.seq, e.type, ") +
      kEventPayloadSql +
      " AS payload, strftime('%Y-%m-%dT%H:%M:%fZ', e.ts_ms / 1000.0, 'unixepoch') AS ts, e.ts_ms FROM events AS e;";
  return sql.c_str();
}

// Version 14: a system utterance is its message (seed 002 SystemUtteranceLog, docs/records.md):
// its id, time, dialogue, turn and text were copies of the message's, with an index of its own —
// 1.8 KB of a fanout-3 task's 33 KB. The table keeps what only an utterance has (trigger, target,
// notes), keyed by its message's rowid; `system_utterance_log` becomes a view with the seed's
// columns and the old table's order (its rowid was its message's insertion order too). A
// dialogue's utterances are found through `message_by_dialogue`, a turn's through `message_by_turn`.
constexpr const char* kV14 = R"sql(
CREATE TABLE system_utterance (
  message_rowid INTEGER PRIMARY KEY,
  trigger TEXT NOT NULL CHECK (trigger = 'tool_result' OR trigger = 'context_hint' OR
        trigger = 'proactive_prompt'),
  target TEXT NOT NULL CHECK (target = 'human' OR target = 'ai' OR target = 'all'),
  notes TEXT
);
INSERT INTO system_utterance (message_rowid, trigger, target, notes)
  SELECT m.rowid, l.trigger, l.target, l.notes FROM system_utterance_log AS l JOIN message AS m ON m.id = l.log_id
  ORDER BY l.rowid;
DROP TABLE system_utterance_log;
CREATE VIEW system_utterance_log AS
  SELECT m.id AS log_id, m.created_at AS timestamp, m.dialogue_id AS conversation_id, u.trigger AS trigger,
         m.content AS content, u.target AS target, NULLIF(m.turn_id, '') AS linked_turn_id, u.notes AS notes,
         u.message_rowid AS rowid
  FROM system_utterance AS u JOIN message AS m ON m.rowid = u.message_rowid;
)sql";

// Version 25: fork checkpoints (store/fork_checkpoint.hpp, docs/fork.md): a dialog's fork state
// after every kForkCheckpointEvery-th event, so that planning a fork decodes at most that many
// events per dialog. A projection like the others (cleared and written again by a rebuild); the
// dialogs a store held before this version have none and are planned by decoding.
constexpr const char* kV25ForkCheckpoints = R"sql(
CREATE TABLE fork_checkpoints (
  dialog_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  ts_ms INTEGER NOT NULL,
  state TEXT NOT NULL,
  PRIMARY KEY (dialog_id, seq)
) WITHOUT ROWID;
)sql";

// The newest version whose migration makes the records tables again (they are then derived from
// the log when the store opens).
constexpr std::int64_t kRecordsVersion = 5;

const std::array kMigrations{
    migration{1, kV1},
    migration{2, kV2},
    // Version 3: seed 002's conversation records (records_schema.hpp, in their current layout).
    migration{3, kRecordsSchemaSql},
    migration{4, kV4, kDropRecords, kRecordsSchemaSql},
    migration{kRecordsVersion, kV5, kDropRecords, kRecordsSchemaSql},
    migration{6, kV6},
    migration{7, kV7},
    migration{8, kV8},
    migration{9, kV9},
    migration{10, kV10},
    migration{11, kV11},
    migration{12, kV12},
    migration{13, kPromptVersionsTableSql, kV13Copy, v13_view_sql()},
    migration{14, kV14},
    // Version 15: a message's tool calls are read from its event (message_tool_calls.hpp).
    migration{15, kV15MessageToolCallsSql},
    // Version 16: the records refer to rows and to the log (records_v16.hpp).
    migration{16, kV16RecordsSql, v16_records_from_log_sql()},
    // Version 17: the log keyed by integers (compact_log.hpp); the shell's view made again over it.
    migration{17, v17_compact_log_sql(), v13_view_sql()},
    // Version 18: a payload may be a blob compressed with a fixed dictionary (payload_codec.hpp).
    migration{18, v18_payload_blobs_sql(), v13_view_sql(), nullptr,
              "SELECT 1 FROM sqlite_master WHERE name = 'events_stored'"},
    // Version 19: the records' ids as 16 bytes (records_v19.hpp).
    migration{19, kV19RecordIdsSql, nullptr, nullptr,
              "SELECT 1 FROM pragma_table_info('turn') WHERE name = 'responded_by'"},
    // Version 20: the trigram indexes without positions (fts_without_positions.hpp).
    migration{20, kFtsWithoutPositionsSql},
    // Version 21: `courses` read from the log (courses_view.hpp).
    migration{21, kV21CoursesViewSql, nullptr, nullptr,
              "SELECT 1 FROM sqlite_master WHERE name = 'courses' AND type = 'view'"},
    // Version 22: a records message names its event by the log's row id (records_v22.hpp).
    migration{22, kV22MessageEventIdSql, v22_views_sql(), nullptr,
              "SELECT 1 FROM pragma_table_info('message') WHERE name = 'event_id'"},
    // Version 23: utterances and dialogue metadata the log gives are read from it (records_v23.hpp).
    migration{23, v23_records_from_log_sql()},
    // Version 24: a dialog's root and time base kept once (log_bases.hpp); the shell's view made again.
    migration{24, v24_log_bases_sql(), v13_view_sql(), nullptr,
              "SELECT 1 FROM pragma_table_info('event_log') WHERE name = 'ts_delta'"},
    migration{25, kV25ForkCheckpoints, nullptr, nullptr, "SELECT 1 FROM sqlite_master WHERE name = 'fork_checkpoints'"},
};

result<bool> layout_already_made(connection& db, const migration& step) {
  if (step.done_if_sql == nullptr) return false;
  auto probe = db.prepare(step.done_if_sql, false);
  if (!probe) return std::move(probe).err();
  return probe->step();
}

result<void> apply_one(connection& db, const migration& step) {
  auto made = layout_already_made(db, step);
  if (!made) return std::move(made).err();
  if (!*made) {
    PARLEY_TRY(db.exec(step.sql));
    if (step.then_sql != nullptr) PARLEY_TRY(db.exec(step.then_sql));
    if (step.finally_sql != nullptr) PARLEY_TRY(db.exec(step.finally_sql));
  }
  PARLEY_TRY(db.exec("DELETE FROM schema_version"));
  auto insert = db.prepare("INSERT INTO schema_version (version) VALUES (?1)", false);
  if (!insert) return std::move(insert).err();
  insert->bind_int(1, step.version);
  return insert->run();
}

}  // namespace

std::int64_t latest_schema_version() noexcept { return kMigrations.back().version; }

std::int64_t records_schema_version() noexcept { return kRecordsVersion; }

result<std::int64_t> read_schema_version(connection& db) {
  auto has_table =
      db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'", false);
  if (!has_table) return std::move(has_table).err();
  auto counted = has_table->step();
  if (!counted) return std::move(counted).err();
  if (has_table->int_at(0) == 0) return std::int64_t{0};

  auto version = db.prepare("SELECT coalesce(max(version), 0) FROM schema_version", false);
  if (!version) return std::move(version).err();
  auto stepped = version->step();
  if (!stepped) return std::move(stepped).err();
  return version->int_at(0);
}

result<void> migrate(connection& db, std::int64_t target) {
  auto current = read_schema_version(db);
  if (!current) return std::move(current).err();
  if (*current > latest_schema_version()) {
    return make_error(errc::conflict, "database " + db.path() + " has schema version " + std::to_string(*current) +
                                          ", newer than this binary supports (" +
                                          std::to_string(latest_schema_version()) + ")");
  }
  for (const migration& step : kMigrations) {
    if (step.version <= *current || step.version > target) continue;
    PARLEY_TRY(db.exec("BEGIN IMMEDIATE"));
    auto applied = db.exec("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
    if (applied) applied = apply_one(db, step);
    if (applied) applied = db.exec("COMMIT");
    if (!applied) {
      (void)db.exec("ROLLBACK");
      return make_error(applied.err().code, "migrating " + db.path() + " to schema version " +
                                                std::to_string(step.version) + ": " + applied.err().message);
    }
  }
  return ok();
}

result<void> clear_projections(connection& db) {
  PARLEY_TRY(
      db.exec("DELETE FROM messages; DELETE FROM dialogs; DELETE FROM root_title_fts; DELETE FROM fork_checkpoints;"));
  return clear_records(db);
}

}  // namespace parley::sqlite
