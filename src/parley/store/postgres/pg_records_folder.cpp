#include "parley/store/postgres/pg_records_folder.hpp"

#include "parley/model/conversation_reducer.hpp"
#include "parley/store/postgres/pg_records_rows.hpp"

namespace parley::pg {

void folded_batch::add_to(records_changes& group) && {
  for (records_step& step : steps) group.add(std::move(step));
  for (auto& [dialog_id, cursor] : cursors) group.set_cursor(dialog_id, std::move(cursor));
}

result<void> records_folder::fold(connection& conn, const event& ev, const dialog_row& row_after,
                                  const projection_step& step, const records_changes& group, folded_batch& batch) {
  if (!touches_records(ev, step)) return ok();
  auto slot = batch.cursors.find(ev.dialog_id);
  if (slot == batch.cursors.end()) {
    records_cursor_slot start;
    if (opens_dialog(ev)) {
      start = records_cursor{};  // apply_records makes it
    } else if (const records_cursor_slot* in_group = group.cursor(ev.dialog_id)) {
      start = *in_group;
    } else if (const records_cursor_slot* held = cursors_.find(ev.dialog_id)) {
      start = *held;
    } else {
      PARLEY_TRY_ASSIGN(start, load(conn, ev.dialog_id));
    }
    slot = batch.cursors.emplace(ev.dialog_id, std::move(start)).first;
  }
  if (!slot->second) return ok();  // a dialog older than the records, not rebuilt since
  records_step made = apply_records(ev, row_after, step, *slot->second);
  if (!made.empty()) batch.steps.push_back(std::move(made));
  return ok();
}

result<records_cursor_slot> records_folder::load(connection& conn, const std::string& dialog_id) {
  const params<1> args{dialog_id};
  auto found = conn.query("SELECT " + std::string(kCursorColumns) + " FROM records_cursor c WHERE c.dialog_id = $1",
                          args, "reading a dialog's records cursor");
  if (!found) return std::move(found).err();
  if (found->empty()) return records_cursor_slot{};
  auto cursor = read_cursor(*found, 0, dialog_id);
  if (!cursor) return std::move(cursor).err();
  return records_cursor_slot{std::move(*cursor)};
}

void records_folder::committed(const records_changes& group) {
  for (const auto& [dialog_id, cursor] : group.cursors()) cursors_.insert_or_assign(dialog_id, cursor);
  cursors_.trim();
}

}  // namespace parley::pg
