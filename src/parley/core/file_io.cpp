#include "parley/core/file_io.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>

#include <fcntl.h>
#include <unistd.h>

#include "parley/core/ids.hpp"

namespace parley {
namespace {

namespace fs = std::filesystem;

// Closes a POSIX file descriptor when it goes out of scope.
class file_descriptor {
 public:
  explicit file_descriptor(int fd) : fd_(fd) {}
  ~file_descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  file_descriptor(const file_descriptor&) = delete;
  file_descriptor& operator=(const file_descriptor&) = delete;
  explicit operator bool() const { return fd_ >= 0; }
  int get() const { return fd_; }

 private:
  int fd_;
};

error io_failure(std::string_view what) {
  return make_error(errc::io_error, std::string(what) + ": " + std::strerror(errno));
}

}  // namespace

result<file_text> read_file_prefix(const fs::path& file, std::uintmax_t max_bytes) {
  std::error_code ec;
  file_text out;
  out.size = fs::file_size(file, ec);
  if (ec) return make_error(errc::io_error, "cannot read it: " + ec.message());
  std::ifstream in(file, std::ios::binary);
  if (!in) return io_failure("cannot open it");
  out.bytes.resize(static_cast<std::size_t>(std::min(out.size, max_bytes)));
  in.read(out.bytes.data(), static_cast<std::streamsize>(out.bytes.size()));
  // The file may have shrunk since file_size: keep what was there.
  out.bytes.resize(static_cast<std::size_t>(in.gcount()));
  if (in.bad()) return io_failure("cannot read it");
  return out;
}

result<staged_file> stage_file(const fs::path& file, std::string_view content) {
  staged_file staged{file, file.parent_path() / ("." + file.filename().string() + ".parley-" + new_uuid() + ".tmp")};
  const fs::path& temp = staged.temp;
  auto discard_temp = [&temp] {
    std::error_code ignored;
    fs::remove(temp, ignored);
  };
  {
    file_descriptor out(::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
    if (!out) return io_failure("cannot create a temporary file beside it");
    for (std::size_t written = 0; written < content.size();) {
      const ssize_t n = ::write(out.get(), content.data() + written, content.size() - written);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        const error failure = io_failure("cannot write it");
        discard_temp();
        return failure;
      }
      written += static_cast<std::size_t>(n);
    }
    // The content is on disk before the rename makes it visible, so a crash leaves the old file
    // or the new one, never an empty one.
    if (::fsync(out.get()) != 0) {
      const error failure = io_failure("cannot flush it to disk");
      discard_temp();
      return failure;
    }
  }
  std::error_code ec;
  if (const auto existing = fs::status(file, ec); !ec && fs::exists(existing)) {
    fs::permissions(temp, existing.permissions(), ec);  // best effort: the content matters more
  }
  return staged;
}

void discard_staged(const staged_file& staged) {
  std::error_code ignored;
  fs::remove(staged.temp, ignored);
}

result<void> commit_staged(const staged_file& staged) {
  std::error_code ec;
  fs::rename(staged.temp, staged.file, ec);
  if (ec) {
    discard_staged(staged);
    return make_error(errc::io_error, "cannot replace it: " + ec.message());
  }
  // The rename itself is durable once the folder is flushed.
  const fs::path folder = staged.file.parent_path().empty() ? fs::path(".") : staged.file.parent_path();
  if (file_descriptor dir(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)); dir) {
    (void)::fsync(dir.get());
  }
  return ok();
}

result<void> write_file_atomically(const fs::path& file, std::string_view content) {
  auto staged = stage_file(file, content);
  if (!staged) return std::move(staged).err();
  return commit_staged(*staged);
}

}  // namespace parley
