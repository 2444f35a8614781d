// What the PostgreSQL writer commits in one transaction (a group of batches, pg_writer.hpp), and
// the one round trip that sends it: the group's prepared statements in libpq's pipeline mode, a
// sync, their results.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/model/event.hpp"
#include "parley/store/postgres/pg_connection.hpp"
#include "parley/store/postgres/pg_leases.hpp"
#include "parley/store/postgres/pg_records_changes.hpp"
#include "parley/store/store.hpp"

namespace parley::pg {

// The writer's prepared statements (pg_writer::prepare_statements); seed 002's records have their own
// (pg_records_statements.hpp).
namespace writer_sql {
inline constexpr const char* kAppendEvents = "parley_append_events";
inline constexpr const char* kInsertDialogs = "parley_insert_dialogs";
inline constexpr const char* kUpdateDialogs = "parley_update_dialogs";
inline constexpr const char* kInsertMessages = "parley_insert_messages";
inline constexpr const char* kInsertInputs = "parley_insert_inputs";
inline constexpr const char* kFenceTrees = "parley_fence_trees";
inline constexpr const char* kNewTrees = "parley_new_trees";
}  // namespace writer_sql

// What one transaction writes: the rows its batches folded to and the record sets for each table.
struct staged_group {
  std::vector<std::size_t> members;                     // the requests this transaction carries
  std::unordered_map<std::string, dialog_row> rows;     // every touched dialog's row after the group
  std::unordered_map<std::string, std::int64_t> heads;  // an existing dialog's last_seq before the group
  std::map<std::string, std::int64_t> fences;           // held trees this group writes, and their epochs
  std::set<std::string> new_trees;                      // roots this group creates: their first lease
  std::vector<const event*> events;
  std::vector<std::pair<const event*, std::int64_t>> messages;  // the event and its course
  records_changes records;                                      // seed 002's records (pg_records_folder.hpp)
};

// Sends the group on `conn` (prepared by the writer) under the leases `leases` holds. The newest
// event id on success; errc::conflict when a fence refused it (another writer moved a dialog on or
// took a tree over); errc::unavailable when the connection went, which then is closed.
result<std::int64_t> send_commit_pipeline(connection& conn, const staged_group& staged, const lease_book& leases);

// After a lost connection: whether the group's first event is in the log, payload and all — the
// group committed before the connection went.
result<bool> commit_landed(connection& conn, const staged_group& staged);

}  // namespace parley::pg
