// What a member's shell tools may run (shell_cmd, readonly_shell, start_process): allow and deny
// patterns over each simple command of a command line, the limits of a run, and the sandbox.
// A command line is split on the shell's list and pipe operators (; && || | & and newlines), and
// every part must match an allow pattern (when any is given) and no deny pattern. A part that the
// split cannot see into — command substitution `$(...)` or backquotes — is refused while allow
// patterns are given, since it could run anything.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace parley::access {

enum class shell_sandbox { none, bubblewrap };

struct shell_policy {
  // Glob patterns over a simple command ("git *", "make", "npm run *"): `*` any run of characters,
  // `?` one; the whole command (trimmed) must match.
  std::vector<std::string> allow;
  std::vector<std::string> deny;
  std::int64_t timeout_seconds = 60;  // default per call; a call may ask for less or up to max
  std::int64_t max_timeout_seconds = 600;
  std::int64_t max_output_bytes = std::int64_t{64} * 1024;  // head and tail kept
  shell_sandbox sandbox = shell_sandbox::none;
  bool network = false;  // inside the sandbox only: allow the network
};

// The simple commands of `command_line`, trimmed, empty ones dropped. Quotes ('...', "...") and
// backslashes are honoured so an operator inside quotes does not split.
std::vector<std::string> simple_commands(std::string_view command_line);

// Why `command_line` may not run under `policy`, or "" when it may.
std::string shell_refusal(const shell_policy& policy, std::string_view command_line);

// `*` and `?` glob match of the whole text.
bool glob_matches(std::string_view pattern, std::string_view text);

}  // namespace parley::access
