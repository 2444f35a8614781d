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

constexpr const char* kMigrations[] = {kV1};

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
