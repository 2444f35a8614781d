// An online backup of a data directory's SQLite store (`parley backup DEST`): a consistent copy
// taken while `parley serve` keeps writing. SQLite's backup API copies every page under one read
// transaction, which in WAL mode never blocks the writer, so the copy is the store as of one
// commit — log and projections together (projections that trail the log there are caught up by
// the next open, as after a crash). The copy is written beside its final name and renamed into
// place only once it is complete, checked and synced: a failure (a full or unwritable
// destination) leaves no half-made store behind, and the live store is only ever read.
#pragma once

#include <cstdint>
#include <string>

#include "parley/core/result.hpp"

namespace parley {

struct backup_summary {
  std::string path;  // the copy: DEST/parley.db
  std::int64_t pages = 0;
  std::int64_t bytes = 0;
};

// Copies `<data_dir>/parley.db` to `<dest_dir>/parley.db`, creating `dest_dir` if needed. Refuses a
// destination that already holds a store (a backup never overwrites one) and the data directory
// itself. Errors say which side failed and why.
result<backup_summary> backup_sqlite_store(const std::string& data_dir, const std::string& dest_dir);

}  // namespace parley
