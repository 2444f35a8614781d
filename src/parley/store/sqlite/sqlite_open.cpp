// open_sqlite_store: checks the directory and any existing database before writing a byte, then
// sets up the writer (WAL, sync level, migrations) and the read connection.
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <system_error>
#include <thread>

#include "parley/store/bulk_load.hpp"
#include "parley/store/data_dir_lock.hpp"
#include "parley/store/sqlite/schema.hpp"
#include "parley/store/sqlite/sqlite_store.hpp"
#include "parley/store/sqlite/wal_size.hpp"

namespace parley {
namespace {

namespace fs = std::filesystem;
using sqlite::connection;

constexpr const char* kDatabaseFile = "parley.db";
// quick_check reports at most this many problems; the first few are enough to name the damage.
constexpr const char* kQuickCheck = "PRAGMA quick_check(5)";

result<void> prepare_directory(const std::string& dir) {
  if (dir.empty()) return make_error(errc::invalid_argument, "the store directory is empty");
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return make_error(errc::io_error, "cannot create store directory " + dir + ": " + ec.message());
  if (!fs::is_directory(dir, ec)) return make_error(errc::io_error, "store path " + dir + " is not a directory");
  // SQLite needs to create the -wal and -shm files beside the database, not only write the file.
  if (::access(dir.c_str(), W_OK | X_OK) != 0) {
    return make_error(errc::io_error, "store directory " + dir + " is not writable: " +
                                          std::error_code(errno, std::generic_category()).message());
  }
  return ok();
}

error corrupt_file(const std::string& path, const std::string& detail) {
  return make_error(errc::corrupt,
                    "database " + path + " failed its integrity check (" + detail + "); it was left untouched");
}

// A writer killed mid-transaction leaves a hot rollback journal (a store dies that way while its
// first open switches the new file to WAL) or a WAL whose index (the -shm file) must be rebuilt.
// SQLite lets only a read-write connection roll back or rebuild — a read-only one answers
// "attempt to write a readonly database" — so recovery comes before the read-only check. It is
// SQLite's own crash recovery (the rollback restores the file to its last commit); told not to
// checkpoint on close, the connection writes nothing else.
result<void> recover_after_crash(const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path + "-wal", ec) && !fs::exists(path + "-journal", ec)) return ok();
  auto db = connection::open_read_write(path);
  if (!db) return std::move(db).err();
  db->keep_wal_on_close();
  auto probe = db->prepare("SELECT count(*) FROM sqlite_master", false);
  if (!probe) return std::move(probe).err();
  auto stepped = probe->step();
  if (!stepped) return std::move(stepped).err();
  return ok();
}

// Every page of the file: the damage SQLite finds, or ok.
result<void> quick_check(connection& db, const std::string& path) {
  auto check = db.prepare(kQuickCheck, false);
  if (!check) {
    if (check.err().code == errc::corrupt) return corrupt_file(path, check.err().message);
    return std::move(check).err();
  }
  std::string problems;
  for (;;) {
    auto has_row = check->step();
    if (!has_row) {
      if (has_row.err().code == errc::corrupt) return corrupt_file(path, has_row.err().message);
      return std::move(has_row).err();
    }
    if (!*has_row) break;
    const std::string_view line = check->text_view_at(0);
    if (line == "ok") continue;
    if (!problems.empty()) problems += "; ";
    problems.append(line);
  }
  if (!problems.empty()) return corrupt_file(path, problems);
  return ok();
}

// Runs on a read-only connection so a damaged file (or one that is not a database at all) is
// refused without SQLite ever writing to it. Returns the schema version it found.
result<std::int64_t> check_readable(const std::string& path, std::int64_t full_check_max_bytes) {
  auto db = connection::open_read_only(path);
  if (!db) {
    if (db.err().code == errc::corrupt) return corrupt_file(path, db.err().message);
    return std::move(db).err();
  }
  std::error_code size_error;
  const auto bytes = fs::file_size(path, size_error);
  if (size_error || static_cast<std::int64_t>(bytes) <= full_check_max_bytes) PARLEY_TRY(quick_check(*db, path));

  // A healthy database that is not ours (tables, but no schema_version) is not ours to change.
  auto version = sqlite::read_schema_version(*db);
  if (!version) return std::move(version).err();
  if (*version > sqlite::latest_schema_version()) {
    return make_error(errc::conflict, "database " + path + " has schema version " + std::to_string(*version) +
                                          ", newer than this binary supports (" +
                                          std::to_string(sqlite::latest_schema_version()) + ")");
  }
  if (*version == 0) {
    auto tables = db->prepare("SELECT count(*) FROM sqlite_master", false);
    if (!tables) return std::move(tables).err();
    auto counted = tables->step();
    if (!counted) return std::move(counted).err();
    if (tables->int_at(0) != 0) {
      return make_error(errc::conflict, "database " + path + " is not a parley store (no schema_version table)");
    }
  }
  return *version;
}

// The crash recovery above (which only a file with a journal or WAL of ours beside it gets), then
// the read-only checks.
result<void> check_existing(const std::string& path, std::int64_t full_check_max_bytes) {
  if (auto recovered = recover_after_crash(path); !recovered) {
    if (recovered.err().code == errc::corrupt) return corrupt_file(path, recovered.err().message);
    return std::move(recovered).err();
  }
  auto version = check_readable(path, full_check_max_bytes);
  if (!version) return std::move(version).err();
  return ok();
}

result<void> configure_writer(connection& db, bool durable) {
  auto mode = db.prepare("PRAGMA journal_mode = WAL", false);
  if (!mode) return std::move(mode).err();
  auto stepped = mode->step();
  if (!stepped) return std::move(stepped).err();
  if (!*stepped || mode->text_view_at(0) != "wal") {
    return make_error(errc::io_error, "database " + db.path() + " cannot use write-ahead logging");
  }
  mode->reset();
  // FULL syncs the WAL on every commit, so a commit survives power loss; NORMAL may lose the last
  // commits (never consistency), acceptable only for throwaway runs.
  PARLEY_TRY(db.exec(durable ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL"));
  // Appends from many dialogs land all over the (dialog_id, seq) indexes; a 32 MiB page cache
  // (default: 2 MiB) keeps those pages in memory instead of re-reading them on every group. A bulk
  // load writes each page once and keeps SQLite's default (bulk_load.hpp).
  const std::string cache_size = "PRAGMA cache_size = -" + std::to_string(writer_page_cache_kib());
  PARLEY_TRY(db.exec(cache_size.c_str()));
  // Debian builds SQLite with secure_delete on: every replaced projection row has its old space
  // zeroed. Nothing here is secret from the file's owner (the log keeps every event anyway).
  PARLEY_TRY(db.exec("PRAGMA secure_delete = OFF"));
  // A statement inside a transaction that may need undoing on its own (an upsert, a trigger that
  // feeds the full-text index) keeps a statement journal; on disk that is a temporary file
  // created, written and deleted for each such statement. Its pages are few, memory is cheaper.
  return db.exec("PRAGMA temp_store = MEMORY");
}

result<std::int64_t> int_pragma(connection& db, const char* sql) {
  auto stmt = db.prepare(sql, false);
  if (!stmt) return std::move(stmt).err();
  auto stepped = stmt->step();
  if (!stepped) return std::move(stepped).err();
  return *stepped ? stmt->int_at(0) : 0;
}

// Checkpoints rewrite WAL pages into the database and fsync it; on a big store fewer, larger ones
// cost less per event than the default every 1,000 pages, and a small store keeps a small WAL
// (wal_size.hpp). Returns the WAL's size at a checkpoint, in bytes.
result<std::int64_t> scale_wal(connection& db) {
  auto pages = int_pragma(db, "PRAGMA page_count");
  if (!pages) return std::move(pages).err();
  auto page_size = int_pragma(db, "PRAGMA page_size");
  if (!page_size) return std::move(page_size).err();
  const std::int64_t wal_pages = sqlite::wal_pages_for(*pages);
  PARLEY_TRY(db.exec(("PRAGMA wal_autocheckpoint = " + std::to_string(wal_pages)).c_str()));
  return sqlite::wal_bytes_for(wal_pages, *page_size);
}

// Gives the WAL its full size before the first commit. A commit that grows the file makes its
// fdatasync also write the file system's metadata (size, new blocks); inside reserved space it
// writes only data. SQLite reads a WAL up to its last frame with a valid checksum, so the reserved
// zeros are never read as log. SQLite keeps no POSIX locks on the -wal file, so closing our
// descriptor releases none of its locks. Best effort: where fallocate is unsupported nothing
// changes (posix_fallocate would instead write the zeros on every open).
void reserve_wal(const connection& db, std::int64_t bytes) {
#ifdef __linux__
  const int fd = ::open((db.path() + "-wal").c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) return;
  (void)::fallocate(fd, 0, 0, bytes);
  ::close(fd);
#else
  (void)db;
  (void)bytes;
#endif
}

}  // namespace

result<std::unique_ptr<store>> open_sqlite_store(const std::string& dir, const sqlite_options& options) {
  PARLEY_TRY(prepare_directory(dir));
  // Before anything reads or writes the database: one writer per store.
  auto lock = data_dir_lock::acquire(dir, options.writer_command);
  if (!lock) return std::move(lock).err();
  const std::string path = (fs::path(dir) / kDatabaseFile).string();

  std::error_code ec;
  const bool exists = fs::exists(path, ec);
  if (ec) return make_error(errc::io_error, "cannot inspect " + path + ": " + ec.message());
  if (exists) {
    if (!fs::is_regular_file(path, ec)) return make_error(errc::io_error, path + " is not a regular file");
    PARLEY_TRY(check_existing(path, options.full_check_max_bytes));
  }

  auto db = options.durable ? connection::open_durable_writer(path) : connection::open_read_write(path);
  if (!db) return std::move(db).err();
  PARLEY_TRY(configure_writer(*db, options.durable));
  auto version_before = sqlite::read_schema_version(*db);
  if (!version_before) return std::move(version_before).err();
  PARLEY_TRY(sqlite::migrate(*db));
  auto wal_bytes = scale_wal(*db);
  if (!wal_bytes) return std::move(wal_bytes).err();
  if (options.durable) reserve_wal(*db, *wal_bytes);  // the WAL exists once migrate has written to the database

  auto reader = sqlite::sqlite_reader::open(path);
  if (!reader) return std::move(reader).err();
  auto records = sqlite::records_reader::open(path);
  if (!records) return std::move(records).err();
  auto writer = sqlite::sqlite_writer::start(std::move(*db), options);
  if (!writer) return std::move(writer).err();
  auto opened = std::make_unique<sqlite::sqlite_store>(std::move(*lock), std::move(*writer), std::move(*reader),
                                                       std::move(*records), path);
  // A log written before the records existed: derive them from it once, now.
  if (*version_before > 0 && *version_before < sqlite::records_schema_version()) {
    PARLEY_TRY(opened->rebuild_projections());
  }
  return std::unique_ptr<store>(std::move(opened));
}

namespace {

// A writer projects each commit of the log right after it (sqlite/projector.hpp), so a reader that
// opens in between would miss what the writer has just acknowledged — `parley show` of a dialog
// the running server has just created would say there is none. While a writer holds the store,
// a read-only open waits, briefly, for the projections to reach the log as it was when it looked.
// Past the bound (a writer that stalls) it reads what there is: still one consistent snapshot.
result<void> wait_for_projections(const std::string& path) {
  constexpr auto kBound = std::chrono::seconds(2);
  auto db = connection::open_read_only(path);
  if (!db) return std::move(db).err();
  auto last_logged = db->prepare("SELECT coalesce(max(id), 0) FROM event_log", false);
  if (!last_logged) return std::move(last_logged).err();
  auto logged = last_logged->step();
  if (!logged) return std::move(logged).err();
  const std::int64_t target = *logged ? last_logged->int_at(0) : 0;
  last_logged->reset();
  auto watermark = db->prepare("SELECT event_id FROM projected_through", false);
  if (!watermark) return std::move(watermark).err();
  const auto deadline = std::chrono::steady_clock::now() + kBound;
  for (;;) {
    auto found = watermark->step();
    if (!found) return std::move(found).err();
    const std::int64_t projected = *found ? watermark->int_at(0) : 0;
    watermark->reset();  // ends the read, so the next step sees the writer's later commits
    if (projected >= target || std::chrono::steady_clock::now() >= deadline) return ok();
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

}  // namespace

result<std::unique_ptr<store>> open_sqlite_store_read_only(const std::string& dir, const sqlite_options& options,
                                                           bool log_as_projected) {
  const std::string path = (fs::path(dir) / kDatabaseFile).string();
  std::error_code ec;
  if (!fs::exists(path, ec)) return make_error(errc::not_found, "no store at " + path);
  if (!fs::is_regular_file(path, ec)) return make_error(errc::io_error, path + " is not a regular file");
  // A rollback journal beside the file is a writer that died mid-transaction: only a writer may
  // roll it back (a WAL is read as it is, whoever wrote it).
  if (fs::exists(path + "-journal", ec)) {
    return make_error(errc::conflict, "database " + path +
                                          " was left mid-transaction by a process that died; a verb that writes "
                                          "(or `parley serve`) recovers it first");
  }
  auto version = check_readable(path, options.full_check_max_bytes);
  if (!version) return std::move(version).err();
  if (*version != sqlite::latest_schema_version()) {
    return make_error(errc::conflict, "database " + path + " has schema version " + std::to_string(*version) +
                                          " and this binary reads version " +
                                          std::to_string(sqlite::latest_schema_version()) +
                                          "; a verb that writes (or `parley serve`) migrates it first");
  }
  // (A lock file it cannot probe is no reason to refuse a read: it then reads what there is.)
  if (auto holder = data_dir_lock::holder(dir); holder && *holder) PARLEY_TRY(wait_for_projections(path));
  auto reader = sqlite::sqlite_reader::open(
      path, log_as_projected ? sqlite::reader_view::projected_snapshot : sqlite::reader_view::snapshot);
  if (!reader) return std::move(reader).err();
  auto records = sqlite::records_reader::open(path);
  if (!records) return std::move(records).err();
  return std::unique_ptr<store>(
      std::make_unique<sqlite::sqlite_store>(std::nullopt, nullptr, std::move(*reader), std::move(*records), path));
}

}  // namespace parley
