#include "fault_vfs.hpp"

#include <sqlite3.h>

#include <atomic>
#include <cstdlib>
#include <cstring>

namespace parley::testing {
namespace {

// Countdowns: 0 is off; 1 fails the next call (and turns itself off).
std::atomic<std::int64_t> write_countdown{0};
std::atomic<std::int64_t> sync_countdown{0};
std::atomic<std::int64_t> alloc_countdown{0};
std::atomic<std::int64_t> full_countdown{0};
std::atomic<bool> disk_full{false};
std::atomic<std::int64_t> injected{0};

bool fires(std::atomic<std::int64_t>& countdown) {
  std::int64_t current = countdown.load();
  while (current > 0) {
    if (countdown.compare_exchange_weak(current, current - 1)) {
      if (current == 1) {
        injected.fetch_add(1);
        return true;
      }
      return false;
    }
  }
  return false;
}

sqlite3_vfs* real_vfs = nullptr;
sqlite3_mem_methods real_memory{};

struct fault_file {
  sqlite3_file base;
  sqlite3_file* real;  // the default VFS's file, in the bytes right after this struct
};

sqlite3_file* real_of(sqlite3_file* file) { return reinterpret_cast<fault_file*>(file)->real; }

int file_close(sqlite3_file* file) { return real_of(file)->pMethods->xClose(real_of(file)); }
int file_read(sqlite3_file* file, void* buffer, int amount, sqlite3_int64 offset) {
  return real_of(file)->pMethods->xRead(real_of(file), buffer, amount, offset);
}
int file_write(sqlite3_file* file, const void* buffer, int amount, sqlite3_int64 offset) {
  sqlite3_file* real = real_of(file);
  if (fires(write_countdown)) return SQLITE_IOERR_WRITE;
  if (fires(full_countdown)) disk_full = true;
  if (disk_full.load()) {
    injected.fetch_add(1);
    return SQLITE_FULL;
  }
  return real->pMethods->xWrite(real, buffer, amount, offset);
}
int file_truncate(sqlite3_file* file, sqlite3_int64 size) {
  return real_of(file)->pMethods->xTruncate(real_of(file), size);
}
int file_sync(sqlite3_file* file, int flags) {
  if (fires(sync_countdown)) return SQLITE_IOERR_FSYNC;
  return real_of(file)->pMethods->xSync(real_of(file), flags);
}
int file_size(sqlite3_file* file, sqlite3_int64* size) {
  return real_of(file)->pMethods->xFileSize(real_of(file), size);
}
int file_lock(sqlite3_file* file, int level) { return real_of(file)->pMethods->xLock(real_of(file), level); }
int file_unlock(sqlite3_file* file, int level) { return real_of(file)->pMethods->xUnlock(real_of(file), level); }
int file_check_reserved(sqlite3_file* file, int* out) {
  return real_of(file)->pMethods->xCheckReservedLock(real_of(file), out);
}
int file_control(sqlite3_file* file, int op, void* arg) {
  return real_of(file)->pMethods->xFileControl(real_of(file), op, arg);
}
int file_sector_size(sqlite3_file* file) { return real_of(file)->pMethods->xSectorSize(real_of(file)); }
int file_device(sqlite3_file* file) { return real_of(file)->pMethods->xDeviceCharacteristics(real_of(file)); }
int file_shm_map(sqlite3_file* file, int region, int size, int extend, void volatile** out) {
  return real_of(file)->pMethods->xShmMap(real_of(file), region, size, extend, out);
}
int file_shm_lock(sqlite3_file* file, int offset, int n, int flags) {
  return real_of(file)->pMethods->xShmLock(real_of(file), offset, n, flags);
}
void file_shm_barrier(sqlite3_file* file) { real_of(file)->pMethods->xShmBarrier(real_of(file)); }
int file_shm_unmap(sqlite3_file* file, int delete_flag) {
  return real_of(file)->pMethods->xShmUnmap(real_of(file), delete_flag);
}
int file_fetch(sqlite3_file* file, sqlite3_int64 offset, int amount, void** out) {
  return real_of(file)->pMethods->xFetch(real_of(file), offset, amount, out);
}
int file_unfetch(sqlite3_file* file, sqlite3_int64 offset, void* page) {
  return real_of(file)->pMethods->xUnfetch(real_of(file), offset, page);
}

const sqlite3_io_methods fault_io_methods = {
    3,
    file_close,
    file_read,
    file_write,
    file_truncate,
    file_sync,
    file_size,
    file_lock,
    file_unlock,
    file_check_reserved,
    file_control,
    file_sector_size,
    file_device,
    file_shm_map,
    file_shm_lock,
    file_shm_barrier,
    file_shm_unmap,
    file_fetch,
    file_unfetch,
};

int vfs_open(sqlite3_vfs* /*vfs*/, sqlite3_filename name, sqlite3_file* file, int flags, int* out_flags) {
  auto* wrapper = reinterpret_cast<fault_file*>(file);
  wrapper->real = reinterpret_cast<sqlite3_file*>(wrapper + 1);
  std::memset(wrapper->real, 0, static_cast<std::size_t>(real_vfs->szOsFile));
  const int rc = real_vfs->xOpen(real_vfs, name, wrapper->real, flags, out_flags);
  // SQLite closes a file whose pMethods is set even when the open failed.
  file->pMethods = wrapper->real->pMethods != nullptr ? &fault_io_methods : nullptr;
  return rc;
}
int vfs_delete(sqlite3_vfs*, const char* name, int sync_dir) { return real_vfs->xDelete(real_vfs, name, sync_dir); }
int vfs_access(sqlite3_vfs*, const char* name, int flags, int* out) {
  return real_vfs->xAccess(real_vfs, name, flags, out);
}
int vfs_full_pathname(sqlite3_vfs*, const char* name, int n, char* out) {
  return real_vfs->xFullPathname(real_vfs, name, n, out);
}
void* vfs_dl_open(sqlite3_vfs*, const char* name) { return real_vfs->xDlOpen(real_vfs, name); }
void vfs_dl_error(sqlite3_vfs*, int n, char* out) { real_vfs->xDlError(real_vfs, n, out); }
void (*vfs_dl_sym(sqlite3_vfs*, void* handle, const char* symbol))(void) {
  return real_vfs->xDlSym(real_vfs, handle, symbol);
}
void vfs_dl_close(sqlite3_vfs*, void* handle) { real_vfs->xDlClose(real_vfs, handle); }
int vfs_randomness(sqlite3_vfs*, int n, char* out) { return real_vfs->xRandomness(real_vfs, n, out); }
int vfs_sleep(sqlite3_vfs*, int micros) { return real_vfs->xSleep(real_vfs, micros); }
int vfs_current_time(sqlite3_vfs*, double* out) { return real_vfs->xCurrentTime(real_vfs, out); }
int vfs_last_error(sqlite3_vfs*, int n, char* out) { return real_vfs->xGetLastError(real_vfs, n, out); }
int vfs_current_time_int64(sqlite3_vfs*, sqlite3_int64* out) { return real_vfs->xCurrentTimeInt64(real_vfs, out); }

sqlite3_vfs fault_vfs{};

void* memory_malloc(int size) {
  if (fires(alloc_countdown)) return nullptr;
  return real_memory.xMalloc(size);
}
void* memory_realloc(void* old, int size) {
  if (fires(alloc_countdown)) return nullptr;
  return real_memory.xRealloc(old, size);
}

// Runs before main: SQLite takes memory methods only before it starts.
struct installer {
  installer() {
    if (sqlite3_config(SQLITE_CONFIG_GETMALLOC, &real_memory) != SQLITE_OK) std::abort();
    sqlite3_mem_methods methods = real_memory;
    methods.xMalloc = memory_malloc;
    methods.xRealloc = memory_realloc;
    if (sqlite3_config(SQLITE_CONFIG_MALLOC, &methods) != SQLITE_OK) std::abort();
    if (sqlite3_initialize() != SQLITE_OK) std::abort();
    real_vfs = sqlite3_vfs_find(nullptr);
    if (real_vfs == nullptr) std::abort();
    fault_vfs.iVersion = 2;
    fault_vfs.szOsFile = static_cast<int>(sizeof(fault_file)) + real_vfs->szOsFile;
    fault_vfs.mxPathname = real_vfs->mxPathname;
    fault_vfs.zName = "parley-fault";
    fault_vfs.xOpen = vfs_open;
    fault_vfs.xDelete = vfs_delete;
    fault_vfs.xAccess = vfs_access;
    fault_vfs.xFullPathname = vfs_full_pathname;
    fault_vfs.xDlOpen = vfs_dl_open;
    fault_vfs.xDlError = vfs_dl_error;
    fault_vfs.xDlSym = vfs_dl_sym;
    fault_vfs.xDlClose = vfs_dl_close;
    fault_vfs.xRandomness = vfs_randomness;
    fault_vfs.xSleep = vfs_sleep;
    fault_vfs.xCurrentTime = vfs_current_time;
    fault_vfs.xGetLastError = vfs_last_error;
    fault_vfs.xCurrentTimeInt64 = vfs_current_time_int64;
    if (sqlite3_vfs_register(&fault_vfs, 1) != SQLITE_OK) std::abort();
  }
};
const installer install_before_main;

}  // namespace

void fail_write_after(std::int64_t n) { write_countdown = n; }
void fail_sync_after(std::int64_t n) { sync_countdown = n; }
void fail_allocation_after(std::int64_t n) { alloc_countdown = n; }
void fill_disk_after(std::int64_t n) { full_countdown = n; }
void clear_faults() {
  write_countdown = 0;
  sync_countdown = 0;
  alloc_countdown = 0;
  full_countdown = 0;
  disk_full = false;
}
std::int64_t injected_faults() { return injected.load(); }

}  // namespace parley::testing
