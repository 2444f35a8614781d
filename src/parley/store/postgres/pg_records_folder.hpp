// The PostgreSQL store folds seed 002's records in the same transaction as the events they come
// from (pg_writer.hpp), rather than trailing the log with a watermark as the SQLite store's
// projector does:
// - Several processes append to one database, so event ids (a sequence) do not commit in id order:
//   a projector that read the log past a watermark could pass over an event whose id was handed
//   out before and committed after. A dialog's events, though, are appended by one writer at a
//   time behind its head row's fence, and so are its records: its cursor is fenced with them.
// - A read then needs no catch-up: the records of every committed event are committed with it,
//   whichever process appended it.
// - It costs a handful of statements per commit, pipelined with the log's in one round trip.
//
// This keeps each dialog's records cursor between commits (the writer thread's alone), reading the
// ones it does not hold from `records_cursor`.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/model/event.hpp"
#include "parley/model/projection.hpp"
#include "parley/model/records.hpp"
#include "parley/store/postgres/pg_connection.hpp"
#include "parley/store/postgres/pg_records_changes.hpp"
#include "parley/store/sqlite/recency_cache.hpp"

namespace parley::pg {

// What one batch folded, kept apart until the whole batch is known to fit: the reducer's steps in
// log order and its dialogs' cursors after them.
struct folded_batch {
  std::vector<records_step> steps;
  std::map<std::string, records_cursor_slot> cursors;

  // Adds it to its transaction's changes.
  void add_to(records_changes& group) &&;
};

class records_folder {
 public:
  explicit records_folder(std::size_t cached_dialogs) : cursors_(cached_dialogs) {}

  // Folds `ev`, already applied to its dialog (`row_after`, `step`), into `batch`. The dialog's
  // cursor is the batch's, else `group`'s (earlier batches of the transaction), else the one held
  // here, else the table's, read on `conn`.
  result<void> fold(connection& conn, const event& ev, const dialog_row& row_after, const projection_step& step,
                    const records_changes& group, folded_batch& batch);
  // `group` committed: its cursors are what the table holds.
  void committed(const records_changes& group);
  // A commit failed for a reason that may mean another process moved a dialog on: the table is the
  // truth again.
  void forget() noexcept { cursors_.clear(); }
  std::size_t cached_dialogs() const noexcept { return cursors_.size(); }

 private:
  result<records_cursor_slot> load(connection& conn, const std::string& dialog_id);

  sqlite::recency_cache<records_cursor_slot> cursors_;
};

}  // namespace parley::pg
