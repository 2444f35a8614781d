#include "parley/store/sqlite/sqlite_handle.hpp"

#include <sqlite3.h>

#include "parley/store/sqlite/payload_codec.hpp"
#include "parley/store/sqlite/record_id.hpp"
#include "parley/store/sqlite/trigram_text.hpp"
#include "parley/store/sqlite/wal_batching_vfs.hpp"

namespace parley::sqlite {

errc errc_from_sqlite(int code) noexcept {
  switch (code & 0xff) {
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      return errc::corrupt;
    case SQLITE_CONSTRAINT:
      return errc::conflict;
    case SQLITE_FULL:
      return errc::storage_full;
    default:
      return errc::io_error;
  }
}

void statement::finalizer::operator()(sqlite3_stmt* raw) const noexcept { sqlite3_finalize(raw); }

void statement::bind_text(int index, std::string_view text) {
  sqlite3_bind_text(stmt_.get(), index, text.data(), static_cast<int>(text.size()), SQLITE_STATIC);
}

void statement::bind_text_copy(int index, std::string_view text) {
  sqlite3_bind_text(stmt_.get(), index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
}

void statement::bind_int(int index, std::int64_t value) { sqlite3_bind_int64(stmt_.get(), index, value); }

void statement::bind_null(int index) { sqlite3_bind_null(stmt_.get(), index); }

void statement::bind_blob(int index, std::string_view bytes) {
  sqlite3_bind_blob(stmt_.get(), index, bytes.data(), static_cast<int>(bytes.size()), SQLITE_STATIC);
}

result<bool> statement::step() {
  const int rc = sqlite3_step(stmt_.get());
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  sqlite3* db = sqlite3_db_handle(stmt_.get());
  error err = make_error(errc_from_sqlite(rc),
                         std::string("sqlite: ") + sqlite3_errmsg(db) + " (in " + sqlite3_sql(stmt_.get()) + ")");
  reset();
  return err;
}

result<void> statement::run() {
  auto stepped = step();
  reset();
  if (!stepped) return std::move(stepped).err();
  return ok();
}

void statement::reset() noexcept {
  // sqlite3_reset repeats the error of a failed step; step() has already reported it.
  sqlite3_reset(stmt_.get());
  sqlite3_clear_bindings(stmt_.get());
}

std::int64_t statement::int_at(int column) const { return sqlite3_column_int64(stmt_.get(), column); }

std::string statement::text_at(int column) const { return std::string(text_view_at(column)); }

std::string_view statement::text_view_at(int column) const {
  const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt_.get(), column));
  if (text == nullptr) return {};
  return {text, static_cast<std::size_t>(sqlite3_column_bytes(stmt_.get(), column))};
}

std::string_view statement::blob_view_at(int column) const {
  const auto* bytes = static_cast<const char*>(sqlite3_column_blob(stmt_.get(), column));
  if (bytes == nullptr) return {};
  return {bytes, static_cast<std::size_t>(sqlite3_column_bytes(stmt_.get(), column))};
}

bool statement::is_blob_at(int column) const { return sqlite3_column_type(stmt_.get(), column) == SQLITE_BLOB; }

bool statement::is_null_at(int column) const { return sqlite3_column_type(stmt_.get(), column) == SQLITE_NULL; }

void connection::closer::operator()(sqlite3* raw) const noexcept {
  // Statements are owned elsewhere and finalized first; close_v2 still defers safely if one leaks.
  sqlite3_close_v2(raw);
}

void configure_sqlite_process() noexcept {
  // SQLite's allocation statistics take a global mutex on every malloc and free it makes (Debian's
  // build has no lookaside, so that is every row touched) and nothing here reads them.
  static const int memstatus_off = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
  (void)memstatus_off;
}

result<connection> connection::open(const std::string& path, int flags, const char* vfs) {
  configure_sqlite_process();
  sqlite3* raw = nullptr;
  const int rc = sqlite3_open_v2(path.c_str(), &raw, flags | SQLITE_OPEN_NOMUTEX, vfs);
  connection conn;
  conn.db_.reset(raw);  // owned even on failure: SQLite allocates a handle to carry the message
  conn.path_ = path;
  if (rc != SQLITE_OK) {
    const char* message = raw != nullptr ? sqlite3_errmsg(raw) : sqlite3_errstr(rc);
    return make_error(errc_from_sqlite(rc), "cannot open database " + path + ": " + message);
  }
  sqlite3_extended_result_codes(raw, 1);
  // Every connection Parley opens reads the log's payloads, whose view and indexes call the first;
  // the records' ids, which every statement on the records reads and writes through the second
  // (record_id.hpp); and the trigram indexes, whose searches test their candidates with the third
  // (trigram_text.hpp).
  for (const int registered :
       {register_payload_function(raw), register_record_id_functions(raw), register_trigram_functions(raw)}) {
    if (registered != SQLITE_OK) {
      return make_error(errc_from_sqlite(registered),
                        "cannot open database " + path + ": " + sqlite3_errstr(registered));
    }
  }
  // Readers and the writer share the file; a short wait beats failing on a checkpoint's brief lock.
  sqlite3_busy_timeout(raw, 5000);
  return conn;
}

result<connection> connection::open_read_write(const std::string& path) {
  return open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
}

result<connection> connection::open_durable_writer(const std::string& path) {
  return open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, wal_batching_vfs_name());
}

result<connection> connection::open_read_only(const std::string& path) { return open(path, SQLITE_OPEN_READONLY); }

result<void> prepare_into(connection& db, statement& out, std::string_view sql) {
  auto prepared = db.prepare(sql);
  if (!prepared) return std::move(prepared).err();
  out = std::move(*prepared);
  return ok();
}

void connection::keep_wal_on_close() noexcept {
  sqlite3_db_config(db_.get(), SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
}

result<void> connection::exec(const char* sql) {
  char* message = nullptr;
  const int rc = sqlite3_exec(db_.get(), sql, nullptr, nullptr, &message);
  if (rc == SQLITE_OK) return ok();
  std::string text = message != nullptr ? message : sqlite3_errstr(rc);
  sqlite3_free(message);
  return make_error(errc_from_sqlite(rc), "sqlite: " + text + " (in " + std::string(sql) + ") on " + path_);
}

result<statement> connection::prepare(std::string_view sql, bool persistent) {
  sqlite3_stmt* raw = nullptr;
  const unsigned flags = persistent ? SQLITE_PREPARE_PERSISTENT : 0;
  const int rc = sqlite3_prepare_v3(db_.get(), sql.data(), static_cast<int>(sql.size()), flags, &raw, nullptr);
  statement stmt(raw);
  if (rc != SQLITE_OK) {
    return make_error(errc_from_sqlite(rc), "sqlite: " + std::string(sqlite3_errmsg(db_.get())) + " (preparing " +
                                                std::string(sql) + ") on " + path_);
  }
  return stmt;
}

error connection::last_error(std::string_view what) const {
  const int rc = sqlite3_extended_errcode(db_.get());
  return make_error(errc_from_sqlite(rc), std::string(what) + " " + path_ + ": " + sqlite3_errmsg(db_.get()));
}

bool connection::in_transaction() const noexcept { return sqlite3_get_autocommit(db_.get()) == 0; }

std::int64_t connection::last_insert_rowid() const noexcept { return sqlite3_last_insert_rowid(db_.get()); }

}  // namespace parley::sqlite
