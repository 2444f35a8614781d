// The child runs in its own process group (POSIX_SPAWN_SETPGROUP): killing -pid reaches whatever
// it started, so a timeout cannot leave a grandchild holding the pipe open. The exit is awaited
// through a pidfd, so the io_context never blocks in waitpid.
#include "parley/tools/process_runner.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <memory>

extern char** environ;

namespace parley::tools {
namespace {

namespace asio = boost::asio;

struct fd_closer {
  int fd = -1;
  ~fd_closer() {
    if (fd >= 0) ::close(fd);
  }
};

// The capped output: head kept whole, the tail as the last `cap - head_cap` bytes.
class capped_output {
 public:
  explicit capped_output(std::size_t cap) : head_cap_(cap / 2 + cap % 2), tail_cap_(cap / 2) {}
  void add(std::string_view bytes) {
    total_ += bytes.size();
    if (head_.size() < head_cap_) {
      const std::size_t take = std::min(bytes.size(), head_cap_ - head_.size());
      head_.append(bytes.substr(0, take));
      bytes.remove_prefix(take);
    }
    if (bytes.empty() || tail_cap_ == 0) return;
    tail_.append(bytes);
    if (tail_.size() > 2 * tail_cap_) tail_.erase(0, tail_.size() - tail_cap_);
  }
  void finish(process_outcome& out) {
    if (tail_.size() > tail_cap_) tail_.erase(0, tail_.size() - tail_cap_);
    out.total_bytes = total_;
    out.omitted_bytes = total_ - head_.size() - tail_.size();
    out.head = std::move(head_);
    out.tail = std::move(tail_);
  }

 private:
  std::size_t head_cap_;
  std::size_t tail_cap_;
  std::size_t total_ = 0;
  std::string head_;
  std::string tail_;
};

// Shared with the timer and cancellation handlers, which may run after the coroutine moved on.
struct run_state {
  pid_t pid = -1;
  bool exited = false;
  bool timed_out = false;
  bool cancelled = false;
  // While the output is read: a process that left its group (setsid) may hold the pipe open after
  // the kill, so the read is cancelled too.
  boost::asio::posix::stream_descriptor* output = nullptr;
  void kill_group() const {
    if (pid > 0 && !exited) ::kill(-pid, SIGKILL);
    if (output != nullptr) {
      boost::system::error_code ignored;
      output->cancel(ignored);
    }
  }
};

struct spawn_setup {
  posix_spawn_file_actions_t actions{};
  posix_spawnattr_t attr{};
  spawn_setup() {
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attr);
  }
  ~spawn_setup() {
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
  }
  spawn_setup(const spawn_setup&) = delete;
  spawn_setup& operator=(const spawn_setup&) = delete;
};

// The pipes' ends are O_CLOEXEC, so the child keeps only the dup2'ed copies.
result<pid_t> spawn(const process_request& request, int write_end, int error_write_end) {
  spawn_setup setup;
  posix_spawn_file_actions_addopen(&setup.actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&setup.actions, write_end, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&setup.actions, error_write_end, STDERR_FILENO);
  if (!request.cwd.empty()) posix_spawn_file_actions_addchdir_np(&setup.actions, request.cwd.c_str());
  sigset_t none;
  sigemptyset(&none);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  posix_spawnattr_setsigmask(&setup.attr, &none);
  posix_spawnattr_setsigdefault(&setup.attr, &defaults);
  posix_spawnattr_setpgroup(&setup.attr, 0);
  posix_spawnattr_setflags(&setup.attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

  std::vector<char*> argv;
  for (const auto& arg : request.argv) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  std::vector<char*> envp;
  if (request.env) {
    for (const auto& entry : *request.env) envp.push_back(const_cast<char*>(entry.c_str()));
    envp.push_back(nullptr);
  }
  pid_t pid = -1;
  const int rc =
      ::posix_spawnp(&pid, argv[0], &setup.actions, &setup.attr, argv.data(), request.env ? envp.data() : environ);
  if (rc != 0) {
    return make_error(errc::io_error, "cannot start '" + request.argv[0] + "': " + std::strerror(rc));
  }
  return pid;
}

}  // namespace

result<spawned_process> spawn_process(const process_request& request) {
  if (request.argv.empty() || request.argv[0].empty()) return make_error(errc::invalid_argument, "no program to run");
  std::array<int, 2> pipe_fds{-1, -1};
  if (::pipe2(pipe_fds.data(), O_CLOEXEC) != 0) {
    return make_error(errc::io_error, std::string("cannot make a pipe: ") + std::strerror(errno));
  }
  fd_closer write_end{pipe_fds[1]};
  fd_closer read_end{pipe_fds[0]};
  std::array<int, 2> error_fds{-1, -1};
  if (request.separate_stderr && ::pipe2(error_fds.data(), O_CLOEXEC) != 0) {
    return make_error(errc::io_error, std::string("cannot make a pipe: ") + std::strerror(errno));
  }
  fd_closer error_write_end{error_fds[1]};
  fd_closer error_read_end{error_fds[0]};
  auto pid = spawn(request, write_end.fd, request.separate_stderr ? error_write_end.fd : write_end.fd);
  if (!pid) return std::move(pid).err();
  return spawned_process{*pid, std::exchange(read_end.fd, -1), std::exchange(error_read_end.fd, -1)};
}

std::string process_outcome::joined() const {
  if (omitted_bytes == 0) return head + tail;
  return head + "\n[... " + std::to_string(omitted_bytes) + " bytes of output cut here ...]\n" + tail;
}

asio::awaitable<result<process_outcome>> run_process(process_request request, asio::cancellation_slot cancel) {
  if (request.argv.empty() || request.argv[0].empty())
    co_return make_error(errc::invalid_argument, "no program to run");
  auto spawned = spawn_process(request);
  if (!spawned) co_return std::move(spawned).err();
  const pid_t child = spawned->pid;
  fd_closer read_end{spawned->output_fd};

  auto executor = co_await asio::this_coro::executor;
  auto state = std::make_shared<run_state>();
  state->pid = child;
  asio::posix::stream_descriptor output(executor, std::exchange(read_end.fd, -1));
  state->output = &output;
  asio::steady_timer timer(executor, request.timeout);
  timer.async_wait([state](boost::system::error_code ec) {
    if (ec || state->exited) return;
    state->timed_out = true;
    state->kill_group();
  });
  if (cancel.is_connected()) {
    cancel.assign([state](asio::cancellation_type) {
      state->cancelled = true;
      state->kill_group();
    });
  }

  capped_output captured(request.output_cap);
  std::array<char, 16384> buffer{};
  for (;;) {
    auto [ec, n] = co_await output.async_read_some(asio::buffer(buffer), asio::as_tuple(asio::use_awaitable));
    if (n > 0) captured.add(std::string_view(buffer.data(), n));
    if (ec) break;  // eof: every writer (the child and anything it started) is gone or killed
  }
  state->output = nullptr;
  output.close();

  // Await the exit through a pidfd; fall back to a blocking waitpid where there is none.
  const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, child, 0));
  if (pidfd >= 0) {
    asio::posix::stream_descriptor exit_watch(executor, pidfd);
    (void)co_await exit_watch.async_wait(asio::posix::stream_descriptor::wait_read,
                                         asio::as_tuple(asio::use_awaitable));
  }
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  state->exited = true;
  ::kill(-child, SIGKILL);  // whatever it left running in its group goes with it
  timer.cancel();
  if (cancel.is_connected()) cancel.clear();

  process_outcome out;
  out.timed_out = state->timed_out;
  out.cancelled = state->cancelled;
  if (WIFEXITED(status)) out.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) out.signal = WTERMSIG(status);
  captured.finish(out);
  co_return out;
}

asio::awaitable<int> reap_process_group(int pid) {
  auto executor = co_await asio::this_coro::executor;
  const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  if (pidfd >= 0) {
    asio::posix::stream_descriptor exit_watch(executor, pidfd);
    (void)co_await exit_watch.async_wait(asio::posix::stream_descriptor::wait_read,
                                         asio::as_tuple(asio::use_awaitable));
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  ::kill(-pid, SIGKILL);
  co_return status;
}

}  // namespace parley::tools
