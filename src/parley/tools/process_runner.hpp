// Runs one program as a child process without a shell: posix_spawnp with an argv, stdin from
// /dev/null, stdout and stderr into one pipe read asynchronously on the caller's executor, in a
// process group of its own so a timeout or a stop kills it and everything it started. Output is
// capped: the first and the last half of the cap are kept and the bytes cut in between counted,
// so a flood costs bounded memory and the model still sees how a command began and ended.
// Shared by ripgrep search and shell_cmd; never throws.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/cancellation_signal.hpp>

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "parley/core/result.hpp"

namespace parley::tools {

struct process_request {
  std::vector<std::string> argv;  // argv[0] is looked up on PATH when it has no '/'
  std::filesystem::path cwd;
  std::optional<std::vector<std::string>> env;  // "NAME=value" entries; nullopt: inherit ours
  std::chrono::milliseconds timeout{30000};
  std::size_t output_cap = std::size_t{64} * 1024;  // bytes kept of stdout+stderr (head + tail)
  // spawn_process only: stderr into a pipe of its own (spawned_process::error_fd), for a caller
  // that shows the two streams apart (Dominds' shell_cmd and get_daemon_output).
  bool separate_stderr = false;
};

struct process_outcome {
  int exit_code = -1;  // -1 when ended by a signal
  int signal = 0;      // the signal that ended it, or 0
  bool timed_out = false;
  bool cancelled = false;
  std::string head;               // the first bytes of the output
  std::string tail;               // the last bytes, when the output was larger than the cap
  std::size_t total_bytes = 0;    // everything it wrote
  std::size_t omitted_bytes = 0;  // cut between head and tail
  bool exited_ok() const noexcept { return exit_code == 0 && !timed_out && !cancelled; }
  // head, "[... N bytes cut ...]", tail: the raw bytes (may be invalid UTF-8).
  std::string joined() const;
};

// A started child: its pid (also its process group) and the read end of its output pipe, which
// the caller owns. Used by the background processes, which read their output over time.
struct spawned_process {
  int pid = -1;
  int output_fd = -1;
  int error_fd = -1;  // with separate_stderr; else stderr goes to output_fd
};
result<spawned_process> spawn_process(const process_request& request);

// Waits for a spawned process (the leader of its group) to exit without blocking the io_context
// (its pidfd turns readable), reaps it, and kills whatever it left running in its group: a
// background process or a daemon ends with nothing behind it. Returns waitpid's status.
boost::asio::awaitable<int> reap_process_group(int pid);

// Errors: errc::invalid_argument (empty argv), errc::io_error (the spawn itself failed, e.g. the
// program does not exist: the message names it). A program that runs and fails is a success
// with its exit code. `cancel`: emitting it kills the process group and reports cancelled.
boost::asio::awaitable<result<process_outcome>> run_process(process_request request,
                                                            boost::asio::cancellation_slot cancel = {});

}  // namespace parley::tools
