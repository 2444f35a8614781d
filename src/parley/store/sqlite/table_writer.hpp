// The writer connection's prepared statements: prepared once, reused for every event, so the hot
// path never parses SQL. Only the writer thread (or the opener, before it starts) touches it.
#pragma once

#include <boost/json/serializer.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "parley/core/result.hpp"
#include "parley/model/event.hpp"
#include "parley/model/projection.hpp"
#include "parley/model/records.hpp"
#include "parley/store/sqlite/compact_log.hpp"
#include "parley/store/sqlite/prompt_versions.hpp"
#include "parley/store/sqlite/sqlite_handle.hpp"

namespace parley::sqlite {

class table_writer {
 public:
  // Prepares every statement on `db`, which must outlive this object.
  result<void> prepare(connection& db);

  result<void> begin() {
    keys_.rolled_back();  // whatever an earlier transaction left pending did not commit
    return begin_.run();
  }
  result<void> commit() {
    PARLEY_TRY(commit_.run());
    keys_.committed();
    return ok();
  }
  result<void> rollback() {
    keys_.rolled_back();
    return rollback_.run();
  }
  result<void> savepoint() { return savepoint_.run(); }
  result<void> release() { return release_.run(); }
  // Undoes everything since `savepoint()` and ends the savepoint.
  result<void> rollback_to_savepoint();

  // Returns the event's id (its position in the log). A `prompt_logged` is stored without the
  // text its version already has in `prompt_versions` (prompt_versions.hpp).
  result<std::int64_t> insert_event(const event& ev);
  // Writes the row one applied event (stored as `event_id`) produced: its message. (The course it
  // started is read from the log by the `courses` view, courses_view.hpp.)
  result<void> write_step(std::int64_t event_id, const projection_step& step);
  // Inserts or replaces the whole row.
  result<void> upsert_dialog(const dialog_row& row);
  // Updates a stored row whose fixed columns (see same_fixed_columns) have not changed: the
  // indexes, which hold only fixed columns, are left untouched.
  result<void> update_dialog_progress(const dialog_row& row);
  result<std::optional<dialog_row>> load_dialog(std::string_view dialog_id);

 private:
  connection* db_ = nullptr;
  statement begin_, commit_, rollback_, savepoint_, release_, rollback_to_;
  statement insert_event_, insert_message_, upsert_dialog_, update_dialog_, load_dialog_;
  prompt_version_store prompts_;
  // Dialog keys of the dialogs in flight, as many as the writer caches latest rows of.
  log_keys keys_{4096};

  // Reused across events so serializing a payload does not allocate.
  boost::json::serializer serializer_;
  std::string payload_text_;
  std::string payload_blob_;  // payload_text_ compressed, when that pays (payload_codec.hpp)
};

// True when `a` and `b` agree on every column an index of `dialogs` holds (and the others the
// reducer only sets at creation), so `update_dialog_progress` can write `b` over `a`.
bool same_fixed_columns(const dialog_row& a, const dialog_row& b) noexcept;

}  // namespace parley::sqlite
