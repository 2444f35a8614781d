// Folds committed events into the projections — the dialogs, their messages and courses, and seed
// 002's records — and records how far it got (the watermark, `projected_through`), in a
// transaction of its own that the caller opens and commits.
//
// Why the projections trail the log instead of being written in the appending transaction: a
// commit is durable only once fsynced, and its cost is the number of pages it dirties. The event
// log grows at its end and touches two B-trees; the projections touch about thirty (indexes on
// dialogue, session, turn and time, full-text search). Writing them for hundreds of events at
// once, every few tens of milliseconds, dirties each page once instead of once per commit. Every
// read of a projection first catches it up (sqlite_writer::catch_up), so no reader sees the lag,
// and a crash loses nothing: the next open projects what the log holds past the watermark.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/model/event.hpp"
#include "parley/model/records.hpp"
#include "parley/store/sqlite/fork_checkpoint_writer.hpp"
#include "parley/store/sqlite/recency_cache.hpp"
#include "parley/store/sqlite/records_writer.hpp"
#include "parley/store/sqlite/sqlite_handle.hpp"
#include "parley/store/sqlite/table_writer.hpp"

namespace parley::sqlite {

class projector {
 public:
  // Keeps the rows and records cursors of at most `cached_dialogs` dialogs between transactions.
  explicit projector(std::size_t cached_dialogs) : records_(cached_dialogs), rows_(cached_dialogs) {}

  // Prepares every statement on `db`; `tables` and `db` must outlive this object.
  result<void> prepare(connection& db, table_writer& tables);

  // The id of the newest event the stored projections include.
  result<std::int64_t> stored_watermark();

  // Folds one committed event (stored as `event_id`) into the projections of the open transaction.
  // Events must come in log order, each exactly once past the watermark.
  result<void> project(const event& ev, std::int64_t event_id);
  // Folds every stored event past `after_event_id`, in log order; returns the id of the last one
  // (`after_event_id` when there is none).
  result<std::int64_t> project_log_after(std::int64_t after_event_id);
  // Writes what the folded events changed (dialog rows, records cursors) and the watermark. Call
  // before COMMIT.
  result<void> finish(std::int64_t through_event_id);
  // The transaction committed: the cached rows are what the tables hold.
  void committed() noexcept;
  // The transaction was rolled back: the tables are the truth again.
  void forget() noexcept;
  // The most dialogs either of its caches holds (rows, records cursors).
  std::size_t cached_dialogs() const noexcept { return std::max(rows_.size(), records_.cached_dialogs()); }

 private:
  // A dialog's projection row as the open transaction leaves it.
  struct cached_row {
    dialog_row row;
    bool in_table = false;  // false: new, written whole with its index entries
    bool dirty = false;     // changed in the open transaction
    // The row as the table holds it, kept while dirty: when no fixed column changed (see
    // same_fixed_columns) only the columns a commit usually changes are written, and the
    // indexes, which hold only fixed columns, are left alone.
    dialog_row before;
    // Whether the dialog is at rest, for its fork checkpoints; none when the row was read back
    // from the table (fork_checkpoint_writer recovers it at the next checkpoint).
    std::optional<fork_rest> rest;
  };
  // `creates`: the event creates the dialog.
  result<cached_row*> row_of(const std::string& dialog_id, bool creates);

  connection* db_ = nullptr;
  table_writer* tables_ = nullptr;
  records_writer records_;
  fork_checkpoint_writer checkpoints_;
  statement read_watermark_, write_watermark_, events_after_;
  recency_cache<cached_row> rows_;
  std::vector<cached_row*> dirty_;  // nodes of rows_, whose addresses are stable
};

}  // namespace parley::sqlite
