#include "parley/store/data_dir_lock.hpp"

#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <charconv>
#include <string>
#include <system_error>

namespace parley {
namespace {

namespace fs = std::filesystem;

// The file holds a few short lines; anything longer was not written by a holder.
constexpr std::size_t kMaxLockText = 4096;

std::string system_reason(int code) { return std::error_code(code, std::generic_category()).message(); }

// A value from the file (another process wrote it) is kept only when it is plain printable ASCII,
// so that it can be shown on a terminal and used as a URL as it is.
bool plain_value(std::string_view value) {
  if (value.empty() || value.size() > 512) return false;
  for (const char c : value) {
    if (c <= ' ' || c > '~') return false;
  }
  return true;
}

// Reads `pid=`, `command=` and `url=` lines; unknown or malformed lines are ignored. nullopt when
// no valid pid is named (an empty file: the last holder exited cleanly).
std::optional<lock_holder> parse_holder(std::string_view text) {
  lock_holder holder;
  while (!text.empty()) {
    const auto end = text.find('\n');
    const std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    const auto eq = line.find('=');
    if (eq == std::string_view::npos) continue;
    const std::string_view key = line.substr(0, eq);
    const std::string_view value = line.substr(eq + 1);
    if (!plain_value(value)) continue;
    if (key == "pid") {
      pid_t pid = 0;
      const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), pid);
      if (ec == std::errc{} && ptr == value.data() + value.size() && pid > 0) holder.pid = pid;
    } else if (key == "command") {
      holder.command = value;
    } else if (key == "url" && (value.starts_with("http://") || value.starts_with("https://"))) {
      holder.url = value;
    }
  }
  if (holder.pid <= 0) return std::nullopt;
  return holder;
}

result<std::string> read_text(int fd, const fs::path& path) {
  std::array<char, kMaxLockText> buffer{};
  const ssize_t got = ::pread(fd, buffer.data(), buffer.size(), 0);
  if (got < 0) return make_error(errc::io_error, "cannot read " + path.string() + ": " + system_reason(errno));
  return std::string(buffer.data(), static_cast<std::size_t>(got));
}

std::string owner_of(const fs::path& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return "an unknown user";
  if (const passwd* entry = ::getpwuid(info.st_uid); entry != nullptr && plain_value(entry->pw_name)) {
    return "user " + std::string(entry->pw_name) + " (uid " + std::to_string(info.st_uid) + ")";
  }
  return "uid " + std::to_string(info.st_uid);
}

// Whether another open file description holds a lock on the file: l_type is F_UNLCK when not.
result<bool> locked_by_another(int fd, const fs::path& path) {
  struct flock probe {};
  probe.l_type = F_WRLCK;
  probe.l_whence = SEEK_SET;
  if (::fcntl(fd, F_OFD_GETLK, &probe) != 0) {
    return make_error(errc::io_error, "cannot query the lock " + path.string() + ": " + system_reason(errno));
  }
  return probe.l_type != F_UNLCK;
}

error held_by(const fs::path& dir, const std::optional<lock_holder>& holder) {
  const std::string who = holder ? describe_holder(*holder) : "another process (starting: it has not said which yet)";
  return make_error(errc::conflict, "the data directory " + dir.string() + " is in use by " + who +
                                        ": one process writes a store at a time");
}

}  // namespace

std::string describe_holder(const lock_holder& holder) {
  std::string text = "pid " + std::to_string(holder.pid);
  if (!holder.command.empty()) {
    text += " (parley " + holder.command;
    if (!holder.url.empty()) text += " at " + holder.url;
    text += ")";
  }
  return text;
}

data_dir_lock::data_dir_lock(int fd, fs::path path, std::string command)
    : fd_(fd), path_(std::move(path)), command_(std::move(command)) {}

data_dir_lock::data_dir_lock(data_dir_lock&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      path_(std::move(other.path_)),
      command_(std::move(other.command_)),
      url_(std::move(other.url_)),
      took_over_(std::move(other.took_over_)) {}

data_dir_lock& data_dir_lock::operator=(data_dir_lock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    path_ = std::move(other.path_);
    command_ = std::move(other.command_);
    url_ = std::move(other.url_);
    took_over_ = std::move(other.took_over_);
  }
  return *this;
}

data_dir_lock::~data_dir_lock() {
  if (fd_ < 0) return;
  (void)::ftruncate(fd_, 0);
  ::close(fd_);  // drops the lock
}

result<data_dir_lock> data_dir_lock::acquire(const fs::path& dir, std::string_view command) {
  const fs::path path = dir / kFileName;
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) {
    const int code = errno;
    std::string why = "cannot open the lock " + path.string() + " for writing: " + system_reason(code);
    if (code == EACCES || code == EPERM) why += "; it belongs to " + owner_of(path);
    if (code == EROFS) why += "; the data directory is on a read-only file system (verbs that only read still work)";
    return make_error(errc::io_error, std::move(why));
  }
  struct flock whole {};
  whole.l_type = F_WRLCK;
  whole.l_whence = SEEK_SET;
  if (::fcntl(fd, F_OFD_SETLK, &whole) != 0) {
    // Not ours: read who has it and close, leaving the holder's file as it is.
    const int code = errno;
    auto text = read_text(fd, path);
    ::close(fd);
    if (code != EAGAIN && code != EACCES) {
      return make_error(errc::io_error, "cannot lock " + path.string() + ": " + system_reason(code));
    }
    if (!text) return std::move(text).err();
    return held_by(dir, parse_holder(*text));
  }
  data_dir_lock lock(fd, path, std::string(command));  // from here on it owns the descriptor
  auto previous = read_text(fd, path);
  if (!previous) return std::move(previous).err();
  lock.took_over_ = parse_holder(*previous);
  PARLEY_TRY(lock.write_text());
  return lock;
}

result<std::optional<lock_holder>> data_dir_lock::holder(const fs::path& dir) {
  const fs::path path = dir / kFileName;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) {
    // No lock file, or no data directory at all (a path through a file): nobody holds it; opening
    // the store says what is wrong with the path.
    if (errno == ENOENT || errno == ENOTDIR) return std::optional<lock_holder>{};
    return make_error(errc::io_error, "cannot read the lock " + path.string() + ": " + system_reason(errno) +
                                          (errno == EACCES ? "; it belongs to " + owner_of(path) : ""));
  }
  struct closer {
    int fd;
    ~closer() { ::close(fd); }
  } close_on_return{fd};
  auto locked = locked_by_another(fd, path);
  if (!locked) return std::move(locked).err();
  if (!*locked) return std::optional<lock_holder>{};
  auto text = read_text(fd, path);
  if (!text) return std::move(text).err();
  if (auto parsed = parse_holder(*text)) return std::optional<lock_holder>{std::move(*parsed)};
  // Locked, but the holder has not written its name yet.
  return std::optional<lock_holder>{lock_holder{}};
}

result<void> data_dir_lock::announce_url(std::string_view url) {
  url_ = url;
  return write_text();
}

result<void> data_dir_lock::write_text() {
  std::string text = "pid=" + std::to_string(::getpid()) + "\ncommand=" + command_ + "\n";
  if (!url_.empty()) text += "url=" + url_ + "\n";
  if (::ftruncate(fd_, 0) != 0 || ::pwrite(fd_, text.data(), text.size(), 0) != static_cast<ssize_t>(text.size())) {
    return make_error(errc::io_error, "cannot write " + path_.string() + ": " + system_reason(errno));
  }
  return ok();
}

}  // namespace parley
