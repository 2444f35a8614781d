// Three processes: Parley, the supervisor it forks, and the server the supervisor forks and execs.
// The supervisor never execs, so after the fork it calls only async-signal-safe functions (Parley
// has other threads, whose locks it inherited held); everything it reads is prepared before the
// fork, and all signals stay blocked in it from before the fork, so no handler of Parley's runs.
#include "parley/tools/mcp/stdio_supervisor.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <utility>
#include <vector>

namespace parley::tools::mcp {
namespace {

namespace fs = std::filesystem;

class unique_fd {
 public:
  unique_fd() = default;
  explicit unique_fd(int fd) : fd_(fd) {}
  unique_fd(unique_fd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  unique_fd& operator=(unique_fd&&) = delete;
  ~unique_fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }

 private:
  int fd_ = -1;
};

struct pipe_ends {
  unique_fd read;
  unique_fd write;
};

// Everything the forked processes touch, made before the fork.
struct launch_plan {
  std::string program;  // the resolved path
  std::vector<char*> argv;
  std::vector<char*> envp;
  const char* cwd = nullptr;
  std::array<int, 4> child_fds{};  // the server's stdin, stdout, stderr; the report pipe's write end
  pid_t parent = -1;
  int max_fd = 1024;  // closed one by one where close_range is missing
};

void tell(int fd, std::int32_t kind, std::int32_t value) {
  const supervisor_report record{kind, value};
  while (::write(fd, &record, sizeof record) < 0 && errno == EINTR) {
  }
}

// fds 0, 1, 2 become the server's stdio and fd 3 the report pipe; everything else Parley has open
// (sockets, other servers' pipes) is closed, since the supervisor never execs and would hold them.
bool place_fds(const launch_plan& plan) {
  std::array<int, 4> moved{};
  for (std::size_t i = 0; i < moved.size(); ++i) {
    moved[i] = ::fcntl(plan.child_fds[i], F_DUPFD_CLOEXEC, 10);  // out of the way of 0..3
    if (moved[i] < 0) return false;
  }
  for (int i = 0; i < 4; ++i) {
    if (::dup2(moved[i], i) < 0) return false;
  }
  ::fcntl(3, F_SETFD, FD_CLOEXEC);  // the server does not get the report pipe
  if (::close_range(4, ~0U, 0) != 0) {
    for (int fd = 4; fd < plan.max_fd; ++fd) ::close(fd);
  }
  return true;
}

[[noreturn]] void run_server(const launch_plan& plan, int exec_fd) {
  if (plan.cwd != nullptr && ::chdir(plan.cwd) != 0) {
    tell(exec_fd, kCwdFailed, errno);
    ::_exit(127);
  }
  sigset_t none;
  ::sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  ::execve(plan.program.c_str(), plan.argv.data(), plan.envp.data());
  tell(exec_fd, kExecFailed, errno);
  ::_exit(127);
}

// All signals stay blocked here (the parent blocked them before the fork); SIGTERM and SIGCHLD are
// taken with sigwaitinfo. SIGTERM comes from PR_SET_PDEATHSIG when Parley dies.
[[noreturn]] void run_supervisor(const launch_plan& plan) {
  ::setpgid(0, 0);
  ::prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (::getppid() != plan.parent) ::_exit(1);  // Parley died before prctl: nothing was started
  if (!place_fds(plan)) ::_exit(1);
  struct sigaction defaults {};
  defaults.sa_handler = SIG_DFL;
  for (int sig = 1; sig < NSIG; ++sig) ::sigaction(sig, &defaults, nullptr);  // not Parley's handlers
  std::array<int, 2> exec_pipe{};
  if (::pipe2(exec_pipe.data(), O_CLOEXEC) != 0) {
    tell(3, kExecFailed, errno);
    ::_exit(1);
  }
  const pid_t server = ::_Fork();  // no atfork handlers: they are not async-signal-safe
  const int fork_error = errno;
  if (server == 0) {
    ::close(exec_pipe[0]);
    run_server(plan, exec_pipe[1]);
  }
  ::close(exec_pipe[1]);
  supervisor_report failed{kExecFailed, fork_error};
  ssize_t got = 0;
  while (server > 0 && (got = ::read(exec_pipe[0], &failed, sizeof failed)) < 0 && errno == EINTR) {
  }
  if (server < 0 || got == sizeof failed) {  // the exec closed the pipe unless it failed
    tell(3, failed.kind, failed.value);
    ::_exit(1);
  }
  for (int fd = 0; fd < 3; ++fd) ::close(fd);  // before Parley is told: the server alone holds its pipes
  tell(3, kServerStarted, server);
  sigset_t wake;
  ::sigemptyset(&wake);
  ::sigaddset(&wake, SIGTERM);
  ::sigaddset(&wake, SIGCHLD);
  for (;;) {
    const int sig = ::sigwaitinfo(&wake, nullptr);
    int status = 0;
    if (::waitpid(server, &status, WNOHANG) == server) {
      tell(3, kServerExited, status);
      ::kill(0, SIGKILL);  // whatever the server left running, and this process
    }
    if (sig == SIGTERM) ::kill(0, SIGKILL);
  }
}

result<pid_t> fork_supervisor(const launch_plan& plan) {
  sigset_t all;
  sigset_t old;
  ::sigfillset(&all);
  ::pthread_sigmask(SIG_SETMASK, &all, &old);  // no handler of Parley's may run in the child
  const pid_t pid = ::fork();
  if (pid == 0) run_supervisor(plan);
  const int fork_error = errno;
  ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
  if (pid < 0) return make_error(errc::io_error, std::string("cannot fork: ") + std::strerror(fork_error));
  ::setpgid(pid, pid);  // as the child does: whichever runs first, kill(-pid) reaches the group
  return pid;
}

// argv[0] on the server's PATH (Parley's when the environment has none), as an absolute path.
result<std::string> resolve_program(const stdio_command& command, const std::string& who) {
  const std::string& name = command.argv[0];
  if (name.find('/') != std::string::npos) return name;
  std::string path;
  for (const auto& entry : command.env) {
    if (entry.starts_with("PATH=")) path = entry.substr(5);
  }
  if (path.empty() && std::getenv("PATH") != nullptr) path = std::getenv("PATH");
  std::size_t start = path.empty() ? 1 : 0;  // no PATH at all: not the current folder
  while (start <= path.size()) {
    const std::size_t end = std::min(path.find(':', start), path.size());
    const fs::path dir = path.substr(start, end - start).empty() ? "." : path.substr(start, end - start);
    const fs::path candidate = fs::absolute(dir.is_relative() ? command.cwd / dir / name : dir / name);
    std::error_code ec;
    if (::access(candidate.c_str(), X_OK) == 0 && fs::is_regular_file(candidate, ec)) return candidate.string();
    start = end + 1;
  }
  return make_error(errc::not_found, who + ": program '" + name + "' not found on PATH");
}

result<pipe_ends> make_pipe(unique_fd pipe_ends::*parleys_end) {
  std::array<int, 2> fds{};
  if (::pipe2(fds.data(), O_CLOEXEC) != 0) {
    return make_error(errc::io_error, std::string("cannot make a pipe: ") + std::strerror(errno));
  }
  pipe_ends ends{unique_fd(fds[0]), unique_fd(fds[1])};
  ::fcntl((ends.*parleys_end).get(), F_SETFL, O_NONBLOCK);  // only Parley's end: the server's blocks
  return ends;
}

}  // namespace

result<supervised_server> start_supervised(const stdio_command& command, const std::string& who) {
  if (command.argv.empty() || command.argv[0].empty())
    return make_error(errc::invalid_argument, who + " has no command to run");
  auto program = resolve_program(command, who);
  if (!program) return std::move(program).err();
  auto to_server = make_pipe(&pipe_ends::write);
  auto from_server = make_pipe(&pipe_ends::read);
  auto server_errors = make_pipe(&pipe_ends::read);
  auto reports = make_pipe(&pipe_ends::read);
  for (auto* made : {&to_server, &from_server, &server_errors, &reports}) {
    if (!*made) return make_error(errc::io_error, who + ": " + made->err().message);
  }
  launch_plan plan;
  plan.program = std::move(*program);
  for (const auto& arg : command.argv) plan.argv.push_back(const_cast<char*>(arg.c_str()));
  plan.argv.push_back(nullptr);
  for (const auto& entry : command.env) plan.envp.push_back(const_cast<char*>(entry.c_str()));
  plan.envp.push_back(nullptr);
  if (!command.cwd.empty()) plan.cwd = command.cwd.c_str();
  plan.child_fds = {to_server->read.get(), from_server->write.get(), server_errors->write.get(), reports->write.get()};
  plan.parent = ::getpid();
  plan.max_fd = static_cast<int>(std::min<long>(::sysconf(_SC_OPEN_MAX), 65536));
  auto pid = fork_supervisor(plan);
  if (!pid) return make_error(errc::io_error, who + ": " + pid.err().message);
  return supervised_server{*pid, to_server->write.release(), from_server->read.release(), server_errors->read.release(),
                           reports->read.release()};
}

std::string describe_exit(int status) {
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    const char* name = ::sigabbrev_np(WTERMSIG(status));
    return "was killed by signal " + std::to_string(WTERMSIG(status)) + (name ? std::string(" (SIG") + name + ")" : "");
  }
  return "ended (wait status " + std::to_string(status) + ")";
}

}  // namespace parley::tools::mcp
