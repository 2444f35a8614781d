#include "parley/store/sqlite/wal_batching_vfs.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <memory>
#include <new>
#include <string>

#include "parley/store/sqlite/sqlite_handle.hpp"

namespace parley::sqlite {
namespace {

constexpr std::size_t kFlushAtBytes = std::size_t{1} << 20;
// The default (unix) VFS writes at most 128 KiB - 1 bytes per call; it masks larger amounts.
constexpr std::size_t kMaxWriteBytes = std::size_t{120} << 10;

std::atomic<std::uint64_t> writes_passed_on{0};

// What SQLite allocates for a WAL opened through this VFS: this header, then the default VFS's
// file object. SQLite only ever sees `base`, which must come first.
struct wal_file {
  sqlite3_file base;
  sqlite3_file* real = nullptr;
  std::string pending;  // bytes written by SQLite and not yet passed on
  sqlite3_int64 pending_offset = 0;
};

constexpr std::size_t kHeaderBytes =
    (sizeof(wal_file) + alignof(std::max_align_t) - 1) & ~(alignof(std::max_align_t) - 1);

sqlite3_vfs* default_vfs = nullptr;

wal_file& as_wal(sqlite3_file* file) { return *reinterpret_cast<wal_file*>(file); }
sqlite3_file* real_of(sqlite3_file* file) { return as_wal(file).real; }

int pass_on(wal_file& f) {
  int rc = SQLITE_OK;
  for (std::size_t done = 0; done < f.pending.size() && rc == SQLITE_OK; done += kMaxWriteBytes) {
    const std::size_t amount = std::min(kMaxWriteBytes, f.pending.size() - done);
    rc = f.real->pMethods->xWrite(f.real, f.pending.data() + done, static_cast<int>(amount),
                                  f.pending_offset + static_cast<sqlite3_int64>(done));
    writes_passed_on.fetch_add(1, std::memory_order_relaxed);
  }
  // Dropped even on failure: SQLite fails the transaction, and the bytes must not reach the file
  // later behind frames it writes in its place.
  f.pending.clear();
  return rc;
}

int wal_write(sqlite3_file* file, const void* data, int amount, sqlite3_int64 offset) {
  wal_file& f = as_wal(file);
  const bool appends = !f.pending.empty() && offset == f.pending_offset + static_cast<sqlite3_int64>(f.pending.size());
  if (!appends) {
    if (const int rc = pass_on(f); rc != SQLITE_OK) return rc;
    f.pending_offset = offset;
  }
  try {
    f.pending.append(static_cast<const char*>(data), static_cast<std::size_t>(amount));
  } catch (const std::bad_alloc&) {
    const int rc = pass_on(f);
    if (rc != SQLITE_OK) return rc;
    writes_passed_on.fetch_add(1, std::memory_order_relaxed);
    return f.real->pMethods->xWrite(f.real, data, amount, offset);
  }
  return f.pending.size() >= kFlushAtBytes ? pass_on(f) : SQLITE_OK;
}

int wal_close(sqlite3_file* file) {
  wal_file& f = as_wal(file);
  const int written = pass_on(f);
  const int closed = f.real->pMethods->xClose(f.real);
  std::destroy_at(&f);
  return written != SQLITE_OK ? written : closed;
}

int wal_read(sqlite3_file* file, void* out, int amount, sqlite3_int64 offset) {
  if (const int rc = pass_on(as_wal(file)); rc != SQLITE_OK) return rc;
  return real_of(file)->pMethods->xRead(real_of(file), out, amount, offset);
}

int wal_truncate(sqlite3_file* file, sqlite3_int64 size) {
  if (const int rc = pass_on(as_wal(file)); rc != SQLITE_OK) return rc;
  return real_of(file)->pMethods->xTruncate(real_of(file), size);
}

int wal_sync(sqlite3_file* file, int flags) {
  if (const int rc = pass_on(as_wal(file)); rc != SQLITE_OK) return rc;
  return real_of(file)->pMethods->xSync(real_of(file), flags);
}

int wal_file_size(sqlite3_file* file, sqlite3_int64* size) {
  if (const int rc = pass_on(as_wal(file)); rc != SQLITE_OK) return rc;
  return real_of(file)->pMethods->xFileSize(real_of(file), size);
}

int wal_file_control(sqlite3_file* file, int op, void* arg) {
  // Some controls size or map the file; none is frequent enough to be worth telling apart.
  if (const int rc = pass_on(as_wal(file)); rc != SQLITE_OK) return rc;
  return real_of(file)->pMethods->xFileControl(real_of(file), op, arg);
}

int wal_lock(sqlite3_file* file, int level) { return real_of(file)->pMethods->xLock(real_of(file), level); }
int wal_unlock(sqlite3_file* file, int level) { return real_of(file)->pMethods->xUnlock(real_of(file), level); }
int wal_check_reserved_lock(sqlite3_file* file, int* out) {
  return real_of(file)->pMethods->xCheckReservedLock(real_of(file), out);
}
int wal_sector_size(sqlite3_file* file) { return real_of(file)->pMethods->xSectorSize(real_of(file)); }
int wal_device_characteristics(sqlite3_file* file) {
  return real_of(file)->pMethods->xDeviceCharacteristics(real_of(file));
}

// Version 1 methods: SQLite maps and shares only the database file's memory, never the log's.
constexpr sqlite3_io_methods kWalMethods = {
    1,
    wal_close,
    wal_read,
    wal_write,
    wal_truncate,
    wal_sync,
    wal_file_size,
    wal_lock,
    wal_unlock,
    wal_check_reserved_lock,
    wal_file_control,
    wal_sector_size,
    wal_device_characteristics,
    nullptr,
    nullptr,
    nullptr,
    nullptr,
    nullptr,
    nullptr,
};

int batching_open(sqlite3_vfs* /*self*/, sqlite3_filename name, sqlite3_file* file, int flags, int* out_flags) {
  // Other files are the default VFS's own object, built in the space SQLite gave us (ours is larger).
  if ((flags & SQLITE_OPEN_WAL) == 0) return default_vfs->xOpen(default_vfs, name, file, flags, out_flags);
  wal_file* f = std::construct_at(reinterpret_cast<wal_file*>(file));
  f->real = reinterpret_cast<sqlite3_file*>(reinterpret_cast<char*>(file) + kHeaderBytes);
  const int rc = default_vfs->xOpen(default_vfs, name, f->real, flags, out_flags);
  if (rc != SQLITE_OK) {
    if (f->real->pMethods != nullptr) f->real->pMethods->xClose(f->real);
    std::destroy_at(f);
    file->pMethods = nullptr;
    return rc;
  }
  f->base.pMethods = &kWalMethods;
  return SQLITE_OK;
}

sqlite3_vfs* make_vfs() {
  configure_sqlite_process();  // the lookup below initializes SQLite
  default_vfs = sqlite3_vfs_find(nullptr);
  if (default_vfs == nullptr) return nullptr;
  // A copy of the default VFS, so every other method (and its pAppData) is the default's own.
  static sqlite3_vfs vfs = *default_vfs;
  vfs.pNext = nullptr;
  vfs.zName = "parley-wal-batching";
  vfs.szOsFile = static_cast<int>(kHeaderBytes) + default_vfs->szOsFile;
  vfs.xOpen = batching_open;
  if (sqlite3_vfs_register(&vfs, 0) != SQLITE_OK) return nullptr;
  return &vfs;
}

}  // namespace

const char* wal_batching_vfs_name() noexcept {
  static sqlite3_vfs* const vfs = make_vfs();
  return vfs != nullptr ? vfs->zName : nullptr;
}

std::uint64_t wal_batching_vfs_writes() noexcept { return writes_passed_on.load(std::memory_order_relaxed); }

}  // namespace parley::sqlite
