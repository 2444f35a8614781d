// backup_sqlite_store (store_backup.hpp): SQLite's online backup into a file beside the final
// name, a quick check of the copy, fsync, then rename.
#include "parley/store/store_backup.hpp"

#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <system_error>

#include "parley/store/sqlite/sqlite_handle.hpp"

namespace parley {
namespace {

namespace fs = std::filesystem;

constexpr const char* kStoreFile = "parley.db";
constexpr const char* kPartialSuffix = ".partial";

struct backup_deleter {
  void operator()(sqlite3_backup* raw) const noexcept { sqlite3_backup_finish(raw); }
};

error destination_error(const std::string& dest, const std::string& why) {
  return make_error(errc::io_error, "backup to " + dest + ": " + why + " (the store itself is untouched)");
}

// fsync of a file or directory by path, so the rename below publishes a copy that is on disk.
result<void> sync_path(const std::string& path, bool directory) {
  const int fd = ::open(path.c_str(), directory ? O_RDONLY | O_DIRECTORY : O_RDONLY);
  if (fd < 0) return make_error(errc::io_error, "cannot open " + path + " to sync it: " + std::strerror(errno));
  const int rc = ::fsync(fd);
  const int saved = errno;
  ::close(fd);
  if (rc != 0) return make_error(errc::io_error, "cannot sync " + path + ": " + std::strerror(saved));
  return ok();
}

// Copies every page of `source` into `target` under one read transaction of the source.
result<std::int64_t> copy_pages(sqlite::connection& source, sqlite::connection& target) {
  std::unique_ptr<sqlite3_backup, backup_deleter> backup(
      sqlite3_backup_init(target.get(), "main", source.get(), "main"));
  if (!backup) return make_error(errc::io_error, sqlite3_errmsg(target.get()));
  // One step of every page: stepping in pieces would restart whenever the server commits between
  // them, and a busy server would keep the copy from ever finishing.
  const int rc = sqlite3_backup_step(backup.get(), -1);
  const std::int64_t pages = sqlite3_backup_pagecount(backup.get());
  backup.reset();
  if (rc != SQLITE_DONE) {
    return make_error(errc::io_error, std::string(sqlite3_errstr(rc)) + ": " + sqlite3_errmsg(target.get()));
  }
  return pages;
}

result<void> check_copy(sqlite::connection& copy) {
  auto check = copy.prepare("PRAGMA quick_check", false);
  if (!check) return std::move(check).err();
  auto row = check->step();
  if (!row) return std::move(row).err();
  if (!*row || check->text_at(0) != "ok") {
    return make_error(errc::io_error,
                      "the copy failed SQLite's check: " + (*row ? check->text_at(0) : std::string("no answer")));
  }
  return ok();
}

}  // namespace

result<backup_summary> backup_sqlite_store(const std::string& data_dir, const std::string& dest_dir) {
  const fs::path source_path = fs::path(data_dir) / kStoreFile;
  std::error_code ec;
  if (!fs::is_regular_file(source_path, ec)) {
    return make_error(errc::not_found, "backup: no store at " + source_path.string());
  }
  fs::create_directories(dest_dir, ec);
  if (ec) return destination_error(dest_dir, "cannot create the directory: " + ec.message());
  if (fs::equivalent(dest_dir, data_dir, ec)) {
    return destination_error(dest_dir, "it is the data directory itself; give another directory");
  }
  const fs::path target_path = fs::path(dest_dir) / kStoreFile;
  if (fs::exists(target_path, ec)) {
    return destination_error(dest_dir, "it already holds a store (" + target_path.string() +
                                           "); a backup never overwrites one — give an empty directory");
  }
  const std::string partial = target_path.string() + kPartialSuffix;
  fs::remove(partial, ec);  // a copy an earlier backup did not finish

  auto attempt = [&]() -> result<backup_summary> {
    auto source = sqlite::connection::open_read_only(source_path.string());
    if (!source) return make_error(source.err().code, "backup: reading the store: " + source.err().message);
    auto target = sqlite::connection::open_read_write(partial);
    if (!target) return destination_error(dest_dir, target.err().message);
    auto pages = copy_pages(*source, *target);
    if (!pages) return destination_error(dest_dir, pages.err().message);
    if (auto checked = check_copy(*target); !checked) return destination_error(dest_dir, checked.err().message);
    // The copy keeps the store's WAL mode; fold anything SQLite left in its WAL into the file.
    if (auto folded = target->exec("PRAGMA wal_checkpoint(TRUNCATE)"); !folded) {
      return destination_error(dest_dir, folded.err().message);
    }
    return backup_summary{target_path.string(), *pages, 0};
  };
  auto done = attempt();
  if (done) {
    if (auto synced = sync_path(partial, false); !synced) done = destination_error(dest_dir, synced.err().message);
  }
  if (done) {
    fs::rename(partial, target_path, ec);
    if (ec) done = destination_error(dest_dir, "cannot rename the finished copy into place: " + ec.message());
  }
  if (!done) {
    fs::remove(partial, ec);
    fs::remove(partial + "-wal", ec);
    fs::remove(partial + "-shm", ec);
    return done;
  }
  (void)sync_path(dest_dir, true);
  done->bytes = static_cast<std::int64_t>(fs::file_size(target_path, ec));
  return done;
}

}  // namespace parley
