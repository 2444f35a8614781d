#include "parley/store/sqlite/sqlite_reader.hpp"

#include <type_traits>

#include "parley/store/sqlite/compact_log.hpp"
#include "parley/store/sqlite/log_repair.hpp"
#include "parley/store/sqlite/row_codec.hpp"

namespace parley::sqlite {
namespace {

constexpr unsigned kByStatus = 1;
constexpr unsigned kByMember = 2;
constexpr unsigned kByRoot = 4;
constexpr unsigned kRootsOnly = 8;
constexpr unsigned kNeedingRecovery = 16;
constexpr unsigned kWithOpenQuestions = 32;
constexpr unsigned kFailed = 64;

unsigned filter_mask(const dialog_filter& filter) {
  unsigned mask = 0;
  if (filter.status) mask |= kByStatus;
  if (!filter.member_id.empty()) mask |= kByMember;
  if (!filter.root_id.empty()) mask |= kByRoot;
  if (filter.roots_only) mask |= kRootsOnly;
  if (filter.needing_recovery) mask |= kNeedingRecovery;
  if (filter.with_open_questions) mask |= kWithOpenQuestions;
  if (filter.failed) mask |= kFailed;
  return mask;
}

std::string list_sql(unsigned mask) {
  std::string sql = "SELECT " + std::string(kDialogColumns) + " FROM dialogs WHERE 1";
  if ((mask & kByStatus) != 0) sql += " AND status = ?1";
  if ((mask & kByMember) != 0) sql += " AND member_id = ?2";
  if ((mask & kByRoot) != 0) sql += " AND root_id = ?3";
  if ((mask & kRootsOnly) != 0) sql += " AND parent_id = ''";
  // Spelled as the partial indexes of schema version 7 are, so that SQLite uses them.
  if ((mask & kNeedingRecovery) != 0) sql += " AND (generating != 0 OR needs_drive != 0)";
  if ((mask & kWithOpenQuestions) != 0) sql += " AND open_questions > 0";
  if ((mask & kFailed) != 0) sql += " AND last_error != ''";
  return sql + " ORDER BY created_at_ms, id LIMIT ?4 OFFSET ?5";
}

// Steps `stmt` to the end, turning each row into a T with `read` (which may return result<T>).
template <class T, class Read>
result<std::vector<T>> collect(statement& stmt, Read read) {
  reset_guard guard(stmt);
  std::vector<T> rows;
  for (;;) {
    auto has_row = stmt.step();
    if (!has_row) return std::move(has_row).err();
    if (!*has_row) return rows;
    if constexpr (std::is_same_v<decltype(read(stmt)), T>) {
      rows.push_back(read(stmt));
    } else {
      auto row = read(stmt);
      if (!row) return std::move(row).err();
      rows.push_back(std::move(*row));
    }
  }
}

}  // namespace

result<std::unique_ptr<sqlite_reader>> sqlite_reader::open(const std::string& path, reader_view view) {
  std::unique_ptr<sqlite_reader> reader(new sqlite_reader());
  auto db = connection::open_read_only(path);
  if (!db) return std::move(db).err();
  {
    parley::lock_guard lock(reader->mutex_);  // nobody else has it yet; the analysis is told so
    reader->db_ = std::move(*db);
    if (view != reader_view::live) PARLEY_TRY(reader->pin_snapshot(view == reader_view::projected_snapshot));
    PARLEY_TRY(reader->prepare_all());
  }
  return reader;
}

// A read transaction left open: every later statement reads the database as it was at its first
// read, the watermark's. SQLite's WAL keeps that snapshot readable while the writer goes on.
result<void> sqlite_reader::pin_snapshot(bool log_as_projected) {
  PARLEY_TRY(db_.exec("BEGIN"));
  auto watermark = db_.prepare("SELECT event_id FROM projected_through", false);
  if (!watermark) return std::move(watermark).err();
  auto found = watermark->step();
  if (!found) return std::move(found).err();
  if (!*found) return make_error(errc::corrupt, "database " + db_.path() + " has no projection watermark");
  if (log_as_projected) through_event_id_ = watermark->int_at(0);
  return ok();
}

result<void> sqlite_reader::prepare_all() {
  // A snapshot reader's log ends where its projections do (a number it read itself, not input).
  const std::string through = through_event_id_ ? " AND e.id <= " + std::to_string(*through_event_id_) : "";
  const std::string events = "SELECT " + event_columns() + " FROM events_stored AS e";
  const std::string dialogs = "SELECT " + std::string(kDialogColumns) + " FROM dialogs";
  // A dialog's messages are found through the log's (dialog_id, seq) index.
  const std::string messages =
      "SELECT " + event_columns() + ", m.course FROM events_stored AS e JOIN messages AS m ON m.event_id = e.id";
  PARLEY_TRY(prepare_into(db_, events_of_dialog_,
                          events + " WHERE e.dialog_id = ?1 AND e.seq > ?2" + through + " ORDER BY e.seq"));
  PARLEY_TRY(prepare_into(db_, all_events_, events + " WHERE 1" + through + " ORDER BY e.id"));
  PARLEY_TRY(prepare_fork_reads(through));
  PARLEY_TRY(prepare_into(db_, get_dialog_, dialogs + " WHERE id = ?1"));
  PARLEY_TRY(prepare_into(db_, messages_all_, messages + " WHERE e.dialog_id = ?1 ORDER BY e.seq"));
  PARLEY_TRY(
      prepare_into(db_, messages_of_course_, messages + " WHERE e.dialog_id = ?1 AND m.course = ?2 ORDER BY e.seq"));
  // The expressions and the type tests are the indexes' own (compact_log.cpp, schema version 17), so
  // each half of the query is answered by its index on event_log.
  const std::string codes =
      "l.type_code IN (" + std::to_string(kUserMessageCode) + ", " + std::to_string(kQuestionAnsweredCode) + ")";
  const std::string flow_codes =
      "l.type_code IN (" + std::to_string(kFlowThreadSavedCode) + ", " + std::to_string(kFlowThreadAppendedCode) + ")";
  const std::string identity =
      "SELECT l.id, (SELECT name FROM event_types WHERE code = l.type_code), "
      "(SELECT id FROM dialog_keys WHERE key = l.dialog_key), l.seq, ";
  PARLEY_TRY(prepare_into(
      db_, input_by_msg_id_,
      identity +
          "coalesce(json_extract(parley_payload(l.payload), '$.from'), ''), "
          "coalesce(json_extract(parley_payload(l.payload), '$.content'), ''), "
          "coalesce(json_extract(parley_payload(l.payload), '$.questionId'), '') FROM event_log AS l WHERE " +
          codes +
          " AND (CASE WHEN json_valid(parley_payload(l.payload)) THEN json_extract(parley_payload(l.payload), "
          "'$.msgId') END) = ?1 "
          "UNION ALL " +
          identity +
          "coalesce(json_extract(parley_payload(l.payload), '$.input.from'), ''), "
          "coalesce(json_extract(parley_payload(l.payload), '$.input.content'), ''), '' FROM event_log AS l WHERE " +
          flow_codes +
          " AND (CASE WHEN json_valid(parley_payload(l.payload)) THEN json_extract(parley_payload(l.payload), "
          "'$.input.msgId') "
          "END) = ?1 "
          "ORDER BY 1 LIMIT 1"));
  return ok();
}

result<std::vector<event>> sqlite_reader::read_events(std::string_view dialog_id, std::int64_t after_seq) {
  parley::lock_guard lock(mutex_);
  events_of_dialog_.bind_text(1, dialog_id);
  events_of_dialog_.bind_int(2, after_seq);
  return collect<event>(events_of_dialog_, read_event);
}

result<std::vector<event>> sqlite_reader::read_all_events() {
  parley::lock_guard lock(mutex_);
  return collect<event>(all_events_, read_event);
}

result<statement*> sqlite_reader::list_statement(const dialog_filter& filter) {
  const unsigned mask = filter_mask(filter);
  statement& stmt = list_dialogs_[mask];
  if (!stmt.valid()) PARLEY_TRY(prepare_into(db_, stmt, list_sql(mask)));
  return &stmt;
}

result<std::vector<dialog_row>> sqlite_reader::list_dialogs(const dialog_filter& filter) {
  parley::lock_guard lock(mutex_);
  auto stmt = list_statement(filter);
  if (!stmt) return std::move(stmt).err();
  statement& query = **stmt;
  if (filter.status) query.bind_text(1, events::to_wire(*filter.status));
  if (!filter.member_id.empty()) query.bind_text(2, filter.member_id);
  if (!filter.root_id.empty()) query.bind_text(3, filter.root_id);
  query.bind_int(4, filter.limit > 0 ? filter.limit : -1);  // SQLite: a negative LIMIT means none
  query.bind_int(5, filter.offset > 0 ? filter.offset : 0);
  return collect<dialog_row>(query, read_dialog);
}

result<dialog_counts> sqlite_reader::count_dialogs() {
  parley::lock_guard lock(mutex_);
  auto stmt = db_.prepare("SELECT status, count(*) FROM dialogs GROUP BY status", true);
  if (!stmt) return std::move(stmt).err();
  dialog_counts counts;
  for (;;) {
    auto has_row = stmt->step();
    if (!has_row) return std::move(has_row).err();
    if (!*has_row) return counts;
    const auto status = events::from_wire<events::dialog_status>(stmt->text_view_at(0));
    if (!status)
      return make_error(errc::corrupt, "dialogs: unknown status '" + std::string(stmt->text_view_at(0)) + "'");
    counts.add(*status, stmt->int_at(1));
  }
}

result<std::optional<dialog_row>> sqlite_reader::get_dialog(std::string_view dialog_id) {
  parley::lock_guard lock(mutex_);
  get_dialog_.bind_text(1, dialog_id);
  auto rows = collect<dialog_row>(get_dialog_, read_dialog);
  if (!rows) return std::move(rows).err();
  if (rows->empty()) return std::optional<dialog_row>{};
  return std::optional<dialog_row>{std::move(rows->front())};
}

result<std::vector<message_row>> sqlite_reader::messages(std::string_view dialog_id, std::int64_t course) {
  if (course < 0) return make_error(errc::invalid_argument, "course " + std::to_string(course) + " is negative");
  parley::lock_guard lock(mutex_);
  if (course == 0) {
    messages_all_.bind_text(1, dialog_id);
    return collect<message_row>(messages_all_, read_message);
  }
  messages_of_course_.bind_text(1, dialog_id);
  messages_of_course_.bind_int(2, course);
  return collect<message_row>(messages_of_course_, read_message);
}

result<std::optional<input_record>> sqlite_reader::find_input(std::string_view msg_id) {
  parley::lock_guard lock(mutex_);
  reset_guard guard(input_by_msg_id_);
  input_by_msg_id_.bind_text(1, msg_id);
  auto row = input_by_msg_id_.step();
  if (!row) return std::move(row).err();
  if (!*row) return std::optional<input_record>{};
  // A message sent to a flow is a message like any other: a retry is told from a reuse the same way.
  const auto kind =
      input_by_msg_id_.text_at(1) == event_type::question_answered ? input_kind::answer : input_kind::message;
  return std::optional<input_record>{input_record{kind, input_by_msg_id_.text_at(2), input_by_msg_id_.int_at(3),
                                                  input_by_msg_id_.text_at(4), input_by_msg_id_.text_at(5),
                                                  input_by_msg_id_.text_at(6)}};
}

result<std::vector<damaged_event>> sqlite_reader::damaged_events() {
  parley::lock_guard lock(mutex_);
  return find_damaged_events(db_);
}

}  // namespace parley::sqlite
