#include "parley/store/sqlite/file_identity.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <system_error>

namespace parley::sqlite {
namespace {

std::string reason(int err) { return std::error_code(err, std::generic_category()).message(); }

}  // namespace

result<file_identity> file_identity::of(const std::string& path, std::int64_t page_size) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) {
    return make_error(errc::io_error, "cannot inspect " + path + ": " + reason(errno));
  }
  file_identity identity;
  identity.path_ = path;
  identity.device_ = info.st_dev;
  identity.inode_ = info.st_ino;
  identity.page_size_ = page_size > 0 ? page_size : 4096;
  identity.min_size_ = info.st_size;
  return identity;
}

result<void> file_identity::check() const {
  struct stat info {};
  std::string what;
  if (::stat(path_.c_str(), &info) != 0) {
    what = errno == ENOENT ? "was deleted" : "cannot be inspected (" + reason(errno) + ")";
  } else if (info.st_dev != device_ || info.st_ino != inode_) {
    what = "was replaced by another file";
  } else if (info.st_size < min_size_ || info.st_size % page_size_ != 0) {
    // SQLite sizes its file in whole pages and, without VACUUM (never run here), never shrinks it.
    what = "was truncated to " + std::to_string(info.st_size) + " bytes";
  } else {
    return ok();
  }
  return make_error(errc::io_error, "the store's database " + path_ + " " + what +
                                        " while the store had it open; nothing more is written to it");
}

bool file_identity::moved() const {
  struct stat info {};
  return ::stat(path_.c_str(), &info) != 0 || info.st_dev != device_ || info.st_ino != inode_;
}

std::string file_identity::open_copy() const {
  namespace fs = std::filesystem;
  std::error_code ec;
  for (fs::directory_iterator it("/proc/self/fd", ec), end; !ec && it != end; it.increment(ec)) {
    struct stat info {};
    if (::stat(it->path().c_str(), &info) != 0) continue;
    if (info.st_dev == device_ && info.st_ino == inode_) {
      return "/proc/" + std::to_string(::getpid()) + "/fd/" + it->path().filename().string();
    }
  }
  return {};
}

}  // namespace parley::sqlite
