// The writer's rebuild: every projection — dialogs, messages, the msgId index and seed 002's
// records — recomputed from the log in one transaction (store::rebuild_projections), and the
// records derived from an existing log once after the migration that made their tables.
#include <string>
#include <unordered_map>

#include "parley/model/conversation_reducer.hpp"
#include "parley/model/projection.hpp"
#include "parley/store/postgres/pg_record_set.hpp"
#include "parley/store/postgres/pg_records_statements.hpp"
#include "parley/store/postgres/pg_rows.hpp"
#include "parley/store/postgres/pg_writer.hpp"

namespace parley::pg {

// Every dialog's row and records cursor as the replay has folded them so far.
struct pg_writer::replay_state {
  std::unordered_map<std::string, dialog_row> rows;
  std::unordered_map<std::string, records_cursor> cursors;
};

result<void> pg_writer::rebuild(bool only_if_backfill) {
  if (!conn_.healthy() && !reconnect()) return make_error(errc::unavailable, "the PostgreSQL store is closed");
  PARLEY_TRY(conn_.run("BEGIN", "rebuilding the projections"));
  auto outcome = [&]() -> result<void> {
    // A rebuild derives the records too, so it takes the backfill a migration left (the row lock
    // makes a second process that opens meanwhile wait, then find nothing left to do).
    auto pending = conn_.query("DELETE FROM records_backfill RETURNING 1", "taking the records' backfill");
    if (!pending) return std::move(pending).err();
    if (only_if_backfill && pending->empty()) return ok();
    PARLEY_TRY(
        conn_.run(std::string("TRUNCATE dialogs, messages, inputs, ") + records_sql::kTables + " RESTART IDENTITY",
                  "clearing the projections"));
    return replay_log();
  }();
  if (outcome) outcome = conn_.run("COMMIT", "committing the rebuilt projections");
  if (!outcome) (void)conn_.run("ROLLBACK", "rolling back the rebuild");
  latest_.clear();
  records_.forget();
  return outcome;
}

result<void> pg_writer::replay_log() {
  PARLEY_TRY(conn_.run(
      "DECLARE replay NO SCROLL CURSOR FOR SELECT " + std::string(kEventColumns) + " FROM events e ORDER BY e.id",
      "replaying the log"));
  replay_state state;
  for (;;) {
    auto chunk = conn_.query("FETCH 4096 FROM replay", "replaying the log");
    if (!chunk) return std::move(chunk).err();
    if (chunk->empty()) break;
    PARLEY_TRY(replay_chunk(*chunk, state));
  }
  // The rows in statements of at most 1024 each.
  for (auto next = state.rows.begin(); next != state.rows.end();) {
    record_set dialogs;
    for (; next != state.rows.end() && dialogs.count() < 1024; ++next) {
      write_dialog(dialogs.writer(), next->second, -1);
      dialogs.counted();
    }
    PARLEY_TRY(execute_one(writer_sql::kInsertDialogs, dialogs.text(), "rebuilding the dialogs"));
  }
  return conn_.run("CLOSE replay", "replaying the log");
}

result<void> pg_writer::replay_chunk(const rows& chunk, replay_state& state) {
  record_set messages, inputs;
  records_changes records;
  for (int i = 0; i < chunk.size(); ++i) {
    auto ev = read_event(chunk, i);
    if (!ev) return make_error(errc::corrupt, "the log does not replay: " + ev.err().message);
    dialog_row& row = state.rows[ev->dialog_id];
    auto step = apply_event(*ev, row);
    if (!step) return make_error(errc::corrupt, "the log does not replay: " + step.err().message);
    if (step->new_message) {
      write_message_ref(messages.writer(), *ev, step->new_message->course);
      messages.counted();
    }
    add_input(inputs, *ev);
    if (!touches_records(*ev, *step)) continue;
    records_cursor& cursor = state.cursors[ev->dialog_id];
    if (records_step made = apply_records(*ev, row, *step, cursor); !made.empty()) records.add(std::move(made));
    records.set_cursor(ev->dialog_id, cursor);
  }
  if (messages.count() > 0) {
    PARLEY_TRY(execute_one(writer_sql::kInsertMessages, messages.text(), "rebuilding the messages"));
  }
  if (inputs.count() > 0)
    PARLEY_TRY(execute_one(writer_sql::kInsertInputs, inputs.text(), "rebuilding the msgId index"));
  // In the transaction: a patch reads rows the chunks before this one made.
  auto statements = records.statements(conn_);
  if (!statements) return std::move(statements).err();
  for (const records_statement& statement : *statements) {
    PARLEY_TRY(execute_one(statement.name, statement.records, "rebuilding the conversation records"));
  }
  return ok();
}

result<void> pg_writer::execute_one(const char* statement, const std::string& records, std::string_view doing) {
  const char* const values[] = {records.c_str()};
  auto done = conn_.execute(statement, values, doing);
  if (!done) return std::move(done).err();
  return ok();
}

}  // namespace parley::pg
