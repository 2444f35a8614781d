// Noticing that the database file was replaced, deleted or truncated under a running store — by a
// model's write_file, a careless `cp`, a restore. SQLite keeps writing to the file it opened, so
// such a store would go on acknowledging events that no later open can see. The writer checks
// once per commit group (one stat(2), no descriptor of our own: closing a second descriptor on the
// file would drop SQLite's POSIX locks) and refuses every later append once the file is not the
// one it opened.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>

#include "parley/core/result.hpp"

namespace parley::sqlite {

class file_identity {
 public:
  // The file at `path` as it is now, whose pages are `page_size` bytes.
  static result<file_identity> of(const std::string& path, std::int64_t page_size);

  // Ok while `path` names the file that was opened and its size is whole pages; else an
  // errc::io_error that names the file and what happened to it.
  result<void> check() const;
  // The path no longer names the opened file (deleted or replaced), as opposed to truncated.
  bool moved() const;
  // "/proc/PID/fd/N" for a descriptor of this process on the opened file (its last content,
  // while the process runs), or empty when there is none to be found.
  std::string open_copy() const;
  const std::string& path() const noexcept { return path_; }

 private:
  std::string path_;
  dev_t device_ = 0;
  ino_t inode_ = 0;
  std::int64_t page_size_ = 4096;
  std::int64_t min_size_ = 0;  // its size when opened
};

}  // namespace parley::sqlite
