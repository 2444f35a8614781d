#include "parley/store/postgres/pg_schema.hpp"

#include <string>

namespace parley::pg {

namespace {

// Any number that is Parley's own: the advisory lock that serialises migrations and partitioning.
constexpr const char* kLockSql = "SELECT pg_advisory_xact_lock(7235018804721537)";

// Version 1.
// - `events` is partitioned by id range (kEventsPerPartition), with a default partition as a
//   safety net. PostgreSQL cannot enforce UNIQUE (dialog_id, seq) across partitions without the
//   partition key in it; the uniqueness of a dialog's seqs is enforced instead by the dialog's head
//   row (`dialogs.last_seq`), which every append updates conditionally in the same transaction
//   (pg_writer.cpp), so two writers can never both append seq n.
// - Payloads are the event's JSON text as the SQLite store keeps it (TEXT, not jsonb: jsonb would
//   reorder keys and cost a parse on every insert; nothing queries inside a payload).
// - `dialogs` has the SQLite store's columns; humans and members are comma-joined ids as there.
// - `messages` refers to its event by (dialog_id, seq) and records the course.
// - `inputs` is the msgId index (store::find_input); its content is kept as a JSON string so that
//   text PostgreSQL cannot hold (a NUL character) still compares exactly.
// - `tree_leases`: who writes each tree (store::claim_tree), until when on the database's clock,
//   and the epoch every append of the holder is fenced with (pg_leases.hpp).
// - parley_expect raises (SQLSTATE P0001) when a fenced condition fails, which aborts the whole
//   pipelined transaction it is part of.
constexpr const char* kV1 = R"sql(
CREATE SEQUENCE events_id_seq AS bigint;
CREATE TABLE events (
  id bigint NOT NULL DEFAULT nextval('events_id_seq'),
  dialog_id text NOT NULL,
  root_id text NOT NULL,
  seq bigint NOT NULL,
  type text NOT NULL,
  payload text NOT NULL,
  ts_ms bigint NOT NULL
) PARTITION BY RANGE (id);
CREATE TABLE events_default PARTITION OF events DEFAULT;
CREATE INDEX events_by_dialog ON events (dialog_id, seq);
CREATE INDEX events_by_id ON events (id);
CREATE TABLE dialogs (
  id text PRIMARY KEY,
  root_id text NOT NULL,
  parent_id text NOT NULL,
  member_id text NOT NULL,
  kind text NOT NULL,
  status text NOT NULL,
  task_doc_path text NOT NULL,
  title text NOT NULL,
  last_error text NOT NULL,
  course bigint NOT NULL,
  depth bigint NOT NULL,
  last_seq bigint NOT NULL,
  last_genseq bigint NOT NULL,
  message_count bigint NOT NULL,
  open_questions bigint NOT NULL,
  pending_subdialogs bigint NOT NULL,
  input_tokens bigint NOT NULL,
  output_tokens bigint NOT NULL,
  created_at_ms bigint NOT NULL,
  updated_at_ms bigint NOT NULL,
  generating boolean NOT NULL,
  needs_drive boolean NOT NULL,
  call_kind text NOT NULL,
  session_slug text NOT NULL,
  caller_id text NOT NULL,
  dead boolean NOT NULL,
  humans text NOT NULL,
  members text NOT NULL
);
CREATE INDEX dialogs_by_created ON dialogs (created_at_ms, id);
CREATE INDEX dialogs_by_status ON dialogs (status, created_at_ms, id);
CREATE INDEX dialogs_by_root ON dialogs (root_id, created_at_ms, id);
CREATE INDEX dialogs_needing_recovery ON dialogs (created_at_ms, id) WHERE generating OR needs_drive;
CREATE TABLE messages (
  dialog_id text NOT NULL,
  seq bigint NOT NULL,
  course bigint NOT NULL,
  PRIMARY KEY (dialog_id, seq)
);
CREATE TABLE inputs (
  msg_id text PRIMARY KEY,
  kind text NOT NULL,
  dialog_id text NOT NULL,
  seq bigint NOT NULL,
  sender text NOT NULL,
  content_json text NOT NULL,
  question_id text NOT NULL
);
CREATE TABLE tree_leases (
  root_id text PRIMARY KEY,
  owner text NOT NULL,
  epoch bigint NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE FUNCTION parley_expect(holds boolean, problem text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF NOT holds THEN RAISE EXCEPTION USING MESSAGE = problem, ERRCODE = 'P0001'; END IF;
END $$;
)sql";

// Version 2: seed 002's conversation records (docs/records.md), with the SQLite store's logical
// columns (sqlite/records_schema.hpp), folded in the appending transaction (pg_records_folder.hpp).
// What differs from SQLite's layout:
// - Ids are text, and rows name each other by id (SQLite keeps rowids and 16-byte UUIDs to save
//   pages; PostgreSQL's indexes on text ids are what a lookup by id needs anyway).
// - Every value is stored as the reducer made it: nothing is left for a reader to rebuild from the
//   log (SQLite's schema versions 14 to 23), so the records never read the log.
// - `session`, `turn`, `message` and `introspection_turn` have an identity `n`, their insertion
//   (log) order, which breaks ties between rows of one millisecond as SQLite's rowid does.
// - A message's content with a NUL (which text cannot hold) keeps its exact text as a JSON string
//   in `content_json`.
// - Full-text search is pg_trgm's: a GIN trigram index of PARLEY_PG_MESSAGE_SEARCH_KEY (the text
//   search finds, folded as SQLite folds it: pg_schema.hpp) answers LIKE '%phrase%' on it
//   (pg_records_search.cpp). The index names the operator class in whatever schema the extension
//   lives in (it may predate this one, in another schema).
// - `system_utterance` keeps what only an utterance has; the seed's `system_utterance_log` is a
//   view over it and its message, as in SQLite.
// - `records_cursor` keeps the open turn's own window (SQLite reads it from the turn's row).
// - `records_backfill` holds a row when this migration found a log to derive the records from:
//   the first writer to open does it (pg_writer_rebuild.cpp), so records exist for every dialog.
constexpr const char* kV2 =
    R"sql(
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE TABLE dialogue (
  id text PRIMARY KEY,
  dialog_id text NOT NULL UNIQUE,
  dialogue_type text NOT NULL CHECK (dialogue_type IN ('human_ai', 'ai_ai', 'ai_self', 'lio_group', 'human_human',
                                                       'human_human_group', 'human_group_ai')),
  human_id text,
  ai_id text,
  relation_id text,
  created_at bigint NOT NULL,
  is_active boolean NOT NULL,
  last_activity_at bigint NOT NULL,
  metadata text NOT NULL
);
CREATE INDEX dialogue_by_created ON dialogue (created_at);
CREATE TABLE session (
  id text PRIMARY KEY,
  n bigint GENERATED ALWAYS AS IDENTITY,
  dialogue_id text NOT NULL,
  session_type text NOT NULL CHECK (session_type IN ('dialogue', 'self_reflection')),
  start_at bigint NOT NULL,
  end_at bigint,
  description text,
  created_by text NOT NULL CHECK (created_by IN ('system', 'ai', 'human')),
  metadata text NOT NULL,
  trigger_source text CHECK (trigger_source IN ('schedule', 'task_reflection', 'human_guidance', 'api')),
  goal text,
  ai_mood_state text,
  summary text
);
CREATE INDEX session_by_dialogue ON session (dialogue_id, start_at);
CREATE INDEX session_by_start ON session (start_at);
CREATE TABLE turn (
  id text PRIMARY KEY,
  n bigint GENERATED ALWAYS AS IDENTITY,
  dialogue_id text NOT NULL,
  session_id text,
  turn_type text NOT NULL CHECK (turn_type IN ('human_query', 'ai_prompt', 'system_prompt', 'unresponded_turn')),
  initiator_role text NOT NULL CHECK (initiator_role IN ('human', 'ai', 'system')),
  responder_role text NOT NULL CHECK (responder_role IN ('human', 'ai', 'system')),
  started_at bigint NOT NULL,
  closed_at bigint,
  status text NOT NULL CHECK (status IN ('pending', 'responded', 'unresponded')),
  response_time bigint,
  window_ms bigint NOT NULL,
  metadata text NOT NULL
);
CREATE INDEX turn_by_dialogue ON turn (dialogue_id, started_at);
CREATE INDEX turn_by_session ON turn (session_id, started_at);
CREATE INDEX turn_by_started ON turn (started_at);
CREATE TABLE message (
  id text PRIMARY KEY,
  n bigint GENERATED ALWAYS AS IDENTITY,
  dialogue_id text NOT NULL,
  session_id text,
  turn_id text,
  sender_role text NOT NULL CHECK (sender_role IN ('human', 'ai', 'system')),
  sender_id text,
  content text NOT NULL,
  content_json text,
  content_type text NOT NULL CHECK (content_type IN ('text', 'markdown', 'image', 'audio', 'prompt', 'quote_reply',
                                                     'tool_input', 'tool_output', 'system_context', 'command')),
  created_at bigint NOT NULL,
  metadata text NOT NULL,
  dialog_id text NOT NULL,
  seq bigint NOT NULL,
  content_meta text,
  search_folded text
);
CREATE INDEX message_by_dialogue ON message (dialogue_id, created_at);
CREATE INDEX message_by_session ON message (session_id, created_at);
CREATE INDEX message_by_turn ON message (turn_id, created_at);
CREATE INDEX message_by_created ON message (created_at);
DO $$
DECLARE
  trgm_schema text;
BEGIN
  SELECT n.nspname INTO trgm_schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
    WHERE e.extname = 'pg_trgm';
)sql"
    "  EXECUTE format('CREATE INDEX message_search_trigrams ON message USING gin ((" PARLEY_PG_MESSAGE_SEARCH_KEY
    ") %I.gin_trgm_ops)', trgm_schema);\n"
    R"sql(END $$;
CREATE TABLE system_utterance (
  message_id text PRIMARY KEY,
  trigger text NOT NULL CHECK (trigger IN ('tool_result', 'context_hint', 'proactive_prompt')),
  target text NOT NULL CHECK (target IN ('human', 'ai', 'all')),
  notes text
);
CREATE VIEW system_utterance_log AS
  SELECT m.id AS log_id, m.created_at AS timestamp, m.dialogue_id AS conversation_id, u.trigger, m.content,
         m.content_json, u.target, m.turn_id AS linked_turn_id, u.notes, m.n
  FROM system_utterance u JOIN message m ON m.id = u.message_id;
CREATE TABLE introspection_turn (
  id text PRIMARY KEY,
  n bigint GENERATED ALWAYS AS IDENTITY,
  session_id text NOT NULL,
  dialogue_id text NOT NULL,
  purpose text NOT NULL,
  input_context text,
  tool_used text,
  tool_input text,
  tool_output text,
  generated_entry text,
  mood_shift text,
  value_impact text,
  started_at bigint NOT NULL,
  duration_ms bigint NOT NULL
);
CREATE INDEX introspection_by_session ON introspection_turn (session_id, started_at);
CREATE TABLE memory_entry (
  id text PRIMARY KEY,
  dialogue_id text NOT NULL,
  ai_id text,
  content text NOT NULL,
  created_at bigint NOT NULL,
  source_turn_id text
);
CREATE INDEX memory_entry_by_dialogue ON memory_entry (dialogue_id, created_at);
CREATE TABLE memory_links (
  turn_id text NOT NULL,
  memory_id text NOT NULL,
  relation text NOT NULL CHECK (relation IN ('generated', 'related')),
  created_at bigint NOT NULL,
  PRIMARY KEY (turn_id, memory_id)
);
CREATE INDEX memory_links_by_memory ON memory_links (memory_id);
CREATE TABLE message_embedding (
  message_id text PRIMARY KEY,
  model text NOT NULL,
  dimensions bigint NOT NULL,
  vector bytea NOT NULL
);
CREATE TABLE records_cursor (
  dialog_id text PRIMARY KEY,
  dialogue_id text NOT NULL,
  counterpart text NOT NULL,
  window_ms bigint NOT NULL,
  gap_ms bigint NOT NULL,
  session_id text NOT NULL,
  session_type text NOT NULL,
  session_last_ms bigint NOT NULL,
  reflection_trigger text NOT NULL,
  reflection_goal text NOT NULL,
  reflection_mood text NOT NULL,
  turn_id text NOT NULL,
  turn_initiator text NOT NULL,
  turn_initiator_id text NOT NULL,
  turn_responder text NOT NULL,
  turn_type text NOT NULL,
  turn_started_ms bigint NOT NULL,
  turn_window_ms bigint NOT NULL
);
CREATE INDEX records_cursor_pending ON records_cursor (dialog_id) WHERE turn_id <> '';
CREATE TABLE records_backfill (pending boolean NOT NULL);
INSERT INTO records_backfill (pending) SELECT true WHERE EXISTS (SELECT 1 FROM events);
)sql";

// Version 3: input a user sent to a node that does not drive its tree, kept until the node that
// does has made it durable (store::forward_input). Rare (one row per forwarded message), so its
// notification may share the commit; appends never notify (pg_change_feed.hpp).
constexpr const char* kV3 = R"sql(
CREATE TABLE forwarded_inputs (
  id bigserial PRIMARY KEY,
  root_id text NOT NULL,
  dialog_id text NOT NULL,
  question_id text NOT NULL,
  content text NOT NULL,
  msg_id text NOT NULL,
  sender text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
)sql";

constexpr const char* kMigrations[] = {kV1, kV2, kV3};

// The name of the partition that starts at `from`.
std::string partition_name(std::int64_t from) { return "events_p" + std::to_string(from / kEventsPerPartition); }

}  // namespace

result<std::int64_t> schema_version(connection& conn) {
  auto exists = conn.query("SELECT to_regclass('parley_schema') IS NOT NULL", "reading the schema version");
  if (!exists) return std::move(exists).err();
  if (exists->text(0, 0) != "t") return std::int64_t{0};
  auto version = conn.query("SELECT max(version) FROM parley_schema", "reading the schema version");
  if (!version) return std::move(version).err();
  return version->integer(0, 0);
}

result<void> migrate(connection& conn) {
  PARLEY_TRY(conn.run("BEGIN", "migrating the schema"));
  auto step = [&]() -> result<void> {
    PARLEY_TRY(conn.run(kLockSql, "locking the schema"));
    PARLEY_TRY(conn.run("CREATE TABLE IF NOT EXISTS parley_schema (version bigint NOT NULL)", "migrating the schema"));
    std::int64_t version = 0;
    PARLEY_TRY_ASSIGN(version, schema_version(conn));
    if (version > kSchemaVersion) {
      return make_error(errc::config_error, "the database's Parley schema is version " + std::to_string(version) +
                                                ", newer than this binary's (" + std::to_string(kSchemaVersion) +
                                                "): run a Parley at least as new as the one that wrote it");
    }
    for (std::int64_t next = version + 1; next <= kSchemaVersion; ++next) {
      PARLEY_TRY(conn.run(kMigrations[next - 1], "migrating the schema to version " + std::to_string(next)));
      PARLEY_TRY(conn.run("INSERT INTO parley_schema (version) VALUES (" + std::to_string(next) + ")",
                          "recording the schema version"));
    }
    return ok();
  };
  auto outcome = step();
  if (!outcome) {
    (void)conn.run("ROLLBACK", "rolling back the migration");
    return outcome;
  }
  PARLEY_TRY(conn.run("COMMIT", "committing the migration"));
  return ensure_partitions(conn, 1);
}

result<void> ensure_partitions(connection& conn, std::int64_t event_id) {
  const std::int64_t first = event_id / kEventsPerPartition * kEventsPerPartition;
  std::string sql = "BEGIN; ";
  sql += kLockSql;
  sql += "; ";
  for (std::int64_t from = first; from <= first + kEventsPerPartition; from += kEventsPerPartition) {
    sql += "CREATE TABLE IF NOT EXISTS " + partition_name(from) + " PARTITION OF events FOR VALUES FROM (" +
           std::to_string(from) + ") TO (" + std::to_string(from + kEventsPerPartition) + "); ";
  }
  sql += "COMMIT";
  auto made = conn.run(sql, "making the log's partitions");
  if (!made) (void)conn.run("ROLLBACK", "rolling back the partitions");
  return made;
}

}  // namespace parley::pg
