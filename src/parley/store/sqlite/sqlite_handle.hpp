// RAII ownership of sqlite3 connections and prepared statements, with errors mapped to result<T>.
// Connections are opened with SQLITE_OPEN_NOMUTEX: each one is used by a single thread at a time
// (the writer thread, or readers under a mutex), so SQLite's own per-call locking is wasted work.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "parley/core/result.hpp"

struct sqlite3;
struct sqlite3_stmt;

namespace parley::sqlite {

// Maps a SQLite result code to the project's error codes: damaged files are `corrupt`,
// constraint violations `conflict`, everything else `io_error`.
errc errc_from_sqlite(int code) noexcept;

class statement {
 public:
  statement() = default;
  explicit statement(sqlite3_stmt* raw) : stmt_(raw) {}

  bool valid() const noexcept { return stmt_ != nullptr; }
  sqlite3_stmt* get() const noexcept { return stmt_.get(); }

  // Text is bound without copying: it must stay alive until the statement is reset.
  void bind_text(int index, std::string_view text);
  // For a temporary: SQLite keeps its own copy.
  void bind_text_copy(int index, std::string_view text);
  void bind_int(int index, std::int64_t value);
  void bind_null(int index);
  // Bytes as a BLOB, without copying (like bind_text).
  void bind_blob(int index, std::string_view bytes);

  // Advances the statement: true when a row is available, false when done.
  result<bool> step();
  // Steps a statement that returns no rows to completion and resets it for the next use.
  result<void> run();
  // Ends the current execution (releasing its read snapshot) and clears the bindings.
  void reset() noexcept;

  std::int64_t int_at(int column) const;
  std::string text_at(int column) const;
  std::string_view text_view_at(int column) const;  // valid until the next step/reset
  std::string_view blob_view_at(int column) const;
  bool is_blob_at(int column) const;  // valid until the next step/reset
  bool is_null_at(int column) const;

 private:
  struct finalizer {
    void operator()(sqlite3_stmt* raw) const noexcept;
  };
  std::unique_ptr<sqlite3_stmt, finalizer> stmt_;
};

// Resets a statement when a read leaves scope, so no execution keeps a stale read transaction open.
class reset_guard {
 public:
  explicit reset_guard(statement& stmt) : stmt_(stmt) {}
  ~reset_guard() { stmt_.reset(); }
  reset_guard(const reset_guard&) = delete;
  reset_guard& operator=(const reset_guard&) = delete;

 private:
  statement& stmt_;
};

// Process-wide SQLite settings (allocation statistics off). SQLite accepts them only before it
// initializes, and opening a connection, finding or registering a VFS all initialize it, so each
// of those here calls this first. Idempotent and thread-safe.
void configure_sqlite_process() noexcept;

class connection {
 public:
  connection() = default;

  static result<connection> open_read_write(const std::string& path);
  static result<connection> open_read_only(const std::string& path);
  // A read-write connection whose WAL writes are gathered into one per commit
  // (wal_batching_vfs.hpp): it must run with PRAGMA synchronous = FULL.
  static result<connection> open_durable_writer(const std::string& path);
  // Closing this connection will not checkpoint the WAL into the database file (by default the
  // last connection to close does).
  void keep_wal_on_close() noexcept;

  bool valid() const noexcept { return db_ != nullptr; }
  sqlite3* get() const noexcept { return db_.get(); }
  const std::string& path() const noexcept { return path_; }

  // Runs one or more statements that return no rows needed by the caller.
  result<void> exec(const char* sql);
  // `persistent` hints SQLite that the statement lives for the whole connection.
  result<statement> prepare(std::string_view sql, bool persistent = true);
  // An error carrying the connection's latest SQLite message, prefixed by `what`.
  error last_error(std::string_view what) const;
  // True while an explicit transaction is open (SQLite rolls back on some I/O errors by itself).
  bool in_transaction() const noexcept;
  // The rowid of the latest successful INSERT on this connection.
  std::int64_t last_insert_rowid() const noexcept;

 private:
  struct closer {
    void operator()(sqlite3* raw) const noexcept;
  };
  static result<connection> open(const std::string& path, int flags, const char* vfs = nullptr);

  std::unique_ptr<sqlite3, closer> db_;
  std::string path_;
};

// Prepares `sql` (persistent) on `db` into `out`, for statements a writer or reader keeps.
result<void> prepare_into(connection& db, statement& out, std::string_view sql);

}  // namespace parley::sqlite
