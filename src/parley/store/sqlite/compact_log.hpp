// The log keyed by integers (schema version 17, docs/store.md "A compact log"). Each of a
// fanout-3 task's 40 events kept its dialog id and root id as 16-character text and its type as a
// name, and the `(dialog_id, seq)` index copied the id again: about 2.5 KB of the task's 11 KB of
// log. The table is now `event_log`, whose rows hold a dialog key, a root key and a type code;
// `dialog_keys` and `event_types` map them to the ids and names, once each.
//
// `events` is a view with the old table's columns, so every reader (read_events, the projector,
// `parley check`, log repair, kEventPayloadSql, kMessageMetadataSql, the sqlite3 shell) reads the
// same rows as before, and INSTEAD OF triggers let the shell and log repair write through it. The
// writer inserts into `event_log` directly, with its keys from a cache (log_keys below).
//
// Both maps are in the database, not in the binary, so the log stays readable without this
// program and a type this binary does not know keeps its name: a code is only ever added, never
// changed. The codes of the types an index names are fixed here (kEventTypeCodesSql).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>

#include "parley/core/result.hpp"
#include "parley/store/sqlite/recency_cache.hpp"
#include "parley/store/sqlite/sqlite_handle.hpp"

namespace parley::sqlite {

// The codes of the types the log's partial indexes and find_input name (their SQL must repeat
// the literal for SQLite to use the index).
inline constexpr std::int64_t kUserMessageCode = 2;
inline constexpr std::int64_t kQuestionAnsweredCode = 16;
inline constexpr std::int64_t kFlowThreadSavedCode = 35;
inline constexpr std::int64_t kFlowThreadAppendedCode = 36;

// The migration to version 17, in one transaction: the maps, the log copied into `event_log` in
// id order (so every event keeps its id), the old table dropped with its indexes, and `events`
// made again as a view. A type or id the log holds that the fixed list lacks gets the next code or
// key. The indexes of versions 9 and 12 are made on `event_log` with type codes.
const char* v17_compact_log_sql();

// The migration to version 18 (payload_codec.hpp): `events` made again over `parley_payload`, with
// its triggers, and the expression indexes made over the function. No row is rewritten.
const char* v18_payload_blobs_sql();

// The migration to version 24 (log_bases.hpp).
const char* v24_log_bases_sql();

// The writer's keys: a dialog id's key and a type name's code, looked up in the tables once and
// then cached. A key made inside a transaction is only cached once that transaction commits, so a
// rollback never leaves the cache naming a row that is not there.
class log_keys {
 public:
  explicit log_keys(std::size_t cached_dialogs) : dialogs_(cached_dialogs) {}

  // Prepares the statements on `db`, which must outlive this object.
  result<void> prepare(connection& db);

  // A dialog's key with its root's key and its time base (schema version 24, log_bases.hpp): made
  // if the log has none yet, from the root and the time of the dialog's first event.
  struct dialog_entry {
    std::int64_t key = 0;
    std::int64_t root_key = 0;
    std::int64_t base_ms = 0;
  };
  result<dialog_entry> dialog(const std::string& dialog_id, const std::string& root_id, std::int64_t ts_ms);
  // The key of `id` alone (a root's), made if the log has none yet.
  result<std::int64_t> key_of(const std::string& id);
  // The code of the type named `name`, made if the log has none yet.
  result<std::int64_t> type_code(std::string_view name);

  // The transaction's keys are now durable: cache them.
  void committed();
  // The transaction, or its last savepoint, was undone: forget what it made or looked up.
  void rolled_back() noexcept;

 private:
  result<std::int64_t> look_up(statement& find, statement& insert, std::string_view text);

  connection* db_ = nullptr;
  statement find_dialog_, insert_dialog_, set_dialog_base_, find_type_, insert_type_;
  recency_cache<dialog_entry> dialogs_;
  // A few dozen types: ordered maps, found by a string_view without making a string.
  std::map<std::string, std::int64_t, std::less<>> types_;
  // Looked up or made in the open transaction.
  std::unordered_map<std::string, dialog_entry> pending_dialogs_;
  std::map<std::string, std::int64_t, std::less<>> pending_types_;
};

}  // namespace parley::sqlite
