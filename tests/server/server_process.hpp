// Runs the real `parley serve` binary for black-box tests.
//
//   server_process server({"--team", team_file, "--data", data_dir});
//   ASSERT_TRUE(server.started()) << server.output();
//   // talk to 127.0.0.1:server.port() ...
//   EXPECT_EQ(server.terminate(), 0);   // SIGTERM, then the exit status
//
// The server is always started on a free port (`--port 0` and `--host 127.0.0.1` are added unless
// the arguments name them); the port comes from the `parley: serving http://HOST:PORT/` line the
// server prints. stdout and stderr are captured together (output()). The environment variables
// that would make a demo team talk to a real model are removed, so tests stay offline. The
// destructor kills (SIGKILL) and reaps a server that is still running, so a failing test never
// leaves a process behind. Header-only; POSIX.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "support/child_process.hpp"

namespace parley::test {

class server_process {
 public:
  // `args` are the arguments after `serve`. Waits up to `start_timeout` for the serving line.
  explicit server_process(std::vector<std::string> args,
                          std::chrono::milliseconds start_timeout = std::chrono::seconds(60)) {
    if (!names(args, "--port")) args.insert(args.end(), {"--port", "0"});
    if (!names(args, "--host")) args.insert(args.end(), {"--host", "127.0.0.1"});
    start(args);
    if (pid_ > 0) wait_for_serving_line(start_timeout);
  }
  ~server_process() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      int status = 0;
      ::waitpid(pid_, &status, 0);
    }
    if (out_fd_ >= 0) ::close(out_fd_);
  }
  server_process(const server_process&) = delete;
  server_process& operator=(const server_process&) = delete;

  // True once the server printed its serving line (it listens from then on).
  bool started() const noexcept { return port_ != 0; }
  std::uint16_t port() const noexcept { return port_; }
  // The token from the serving line's `#token=...`, empty when the server needs none.
  const std::string& token() const noexcept { return token_; }
  // Everything the process printed so far (stdout and stderr interleaved).
  const std::string& output() {
    drain(std::chrono::milliseconds(0));
    return output_;
  }
  pid_t pid() const noexcept { return pid_; }

  // Sends `signal_number` (SIGTERM by default) and waits for the exit. Returns the exit status, or
  // -1 when the process died of a signal or did not exit within `timeout` (it is then killed).
  int terminate(int signal_number = SIGTERM, std::chrono::milliseconds timeout = std::chrono::seconds(30)) {
    if (pid_ <= 0) return -1;
    ::kill(pid_, signal_number);
    return exit_status_within(timeout);
  }

  // Waits for the process to exit by itself; same results as terminate().
  int exit_status_within(std::chrono::milliseconds timeout) {
    if (pid_ <= 0) return -1;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    int status = 0;
    for (;;) {
      drain(std::chrono::milliseconds(0));
      const pid_t done = ::waitpid(pid_, &status, WNOHANG);
      if (done == pid_) break;
      if (std::chrono::steady_clock::now() >= deadline) {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, &status, 0);
        pid_ = -1;
        return -1;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    pid_ = -1;
    drain(std::chrono::milliseconds(0));  // what it printed last
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

 private:
  static bool names(const std::vector<std::string>& args, const std::string& flag) {
    return std::any_of(args.begin(), args.end(),
                       [&](const std::string& arg) { return arg == flag || arg.rfind(flag + "=", 0) == 0; });
  }

  void start(const std::vector<std::string>& args) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) return;
    std::vector<std::string> argv_text{PARLEY_BINARY, "serve"};
    argv_text.insert(argv_text.end(), args.begin(), args.end());
    spawn_options options;
    options.output_fd = fds[1];
    options.unset_env = {"OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"};
    pid_ = spawn_program(argv_text, options);
    ::close(fds[1]);
    out_fd_ = fds[0];
  }

  // Reads what is available, waiting at most `wait` for the first bytes. False at end of output.
  bool drain(std::chrono::milliseconds wait) {
    if (out_fd_ < 0) return false;
    pollfd poller{out_fd_, POLLIN, 0};
    int timeout_ms = static_cast<int>(wait.count());
    for (;;) {
      if (::poll(&poller, 1, timeout_ms) <= 0) return true;
      char buffer[4096];
      const auto n = ::read(out_fd_, buffer, sizeof buffer);
      if (n <= 0) {
        ::close(out_fd_);
        out_fd_ = -1;
        return false;
      }
      output_.append(buffer, static_cast<std::size_t>(n));
      timeout_ms = 0;  // then take whatever else is already there
    }
  }

  void wait_for_serving_line(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    static const std::string kMarker = "parley: serving http://";
    while (std::chrono::steady_clock::now() < deadline) {
      const bool open = drain(std::chrono::milliseconds(50));
      const auto at = output_.find(kMarker);
      if (at != std::string::npos) {
        const auto end = output_.find('\n', at);
        if (end != std::string::npos) {
          parse_serving_line(output_.substr(at + kMarker.size(), end - at - kMarker.size()));
          return;
        }
      }
      if (!open) return;  // the process ended before it served
    }
  }

  // "127.0.0.1:41163/#token=abc" → port 41163, token abc.
  void parse_serving_line(const std::string& rest) {
    const auto slash = rest.find('/');
    const auto host_port = rest.substr(0, slash);
    const auto colon = host_port.rfind(':');
    if (colon == std::string::npos) return;
    port_ = static_cast<std::uint16_t>(std::strtoul(host_port.c_str() + colon + 1, nullptr, 10));
    const auto token_at = rest.find("#token=");
    if (token_at != std::string::npos) token_ = rest.substr(token_at + 7);
  }

  pid_t pid_ = -1;
  int out_fd_ = -1;
  std::uint16_t port_ = 0;
  std::string token_;
  std::string output_;
};

}  // namespace parley::test
