#include "parley/tools/shell_command.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <mutex>
#include <set>

#include "parley/core/utf8.hpp"
#include "parley/tools/shell_sandbox.hpp"
#include "parley/tools/workspace_access.hpp"

extern char** environ;

namespace parley::tools {
namespace {

std::string upper(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return out;
}

// The variables marked secret by name (mark_secret_variable); read by every shell command's start.
struct marked_secret_variables {
  std::mutex mutex;
  std::set<std::string, std::less<>> names;
};

marked_secret_variables& marked_secrets() {
  static marked_secret_variables marked;
  return marked;
}

}  // namespace

void mark_secret_variable(std::string_view name) {
  if (name.empty()) return;
  auto& marked = marked_secrets();
  const std::lock_guard lock(marked.mutex);
  marked.names.emplace(name);
}

bool is_secret_variable(std::string_view name) {
  {
    auto& marked = marked_secrets();
    const std::lock_guard lock(marked.mutex);
    if (marked.names.contains(name)) return true;
  }
  const std::string key = upper(name);
  for (const char* word : {"KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "AUTH", "COOKIE", "SESSION"}) {
    if (key.find(word) != std::string::npos) return true;
  }
  return false;
}

std::vector<std::string> stripped_environment() {
  std::vector<std::string> env;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string_view text(*entry);
    const auto eq = text.find('=');
    if (eq == std::string_view::npos || is_secret_variable(text.substr(0, eq))) continue;
    env.emplace_back(text);
  }
  return env;
}

std::string bubblewrap_program() {
  for (const char* candidate : {"/usr/bin/bwrap", "/usr/local/bin/bwrap", "/bin/bwrap"}) {
    if (::access(candidate, X_OK) == 0) return candidate;
  }
  return {};
}

const access::shell_policy& shell_policy_of(const tool_context& ctx) {
  static const access::shell_policy kDefaults;
  return ctx.shell != nullptr ? *ctx.shell : kDefaults;
}

result<process_request> shell_request(const tool_context& ctx, const shell_run& run) {
  const auto& policy = shell_policy_of(ctx);
  if (const std::string problem = shell_confinement_problem(rules_of(ctx), policy); !problem.empty()) {
    return make_error(errc::conflict, "refused: no shell for you: " + problem);
  }
  process_request request;
  request.cwd = run.cwd;
  // Added after the stripping, which takes out any PARLEY_IDEMPOTENCY_KEY of our own environment
  // (its name holds KEY): the command sees its call's key, never the server's.
  request.env = stripped_environment();
  if (!ctx.idempotency_key.empty())
    request.env->push_back(std::string(kIdempotencyKeyVariable) + "=" + ctx.idempotency_key);
  request.output_cap = static_cast<std::size_t>(policy.max_output_bytes);
  if (policy.sandbox == access::shell_sandbox::bubblewrap) {
    const std::string bwrap = bubblewrap_program();
    if (bwrap.empty()) {
      return make_error(errc::config_error,
                        "the shell sandbox (bubblewrap) is configured but bwrap is not installed; install Debian's "
                        "bubblewrap package (scripts/setup.sh does)");
    }
    request.argv = bubblewrap_argv(bwrap, ctx, run.cwd, run.read_only);
  }
  request.argv.insert(request.argv.end(), {"/bin/sh", "-c", run.command});
  return request;
}

tool_outcome describe_run(std::string_view command, const process_outcome& ran, std::int64_t timeout_seconds) {
  std::string status;
  if (ran.timed_out) {
    status = "[timed out after " + std::to_string(timeout_seconds) + " s: the command and what it started were killed]";
  } else if (ran.cancelled) {
    status = "[cancelled: the dialog was stopped, the command was killed]";
  } else if (ran.signal != 0) {
    status = "[ended by signal " + std::to_string(ran.signal) + "]";
  } else {
    status = "[exit " + std::to_string(ran.exit_code) + "]";
  }
  std::string raw = ran.joined();
  std::size_t nul = 0;
  for (char& c : raw) {
    if (c == '\0') {
      c = '?';
      ++nul;
    }
  }
  auto repaired = repair_utf8(raw);
  std::string out = "$ " + std::string(command) + "\n" + status + "\n" + repaired.text;
  if (!out.empty() && out.back() != '\n') out += '\n';
  if (repaired.replaced > 0 || nul > 0) {
    out += "[the output was not all UTF-8 text: " + std::to_string(repaired.replaced) +
           " ill-formed sequence(s) shown as U+FFFD, " + std::to_string(nul) + " NUL byte(s) shown as '?']\n";
  }
  if (ran.omitted_bytes > 0) {
    out += "[output capped: " + std::to_string(ran.total_bytes) + " bytes in all, the first and last " +
           std::to_string(ran.head.size() + ran.tail.size()) + " kept]\n";
  }
  return tool_outcome{ran.exited_ok(), std::move(out)};
}

}  // namespace parley::tools
