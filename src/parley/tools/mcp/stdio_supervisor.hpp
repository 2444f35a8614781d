// Starting a stdio MCP server so that it cannot outlive Parley (used by stdio_transport only).
// Parley forks a supervisor that leads a process group of its own and has PR_SET_PDEATHSIG; the
// supervisor forks and execs the server, then waits. When Parley dies (the kernel sends it
// SIGTERM) or the server exits, it kills its whole group: the server and everything the server
// started (npx's node child, a shell's background job).
//
// The kernel sends the death signal when the *thread* that forked ends, so start_supervised must
// run on a thread that lives as long as the process: the engine's io thread does.
#pragma once

#include <cstdint>
#include <string>

#include "parley/core/result.hpp"
#include "parley/tools/mcp/stdio_transport.hpp"

namespace parley::tools::mcp {

// What the supervisor writes on the report pipe: first kServerStarted or why the server could not
// start, later kServerExited. Far below PIPE_BUF, so each record is written whole.
enum supervisor_report_kind : std::int32_t { kServerStarted = 1, kCwdFailed, kExecFailed, kServerExited };
struct supervisor_report {
  std::int32_t kind = 0;
  std::int32_t value = 0;  // the server's pid, an errno, or the server's wait status
};

// Parley's ends of the pipes (close-on-exec and non-blocking; the caller owns and closes them) and
// the supervisor's pid, which is also the group's id. The caller reaps the supervisor.
struct supervised_server {
  int pid = -1;
  int to_server = -1;      // the server's stdin
  int from_server = -1;    // its stdout
  int server_errors = -1;  // its stderr
  int reports = -1;        // the supervisor's records
};

// Errors begin with `who` (the server's name): argv[0] not found on PATH, no pipe, no fork. What
// fails in the child (a missing cwd, an exec error) comes as the first record on `reports`.
result<supervised_server> start_supervised(const stdio_command& command, const std::string& who);

// A wait status for a message: "exited with status 3", "was killed by signal 9 (SIGKILL)".
std::string describe_exit(int status);

}  // namespace parley::tools::mcp
