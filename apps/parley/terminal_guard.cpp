#include "terminal_guard.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <string>

#include "parley/core/terminal_text.hpp"

namespace parley::cli {
namespace {

// One guarded stream: the descriptor it writes to and the escaper's state across writes.
struct guarded_stream {
  int fd;
  terminal_escaper escaper;
};

guarded_stream guarded_stdout{STDOUT_FILENO, {}};
guarded_stream guarded_stderr{STDERR_FILENO, {}};

bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t wrote = ::write(fd, bytes.data(), bytes.size());
    if (wrote < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    bytes.remove_prefix(static_cast<std::size_t>(wrote));
  }
  return true;
}

ssize_t write_guarded(void* cookie, const char* data, std::size_t size) {
  auto* stream = static_cast<guarded_stream*>(cookie);
  if (!write_all(stream->fd, stream->escaper.feed(std::string_view(data, size)))) return -1;
  return static_cast<ssize_t>(size);
}

int close_guarded(void* cookie) {
  auto* stream = static_cast<guarded_stream*>(cookie);
  return write_all(stream->fd, stream->escaper.finish()) ? 0 : -1;
}

FILE* open_guarded(guarded_stream& stream, int buffering) {
  cookie_io_functions_t functions{};
  functions.write = write_guarded;
  functions.close = close_guarded;
  FILE* file = ::fopencookie(&stream, "w", functions);
  if (file != nullptr) (void)std::setvbuf(file, nullptr, buffering, buffering == _IONBF ? 0 : BUFSIZ);
  return file;
}

}  // namespace

void guard_terminal_output() {
  // As the standard streams are: stdout line-buffered on a terminal (fully otherwise), stderr not
  // buffered, so what a verb prints appears when it did before.
  std::fflush(stdout);
  std::fflush(stderr);
  if (FILE* out = open_guarded(guarded_stdout, ::isatty(STDOUT_FILENO) != 0 ? _IOLBF : _IOFBF)) stdout = out;
  if (FILE* err = open_guarded(guarded_stderr, _IONBF)) stderr = err;
}

void write_terminal_control(std::string_view sequence) {
  std::fflush(stdout);
  (void)write_all(STDOUT_FILENO, sequence);
}

}  // namespace parley::cli
