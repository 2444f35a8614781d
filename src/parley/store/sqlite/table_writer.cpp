#include "parley/store/sqlite/table_writer.hpp"

#include <algorithm>
#include <iterator>

#include "parley/model/event_codec.hpp"
#include "parley/store/sqlite/payload_codec.hpp"
#include "parley/store/sqlite/row_codec.hpp"

namespace parley::sqlite {
namespace {

// Columns of kDialogColumns that only a full upsert writes: the key, every indexed column, and
// the ones the reducer sets at creation only. Keep in step with same_fixed_columns.
constexpr std::string_view kFixedDialogColumns[] = {
    "id",    "root_id", "parent_id",     "member_id", "kind",         "status", "task_doc_path",
    "title", "depth",   "created_at_ms", "call_kind", "session_slug", "humans", "members"};

// "b = ?2, c = ?3, ..." for the columns of kDialogColumns that `wanted` accepts, numbered by
// their position so that bind_dialog binds every statement on the table.
template <class Wanted>
std::string dialog_assignments(Wanted wanted) {
  std::string out;
  std::string_view columns = kDialogColumns;
  for (int number = 1; !columns.empty(); ++number) {
    const std::size_t comma = columns.find(',');
    std::string_view column = columns.substr(0, comma);
    columns = comma == std::string_view::npos ? std::string_view{} : columns.substr(comma + 1);
    while (!column.empty() && column.front() == ' ') column.remove_prefix(1);
    if (!wanted(column)) continue;
    if (!out.empty()) out += ", ";
    out.append(column).append(" = ?").append(std::to_string(number));
  }
  return out;
}

bool is_fixed_column(std::string_view column) {
  return std::find(std::begin(kFixedDialogColumns), std::end(kFixedDialogColumns), column) !=
         std::end(kFixedDialogColumns);
}

}  // namespace

result<void> table_writer::prepare(connection& db) {
  db_ = &db;
  const std::string dialog_cols(kDialogColumns);
  PARLEY_TRY(prepare_into(db, begin_, "BEGIN IMMEDIATE"));
  PARLEY_TRY(prepare_into(db, commit_, "COMMIT"));
  PARLEY_TRY(prepare_into(db, rollback_, "ROLLBACK"));
  PARLEY_TRY(prepare_into(db, savepoint_, "SAVEPOINT batch"));
  PARLEY_TRY(prepare_into(db, release_, "RELEASE batch"));
  PARLEY_TRY(prepare_into(db, rollback_to_, "ROLLBACK TO batch"));
  PARLEY_TRY(prepare_into(db, insert_event_,
                          "INSERT INTO event_log (dialog_key, root_key, seq, type_code, payload, ts_delta) "
                          "VALUES (?1, ?2, ?3, ?4, ?5, ?6)"));
  PARLEY_TRY(prepare_into(db, insert_message_, "INSERT INTO messages (event_id, course) VALUES (?1, ?2)"));
  PARLEY_TRY(prepare_into(db, upsert_dialog_,
                          "INSERT INTO dialogs (" + dialog_cols + ") VALUES (" + placeholders(kDialogColumnCount) +
                              ") ON CONFLICT (id) DO UPDATE SET " +
                              dialog_assignments([](std::string_view c) { return c != "id"; })));
  PARLEY_TRY(prepare_into(db, update_dialog_, "UPDATE dialogs SET " + dialog_assignments([](std::string_view c) {
                                                return !is_fixed_column(c);
                                              }) + " WHERE id = ?1"));
  PARLEY_TRY(prepare_into(db, load_dialog_, "SELECT " + dialog_cols + " FROM dialogs WHERE id = ?1"));
  PARLEY_TRY(keys_.prepare(db));
  return prompts_.prepare(db);
}

result<void> table_writer::rollback_to_savepoint() {
  keys_.rolled_back();
  PARLEY_TRY(rollback_to_.run());
  return release_.run();
}

result<std::int64_t> table_writer::insert_event(const event& ev) {
  payload_text_.clear();
  boost::json::value wire = encode_payload(ev.payload);
  if (const auto* logged = ev.as<events::prompt_logged>()) PARLEY_TRY(prompts_.share(*logged, wire.as_object()));
  serializer_.reset(&wire);
  char chunk[4096];
  while (!serializer_.done()) payload_text_.append(serializer_.read(chunk, sizeof chunk));
  auto dialog = keys_.dialog(ev.dialog_id, ev.root_id, ev.ts_ms);
  if (!dialog) return std::move(dialog).err();
  auto root_key = ev.root_id == ev.dialog_id ? result<std::int64_t>(dialog->key) : keys_.key_of(ev.root_id);
  if (!root_key) return std::move(root_key).err();
  auto type_code = keys_.type_code(ev.type());
  if (!type_code) return std::move(type_code).err();
  insert_event_.bind_int(1, dialog->key);
  // NULL: the dialog's root (log_bases.hpp), as for every event the engine writes.
  if (*root_key == dialog->root_key) {
    insert_event_.bind_null(2);
  } else {
    insert_event_.bind_int(2, *root_key);
  }
  insert_event_.bind_int(3, ev.seq);
  insert_event_.bind_int(4, *type_code);
  auto compressed = encode_payload_blob(payload_text_, payload_blob_);
  if (!compressed) return std::move(compressed).err();
  if (*compressed) {
    // The append path refuses what it could not read back: a blob is stored only once it has
    // decoded to the very text it was made from.
    auto read_back = decode_payload_blob(payload_blob_);
    if (!read_back || *read_back != payload_text_) {
      return make_error(errc::io_error, "event " + std::to_string(ev.seq) + " (" + std::string(ev.type()) +
                                            ") of dialog " + ev.dialog_id +
                                            " was refused: its compressed payload does not read back" +
                                            (read_back ? std::string() : " (" + read_back.err().message + ")"));
    }
    insert_event_.bind_blob(5, payload_blob_);
  } else {
    insert_event_.bind_text(5, payload_text_);
  }
  insert_event_.bind_int(6, ev.ts_ms - dialog->base_ms);
  PARLEY_TRY(insert_event_.run());
  return db_->last_insert_rowid();
}

result<void> table_writer::write_step(std::int64_t event_id, const projection_step& step) {
  if (step.new_message) {
    insert_message_.bind_int(1, event_id);
    insert_message_.bind_int(2, step.new_message->course);
    PARLEY_TRY(insert_message_.run());
  }
  // `courses` is a view of the log (schema version 21, courses_view.hpp): nothing to write.
  return ok();
}

result<void> table_writer::upsert_dialog(const dialog_row& row) {
  bind_dialog(upsert_dialog_, row);
  return upsert_dialog_.run();
}

result<void> table_writer::update_dialog_progress(const dialog_row& row) {
  bind_dialog(update_dialog_, row);
  return update_dialog_.run();
}

result<std::optional<dialog_row>> table_writer::load_dialog(std::string_view dialog_id) {
  reset_guard guard(load_dialog_);
  load_dialog_.bind_text(1, dialog_id);
  auto found = load_dialog_.step();
  if (!found) return std::move(found).err();
  if (!*found) return std::optional<dialog_row>{};
  auto row = read_dialog(load_dialog_);
  if (!row) return std::move(row).err();
  return std::optional<dialog_row>{std::move(*row)};
}

bool same_fixed_columns(const dialog_row& a, const dialog_row& b) noexcept {
  return a.id == b.id && a.root_id == b.root_id && a.parent_id == b.parent_id && a.member_id == b.member_id &&
         a.kind == b.kind && a.status == b.status && a.task_doc_path == b.task_doc_path && a.title == b.title &&
         a.depth == b.depth && a.created_at_ms == b.created_at_ms && a.humans == b.humans && a.members == b.members;
}

}  // namespace parley::sqlite
