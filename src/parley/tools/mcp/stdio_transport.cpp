// The server runs under a supervisor (stdio_supervisor.hpp), which says on a report pipe whether
// the server started and later how it ended. Parley awaits the supervisor's exit through a pidfd,
// as process_runner does, so no SIGCHLD handler or waitpid(-1) is needed and the loop never blocks.
#include "parley/tools/mcp/stdio_transport.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <deque>
#include <memory>
#include <optional>
#include <utility>

#include "parley/core/terminal_text.hpp"
#include "parley/core/utf8.hpp"
#include "parley/tools/mcp/stdio_supervisor.hpp"

namespace parley::tools::mcp {
namespace {

namespace asio = boost::asio;
using descriptor = asio::posix::stream_descriptor;

constexpr std::size_t kStderrLines = 40;
constexpr std::size_t kStderrBytes = 8192;
constexpr std::size_t kReadChunk = 65536;
constexpr std::chrono::seconds kStderrEndWait{2};

// The last lines of the server's stderr, bounded by count and bytes, made safe to show.
class stderr_tail {
 public:
  void add(std::string_view bytes) {
    while (!bytes.empty()) {
      const auto newline = bytes.find('\n');
      const auto piece = bytes.substr(0, newline);
      if (partial_.size() < kStderrBytes) partial_.append(piece.substr(0, kStderrBytes - partial_.size()));
      if (newline == std::string_view::npos) return;
      keep(std::exchange(partial_, {}));
      bytes.remove_prefix(newline + 1);
    }
  }
  std::string text() const {
    std::string out;
    for (const auto& line : lines_) out += (out.empty() ? "" : "\n") + line;
    if (!partial_.empty()) out += (out.empty() ? "" : "\n") + safe(partial_);
    return out;
  }

 private:
  static std::string safe(std::string_view line) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    return terminal_safe(repair_utf8(line).text);
  }
  void keep(std::string_view line) {
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) return;
    lines_.push_back(safe(line));
    bytes_ += lines_.back().size();
    while (lines_.size() > 1 && (lines_.size() > kStderrLines || bytes_ > kStderrBytes)) {
      bytes_ -= lines_.front().size();
      lines_.pop_front();
    }
  }
  std::deque<std::string> lines_;
  std::size_t bytes_ = 0;
  std::string partial_;  // the line being written, at most kStderrBytes
};

bool is_blank(std::string_view line) { return line.find_first_not_of(" \t\r") == std::string_view::npos; }

// A write that turns a closed pipe into EPIPE without raising SIGPIPE in Parley. SIGPIPE stays
// blocked in the writing thread from its first write on (blocking and unblocking around every write
// was two system calls per MCP call, a fifth of a stdio call's cost: bench/README.md "MCP calls");
// one a write raised is taken at once, so none is left pending. Children do not inherit the block:
// the supervisor and process_runner set an empty mask before they exec.
ssize_t write_without_sigpipe(int fd, std::string_view bytes) {
  sigset_t pipe_only;
  ::sigemptyset(&pipe_only);
  ::sigaddset(&pipe_only, SIGPIPE);
  thread_local const bool blocked_here = [&pipe_only] {
    sigset_t old;
    ::pthread_sigmask(SIG_BLOCK, &pipe_only, &old);
    // Already blocked by the thread's owner: a pending SIGPIPE may be its own, so leave it alone.
    return ::sigismember(&old, SIGPIPE) == 0;
  }();
  const ssize_t n = ::write(fd, bytes.data(), bytes.size());
  const int write_error = errno;
  if (n < 0 && write_error == EPIPE && blocked_here) {
    const timespec now{};
    ::sigtimedwait(&pipe_only, nullptr, &now);
  }
  errno = write_error;
  return n;
}

}  // namespace

struct stdio_transport::state {
  state(asio::any_io_executor ex, std::string server_id, stdio_command cmd)
      : executor(ex),
        id(std::move(server_id)),
        command(std::move(cmd)),
        to_server(ex),
        from_server(ex),
        server_errors(ex),
        reports(ex),
        stderr_read(ex) {}
  asio::any_io_executor executor;
  std::string id;
  stdio_command command;
  descriptor to_server;
  descriptor from_server;
  descriptor server_errors;
  descriptor reports;
  pid_t pid = -1;
  bool opened = false;
  bool closed = false;
  bool reaped = false;
  std::optional<error> ended;  // once set, every send and receive returns it
  std::string input;           // read from stdout, not yet a whole line
  // Reads land here and are appended to `input`: growing `input` by a chunk per read would zero
  // 64 KiB for every answer, a measurable part of a small call's cost.
  std::unique_ptr<char[]> read_chunk = std::make_unique_for_overwrite<char[]>(kReadChunk);
  std::size_t scanned = 0;  // bytes of `input` known to hold no newline
  stderr_tail tail;
  bool stderr_ended = false;
  asio::steady_timer stderr_read;  // cancelled when stderr ends: exit_error waits on it

  std::string who() const { return "mcp server '" + id + "'"; }
  void kill_group() const {
    if (pid > 0 && !reaped) ::kill(-pid, SIGKILL);  // unreaped, the pid cannot be anyone else's
  }
  error end(errc code, const std::string& what) {
    if (!ended) ended = make_error(code, who() + " " + what);
    kill_group();
    return *ended;
  }
  error end_after(const boost::system::error_code& ec) {
    return closed ? end(errc::cancelled, "was closed") : end(errc::io_error, "failed: " + ec.message());
  }
  std::optional<std::string> take_line() {
    const auto newline = input.find('\n', scanned);
    if (newline == std::string::npos) {
      scanned = input.size();
      return std::nullopt;
    }
    std::string line = input.substr(0, newline);
    input.erase(0, newline + 1);
    scanned = 0;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return line;
  }
};

namespace {

using state_ptr = std::shared_ptr<stdio_transport::state>;

asio::awaitable<void> read_stderr(state_ptr s) {
  std::array<char, 8192> chunk{};
  for (;;) {
    auto [ec, n] = co_await s->server_errors.async_read_some(asio::buffer(chunk), asio::as_tuple(asio::use_awaitable));
    s->tail.add(std::string_view(chunk.data(), n));
    if (ec) break;
  }
  s->stderr_ended = true;
  s->stderr_read.cancel();
}

asio::awaitable<void> reap_when_it_exits(state_ptr s, int pidfd) {
  descriptor exit_watch(s->executor, pidfd);
  (void)co_await exit_watch.async_wait(descriptor::wait_read, asio::as_tuple(asio::use_awaitable));
  s->kill_group();  // a zombie now: its group id is still its own, so what it left goes with it
  int status = 0;
  while (::waitpid(s->pid, &status, 0) < 0 && errno == EINTR) {
  }
  s->reaped = true;
}

// Stdout ended: the supervisor's last report says how the server exited, and the end of its
// stderr why. The supervisor killed the server's group before it ended, so stderr ends at once
// unless a process that left the group holds it: that is waited for a moment only.
asio::awaitable<error> exit_error(state_ptr s) {
  supervisor_report last;
  auto [ec, n] =
      co_await asio::async_read(s->reports, asio::buffer(&last, sizeof last), asio::as_tuple(asio::use_awaitable));
  if (!s->stderr_ended) {
    s->stderr_read.expires_after(kStderrEndWait);
    (void)co_await s->stderr_read.async_wait(asio::as_tuple(asio::use_awaitable));
  }
  if (s->closed) co_return s->end(errc::cancelled, "was closed");
  const std::string how =
      !ec && last.kind == kServerExited ? describe_exit(last.value) : "stopped: its process group was killed";
  const std::string stderr_text = s->tail.text();
  co_return s->end(errc::io_error, how + (stderr_text.empty() ? "" : ": " + stderr_text));
}

result<void> start(const state_ptr& s) {
  auto started = start_supervised(s->command, s->who());
  if (!started) return std::move(started).err();
  s->pid = started->pid;
  boost::system::error_code unused;  // fails only on a descriptor already open, and these are new
  s->to_server.assign(started->to_server, unused);
  s->from_server.assign(started->from_server, unused);
  s->server_errors.assign(started->server_errors, unused);
  s->reports.assign(started->reports, unused);
  const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, s->pid, 0));
  if (pidfd < 0) {
    const int pidfd_error = errno;
    s->kill_group();
    while (::waitpid(s->pid, nullptr, 0) < 0 && errno == EINTR) {
    }
    s->reaped = true;
    return make_error(errc::io_error,
                      s->who() + ": cannot watch its process (pidfd_open: " + std::strerror(pidfd_error) + ")");
  }
  asio::co_spawn(s->executor, reap_when_it_exits(s, pidfd), asio::detached);
  asio::co_spawn(s->executor, read_stderr(s), asio::detached);
  return {};
}

}  // namespace

stdio_transport::stdio_transport(asio::any_io_executor executor, std::string server_id, stdio_command command)
    : state_(std::make_shared<state>(std::move(executor), std::move(server_id), std::move(command))) {}

stdio_transport::~stdio_transport() { close(); }

int stdio_transport::process_group() const { return state_->pid; }

asio::awaitable<result<void>> stdio_transport::open() {
  auto s = state_;
  if (s->opened || s->closed) co_return make_error(errc::conflict, s->who() + " was already started or closed");
  s->opened = true;
  if (auto started = start(s); !started) {
    s->ended = started.err();
    co_return std::move(started).err();
  }
  supervisor_report first;
  auto [ec, n] =
      co_await asio::async_read(s->reports, asio::buffer(&first, sizeof first), asio::as_tuple(asio::use_awaitable));
  if (!ec && first.kind == kServerStarted) co_return result<void>{};
  const std::string& name = s->command.argv[0];
  if (ec == asio::error::eof) co_return s->end(errc::io_error, "could not be started: its supervisor process ended");
  if (ec) co_return s->end_after(ec);
  if (first.kind == kCwdFailed) {
    co_return s->end(errc::not_found,
                     "cannot start in folder '" + s->command.cwd.string() + "': " + std::strerror(first.value));
  }
  if (first.value == ENOENT) co_return s->end(errc::not_found, "cannot start: program '" + name + "' not found");
  co_return s->end(errc::io_error, "cannot start program '" + name + "': " + std::strerror(first.value));
}

asio::awaitable<result<void>> stdio_transport::send(std::string message) {
  auto s = state_;
  if (s->closed) co_return make_error(errc::cancelled, s->who() + " was closed");
  if (s->ended) co_return *s->ended;
  if (!s->opened) co_return make_error(errc::conflict, s->who() + " was not started");
  if (message.find('\n') != std::string::npos)
    co_return make_error(errc::invalid_argument, "a message to " + s->who() + " holds a raw newline");
  message.push_back('\n');
  std::string_view rest = message;
  while (!rest.empty()) {
    if (s->closed) co_return make_error(errc::cancelled, s->who() + " was closed");
    const ssize_t n = write_without_sigpipe(s->to_server.native_handle(), rest);
    if (n >= 0) {
      rest.remove_prefix(static_cast<std::size_t>(n));
    } else if (errno == EAGAIN) {
      auto [ec] = co_await s->to_server.async_wait(descriptor::wait_write, asio::as_tuple(asio::use_awaitable));
      // Cancelled by the caller before a byte went out, the connection is intact; after, a partial
      // line is on the wire and the framing is lost.
      if (ec == asio::error::operation_aborted && !s->closed && rest.size() == message.size())
        co_return make_error(errc::cancelled, "sending to " + s->who() + " was cancelled");
      if (ec) co_return s->end_after(ec);
    } else if (errno == EPIPE) {
      co_return s->end(errc::io_error, "no longer reads its stdin (it closed it or exited)");
    } else if (errno != EINTR) {
      co_return s->end(errc::io_error, std::string("cannot be written to: ") + std::strerror(errno));
    }
  }
  co_return result<void>{};
}

asio::awaitable<result<std::string>> stdio_transport::receive() {
  auto s = state_;
  const std::size_t limit = s->command.max_message_bytes;
  for (;;) {
    if (s->closed) co_return make_error(errc::cancelled, s->who() + " was closed");
    if (s->ended) co_return *s->ended;
    if (!s->opened) co_return make_error(errc::conflict, s->who() + " was not started");
    if (auto line = s->take_line()) {
      if (line->size() > limit) break;
      if (is_blank(*line)) continue;
      co_return std::move(*line);
    }
    if (s->input.size() > limit) break;
    auto [ec, n] = co_await s->from_server.async_read_some(asio::buffer(s->read_chunk.get(), kReadChunk),
                                                           asio::as_tuple(asio::use_awaitable));
    s->input.append(s->read_chunk.get(), n);
    if (ec == asio::error::eof) co_return co_await exit_error(s);  // a partial last line is dropped
    if (ec == asio::error::operation_aborted && !s->closed)        // the caller's cancellation: nothing lost
      co_return make_error(errc::cancelled, "receiving from " + s->who() + " was cancelled");
    if (ec) co_return s->end_after(ec);
  }
  co_return s->end(errc::limit_exceeded, "sent a message longer than the limit of " + std::to_string(limit) + " bytes");
}

void stdio_transport::close() {
  state& s = *state_;
  if (s.closed) return;
  s.closed = true;
  s.kill_group();  // the supervisor, the server and all they started; the reaper collects the supervisor
  boost::system::error_code ignored;
  s.to_server.close(ignored);
  s.from_server.close(ignored);
  s.server_errors.close(ignored);
  s.reports.close(ignored);
  s.stderr_read.cancel();
}

}  // namespace parley::tools::mcp
