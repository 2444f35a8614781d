// One writer per data directory (issue 36). The process that writes a store holds an exclusive lock
// on `<dir>/parley.lock` for as long as it has the store open; the file says who holds it (pid,
// command, and once it listens, the URL of its API). Every other process either reads the store
// read-only or, for a verb that writes, goes through that API.
//
// The lock is an open-file-description lock (fcntl F_OFD_SETLK): the kernel drops it when the
// holder exits, however it exits, so a lock is never stale — only the file's text can be, and a
// new holder rewrites it (saying whose lock it took over). Unlike flock(2), F_OFD_GETLK asks who
// holds it without taking it, so a reader that only looks never stands in a writer's way.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "parley/core/result.hpp"

namespace parley {

// What the lock file says about the process that holds (or held) the lock.
struct lock_holder {
  pid_t pid = 0;
  std::string command;  // "serve", "run", ...: what it is doing with the store
  std::string url;      // where its API listens, once it does (`parley serve`); else empty
};

class data_dir_lock {
 public:
  static constexpr const char* kFileName = "parley.lock";

  // Takes the lock of `dir` (which must exist) for `command`. Fails with errc::conflict naming the
  // holder when another process has it; with errc::io_error naming the file, its owner and the
  // reason when the file cannot be opened for writing (another user's, a read-only file system).
  static result<data_dir_lock> acquire(const std::filesystem::path& dir, std::string_view command);

  // Who holds the lock of `dir` now, without taking it: nullopt when nobody does (or there is no
  // lock file). Works on a read-only file system and on another user's lock file it can read.
  static result<std::optional<lock_holder>> holder(const std::filesystem::path& dir);

  data_dir_lock(data_dir_lock&& other) noexcept;
  data_dir_lock& operator=(data_dir_lock&& other) noexcept;
  data_dir_lock(const data_dir_lock&) = delete;
  data_dir_lock& operator=(const data_dir_lock&) = delete;
  // Empties the file (a clean exit leaves nothing that looks like a holder) and drops the lock.
  ~data_dir_lock();

  // Records the URL the holder's API listens on, for the CLI verbs that write through it.
  result<void> announce_url(std::string_view url);
  // The previous holder named in the file when the lock was taken: a process that ended without
  // emptying it (killed, crashed). nullopt after a clean exit.
  const std::optional<lock_holder>& took_over() const noexcept { return took_over_; }
  const std::filesystem::path& path() const noexcept { return path_; }

 private:
  data_dir_lock(int fd, std::filesystem::path path, std::string command);
  result<void> write_text();

  int fd_ = -1;
  std::filesystem::path path_;
  std::string command_;
  std::string url_;
  std::optional<lock_holder> took_over_;
};

// "pid 123 (parley serve at http://127.0.0.1:7878/)": how errors and notes name a holder.
std::string describe_holder(const lock_holder& holder);

}  // namespace parley
