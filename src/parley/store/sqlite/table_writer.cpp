#include "parley/store/sqlite/table_writer.hpp"

#include "parley/core/time.hpp"
#include "parley/store/sqlite/row_codec.hpp"

namespace parley::sqlite {
namespace {

// "b = excluded.b, c = excluded.c, ..." for every column after the first (the conflict key).
// An upsert updates the row in place instead of deleting and re-inserting it as REPLACE would.
std::string update_assignments(std::string_view columns) {
  std::string out;
  bool first = true;
  while (!columns.empty()) {
    const std::size_t comma = columns.find(',');
    std::string_view column = columns.substr(0, comma);
    columns = comma == std::string_view::npos ? std::string_view{} : columns.substr(comma + 1);
    while (!column.empty() && column.front() == ' ') column.remove_prefix(1);
    if (first) {
      first = false;
      continue;
    }
    if (!out.empty()) out += ", ";
    out.append(column).append(" = excluded.").append(column);
  }
  return out;
}

result<void> prepare_into(connection& db, statement& out, std::string_view sql) {
  auto prepared = db.prepare(sql);
  if (!prepared) return std::move(prepared).err();
  out = std::move(*prepared);
  return ok();
}

}  // namespace

result<void> table_writer::prepare(connection& db) {
  const std::string dialog_cols(kDialogColumns);
  const std::string message_cols(kMessageColumns);
  PARLEY_TRY(prepare_into(db, begin_, "BEGIN IMMEDIATE"));
  PARLEY_TRY(prepare_into(db, commit_, "COMMIT"));
  PARLEY_TRY(prepare_into(db, rollback_, "ROLLBACK"));
  PARLEY_TRY(prepare_into(db, savepoint_, "SAVEPOINT batch"));
  PARLEY_TRY(prepare_into(db, release_, "RELEASE batch"));
  PARLEY_TRY(prepare_into(db, rollback_to_, "ROLLBACK TO batch"));
  PARLEY_TRY(prepare_into(db, insert_event_,
                          "INSERT INTO events (dialog_id, root_id, seq, type, payload, ts, ts_ms) "
                          "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"));
  PARLEY_TRY(
      prepare_into(db, insert_message_,
                   "INSERT INTO messages (" + message_cols + ") VALUES (" + placeholders(kMessageColumnCount) + ")"));
  // A course number can only start once per dialog; a repeated start records the latest one.
  PARLEY_TRY(prepare_into(db, insert_course_,
                          "INSERT OR REPLACE INTO courses (dialog_id, course, started_at_ms) VALUES (?1, ?2, ?3)"));
  PARLEY_TRY(prepare_into(db, upsert_dialog_,
                          "INSERT INTO dialogs (" + dialog_cols + ") VALUES (" + placeholders(kDialogColumnCount) +
                              ") ON CONFLICT (id) DO UPDATE SET " + update_assignments(kDialogColumns)));
  PARLEY_TRY(prepare_into(db, load_dialog_, "SELECT " + dialog_cols + " FROM dialogs WHERE id = ?1"));
  PARLEY_TRY(prepare_into(db, all_events_, "SELECT " + std::string(kEventColumns) + " FROM events ORDER BY id"));
  return ok();
}

result<void> table_writer::rollback_to_savepoint() {
  PARLEY_TRY(rollback_to_.run());
  return release_.run();
}

result<void> table_writer::insert_event(const event& ev) {
  payload_text_.clear();
  serializer_.reset(&ev.payload);
  char chunk[4096];
  while (!serializer_.done()) payload_text_.append(serializer_.read(chunk, sizeof chunk));
  if (ev.ts_ms != ts_text_ms_) {
    ts_text_ = format_iso8601_ms(ev.ts_ms);
    ts_text_ms_ = ev.ts_ms;
  }
  insert_event_.bind_text(1, ev.dialog_id);
  insert_event_.bind_text(2, ev.root_id);
  insert_event_.bind_int(3, ev.seq);
  insert_event_.bind_text(4, ev.type);
  insert_event_.bind_text(5, payload_text_);
  insert_event_.bind_text(6, ts_text_);
  insert_event_.bind_int(7, ev.ts_ms);
  return insert_event_.run();
}

result<void> table_writer::write_step(const event& ev, const dialog_row& row_after, const projection_step& step) {
  if (step.new_message) {
    bind_message(insert_message_, *step.new_message);
    PARLEY_TRY(insert_message_.run());
  }
  if (ev.type == event_type::dialog_created || step.course_reset) {
    insert_course_.bind_text(1, row_after.id);
    insert_course_.bind_int(2, row_after.course);
    insert_course_.bind_int(3, ev.ts_ms);
    PARLEY_TRY(insert_course_.run());
  }
  return ok();
}

result<void> table_writer::upsert_dialog(const dialog_row& row) {
  bind_dialog(upsert_dialog_, row);
  return upsert_dialog_.run();
}

result<std::optional<dialog_row>> table_writer::load_dialog(std::string_view dialog_id) {
  reset_guard guard(load_dialog_);
  load_dialog_.bind_text(1, dialog_id);
  auto found = load_dialog_.step();
  if (!found) return std::move(found).err();
  if (!*found) return std::optional<dialog_row>{};
  return std::optional<dialog_row>{read_dialog(load_dialog_)};
}

}  // namespace parley::sqlite
