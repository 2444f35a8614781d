// How a shell tool turns a command line into a process: `/bin/sh -c` in the workspace (or a
// folder of it), with the runtime's secrets taken out of the environment and the call's
// idempotency key put in (PARLEY_IDEMPOTENCY_KEY), and — when the member's policy says
// bubblewrap — inside a sandbox: the system read-only, /tmp private, the workspace as the member's
// access rules allow (read-only for readonly_shell; shell_sandbox.hpp), `.minds/`, `.dialogs/` and
// Parley's data absent, and no network unless the policy allows it. The answer a tool gives for a
// finished run is made here too, so shell_cmd, readonly_shell and the benchmark say the same.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "parley/tools/process_runner.hpp"
#include "parley/tools/tool.hpp"

namespace parley::tools {

// What a command finds its call's idempotency key in (tool_context::idempotency_key): the same
// value whenever the same call is run again, on this process or on the one that took the tree over.
inline constexpr std::string_view kIdempotencyKeyVariable = "PARLEY_IDEMPOTENCY_KEY";

// Our environment less every variable whose name says it holds a secret (KEY, TOKEN, SECRET,
// PASSWORD, PASSWD, CREDENTIAL, AUTH, COOKIE, SESSION — any case) or that is marked secret.
std::vector<std::string> stripped_environment();
bool is_secret_variable(std::string_view name);
// Marks a variable secret whatever its name: the engine marks every provider's key variable
// (`api_key_env`, Dominds' apiKeyEnvVar, which a team may name as it likes) before it reads it, so
// no shell command is given a provider key. For the life of the process; "" is ignored.
void mark_secret_variable(std::string_view name);

// Where bwrap is, or "" when it is not installed.
std::string bubblewrap_program();

struct shell_run {
  std::string command;
  std::filesystem::path cwd;  // absolute, inside the workspace
  bool read_only = false;     // readonly_shell: the workspace mounted read-only in the sandbox
};

// The process request for `run` under the context's policy. Errors: the member's access rules
// cannot be held by a shell here (shell_confinement_problem), or the sandbox is configured but
// bwrap is not installed (the messages say so).
result<process_request> shell_request(const tool_context& ctx, const shell_run& run);

// "$ <command>\n[exit 0]\n<output>" with the output capped, non-UTF-8 bytes repaired (counted) and
// a timeout, a stop or a signal said; ok only for exit 0.
tool_outcome describe_run(std::string_view command, const process_outcome& ran, std::int64_t timeout_seconds);

// The policy in force: the context's, or the defaults.
const access::shell_policy& shell_policy_of(const tool_context& ctx);

}  // namespace parley::tools
