// Dominds' shell_cmd, get_daemon_output and stop_daemon (dominds@1.29.0's os.js): a command still
// running at its timeoutSeconds (default 5) is not killed but becomes a daemon of the dialog, known
// by its pid. The command runs as Parley's shell_cmd runs it (shell_command.hpp: the allowlist, the
// member's access rules, the sandbox, the secret-free environment), plus the dialog's env_set
// overlay. Answers in Dominds' words: "✅ Command completed (exit code: N)", "🟢 <command> is now
// running in the background (PID: N)", "📤 Daemon N stdout output:", "❌ No daemon process found
// with PID N". The env tools are in dominds_env_tools.cpp.
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <cmath>

#include "parley/core/json_fields.hpp"
#include "parley/tools/dominds_daemons.hpp"
#include "parley/tools/dominds_os_tools.hpp"
#include "parley/tools/dominds_tool_support.hpp"
#include "parley/tools/shell_command.hpp"

namespace parley::tools::dominds_detail {
namespace {

namespace asio = boost::asio;
namespace json = boost::json;
using std::chrono::steady_clock;

constexpr std::int64_t kDomindsShellTimeout = 5;             // Dominds' default timeoutSeconds
constexpr std::int64_t kMaxDaemonOutputWaitMs = 86'400'000;  // Dominds' bound on timeout_ms

struct shell_cmd_request {
  std::string command;
  std::int64_t timeout_seconds = kDomindsShellTimeout;
  std::size_t scrollback_lines = kDefaultScrollbackLines;
};

// A whole number > 0, or 0 / absent for the default; the error names the field as Dominds does.
result<std::optional<std::int64_t>> positive_or_default(const std::optional<double>& value, std::string_view field,
                                                        std::int64_t max) {
  if (!value || *value == 0) return std::optional<std::int64_t>{};
  if (*value < 0 || std::floor(*value) != *value) {
    return make_error(errc::invalid_argument,
                      "shell_cmd." + std::string(field) + " must be a positive integer (or 0 for default)");
  }
  if (*value > static_cast<double>(max)) {
    return make_error(errc::invalid_argument,
                      "shell_cmd." + std::string(field) + " must be at most " + std::to_string(max));
  }
  return std::optional<std::int64_t>{static_cast<std::int64_t>(*value)};
}

result<shell_cmd_request> parse_shell_cmd(const json::object& args, const access::shell_policy& policy) {
  json_fields in(args);
  shell_cmd_request out;
  out.command = in.string("command");
  const auto shell = in.optional_string("shell");
  const auto timeout = in.optional_number("timeoutSeconds");
  const auto scrollback_lines = in.optional_number("scrollbackLines");
  if (!in.ok()) return make_error(errc::invalid_argument, in.message());
  if (out.command.find_first_not_of(" \t\r\n") == std::string::npos) {
    return make_error(errc::invalid_argument, "shell_cmd.command must be a non-empty string");
  }
  if (shell && !shell->empty() && *shell != "bash" && *shell != "sh" && *shell != "/bin/bash" && *shell != "/bin/sh") {
    return make_error(errc::invalid_argument,
                      "shell: Parley runs commands with /bin/sh; '" + *shell + "' is not available here");
  }
  std::optional<std::int64_t> seconds;
  std::optional<std::int64_t> lines;
  PARLEY_TRY_ASSIGN(seconds, positive_or_default(timeout, "timeoutSeconds", policy.max_timeout_seconds));
  PARLEY_TRY_ASSIGN(lines, positive_or_default(scrollback_lines, "scrollbackLines", kMaxScrollbackLines));
  if (seconds) out.timeout_seconds = *seconds;
  if (lines) out.scrollback_lines = static_cast<std::size_t>(*lines);
  return out;
}

// Waits until `deadline`, or until the entry changes (new output, the exit, a stop): its watcher
// and the call's cancellation wake the timer. Callers loop on what they wait for.
asio::awaitable<void> await_change(daemon_entry& entry, steady_clock::time_point deadline) {
  auto executor = co_await asio::this_coro::executor;
  asio::steady_timer timer(executor, deadline);
  entry.waiters.push_back(&timer);
  (void)co_await timer.async_wait(asio::as_tuple(asio::use_awaitable));
  std::erase(entry.waiters, &timer);
}

// While a call waits: the dialog's stop wakes it (and, for shell_cmd, kills the command). The
// flag is shared with the handler, which is cleared when the call ends.
class call_cancellation {
 public:
  call_cancellation(asio::cancellation_slot slot, const std::shared_ptr<daemon_entry>& entry, bool kill)
      : slot_(slot), flag_(std::make_shared<bool>(false)) {
    if (!slot_.is_connected()) return;
    slot_.assign([flag = flag_, weak = std::weak_ptr<daemon_entry>(entry), kill](asio::cancellation_type) {
      *flag = true;
      if (auto alive = weak.lock()) {
        if (kill) alive->kill(true);
        alive->wake();
      }
    });
  }
  ~call_cancellation() {
    if (slot_.is_connected()) slot_.clear();
  }
  call_cancellation(const call_cancellation&) = delete;
  call_cancellation& operator=(const call_cancellation&) = delete;
  bool cancelled() const { return *flag_; }

 private:
  asio::cancellation_slot slot_;
  std::shared_ptr<bool> flag_;
};

std::string stream_block(std::string_view label, const scrollback& stream) {
  const std::string text = stream.content();
  if (text.empty()) return {};
  return std::string(label) + "\n```console\n" + text + "\n```\n\n";
}

tool_outcome completed_answer(const daemon_entry& entry) {
  if (entry.signal != 0) {
    return tool_outcome{false, "❌ Command did not complete: ended by signal " + std::to_string(entry.signal)};
  }
  const auto scrolled = entry.out.lines_scrolled_out() + entry.err.lines_scrolled_out();
  std::string text = "✅ Command completed (exit code: " + std::to_string(entry.exit_code) + ")";
  if (scrolled > 0) text += "\n⚠️  " + std::to_string(scrolled) + " lines scrolled out of view during execution";
  text += "\n\n" + stream_block("📤 stdout:", entry.out) + stream_block("📤 stderr:", entry.err);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return tool_outcome{entry.exit_code == 0, std::move(text)};
}

std::string daemon_started(const daemon_entry& entry, std::int64_t seconds) {
  const std::string pid = std::to_string(entry.pid);
  return "🟢 " + entry.command + " is now running in the background (PID: " + pid +
         ")\nThe process did not finish within " + std::to_string(seconds) +
         " seconds and has transitioned into a daemon. Read its output with get_daemon_output({ \"pid\": " + pid +
         " }) and end it with stop_daemon({ \"pid\": " + pid +
         " }); it belongs to this dialog and is stopped when the server stops.";
}

tool_outcome failed_to_execute(std::string_view why) {
  return tool_outcome{false, "❌ Failed to execute command: " + std::string(why)};
}

class dominds_shell_cmd final : public tool {
 public:
  explicit dominds_shell_cmd(std::shared_ptr<os_state> state)
      : state_(std::move(state)), spec_(dominds_spec_or_note("shell_cmd")) {}
  const tool_spec& spec() const override { return spec_; }

  asio::awaitable<tool_outcome> invoke(const json::object& args, const tool_context& ctx) override {
    const auto& policy = shell_policy_of(ctx);
    auto parsed = parse_shell_cmd(args, policy);
    if (!parsed) co_return tool_outcome{false, parsed.err().message};
    if (auto why = access::shell_refusal(policy, parsed->command); !why.empty())
      co_return failed_to_execute("refused: " + why);
    auto request = shell_request(ctx, shell_run{parsed->command, ctx.workspace, false});
    if (!request) co_return failed_to_execute(request.err().message);
    apply_overlay(*request->env, state_->env.of(ctx.dialog_id));
    request->separate_stderr = true;
    auto spawned = spawn_process(*request);
    if (!spawned) co_return failed_to_execute(spawned.err().message);
    auto entry = std::make_shared<daemon_entry>(ctx.dialog_id, parsed->command, spawned->pid, parsed->scrollback_lines);
    state_->daemons.add(entry);
    auto executor = co_await asio::this_coro::executor;
    asio::co_spawn(executor, watch_daemon(entry, *spawned), asio::detached);

    // A stopped dialog kills the command it waits for (not the daemons it already has).
    const call_cancellation stop(ctx.cancel, entry, true);
    const auto deadline = steady_clock::now() + std::chrono::seconds(parsed->timeout_seconds);
    while (entry->running && !stop.cancelled() && steady_clock::now() < deadline) {
      co_await await_change(*entry, deadline);
    }
    if (stop.cancelled()) {
      const auto grace = steady_clock::now() + std::chrono::seconds(5);  // for the killed command's exit
      while (entry->running && steady_clock::now() < grace) co_await await_change(*entry, grace);
      state_->daemons.forget(ctx.dialog_id, entry->pid);
      co_return tool_outcome{false, "❌ Command did not complete: the dialog was stopped, the command was killed"};
    }
    if (!entry->running) {
      state_->daemons.forget(ctx.dialog_id, entry->pid);
      co_return completed_answer(*entry);
    }
    if (!state_->daemons.promote(*entry)) {
      entry->kill(true);
      state_->daemons.forget(ctx.dialog_id, entry->pid);
      co_return tool_outcome{
          false, "❌ Command did not complete: it ran longer than " + std::to_string(parsed->timeout_seconds) +
                     " seconds and was killed, as this dialog already has " + std::to_string(kMaxDaemonsPerDialog) +
                     " daemons running; stop one with stop_daemon first"};
    }
    co_return tool_outcome{true, daemon_started(*entry, parsed->timeout_seconds)};
  }
  const std::shared_ptr<os_state>& state() const { return state_; }

 private:
  std::shared_ptr<os_state> state_;
  tool_spec spec_;
};

// The pid argument: a whole number (the schema says "number").
result<std::int64_t> daemon_pid(json_fields& in, std::string_view tool_name) {
  const double pid = in.number("pid");
  if (!in.ok()) return make_error(errc::invalid_argument, in.message());
  if (std::floor(pid) != pid || pid < 1 || pid > 4194304.0) {
    return make_error(errc::invalid_argument,
                      std::string(tool_name) + ".pid must be a process id (a positive integer)");
  }
  return static_cast<std::int64_t>(pid);
}

std::string no_daemon(std::int64_t pid) { return "❌ No daemon process found with PID " + std::to_string(pid); }

class stop_daemon_tool final : public tool {
 public:
  explicit stop_daemon_tool(std::shared_ptr<os_state> state)
      : state_(std::move(state)), spec_(dominds_spec_or_note("stop_daemon")) {}
  const tool_spec& spec() const override { return spec_; }

  asio::awaitable<tool_outcome> invoke(const json::object& args, const tool_context& ctx) override {
    json_fields in(args);
    auto pid = daemon_pid(in, "stop_daemon");
    const bool entire_group = in.optional_boolean("entire_pg").value_or(true);
    if (!pid || !in.ok()) co_return tool_outcome{false, pid ? in.message() : pid.err().message};
    auto entry = state_->daemons.find(ctx.dialog_id, *pid);
    if (!entry) co_return tool_outcome{false, no_daemon(*pid)};
    const bool was_running = entry->running;
    entry->kill(entire_group);
    state_->daemons.forget(ctx.dialog_id, *pid);
    if (!was_running) {
      co_return tool_outcome{true, "✅ Daemon process " + std::to_string(*pid) + " (" + entry->command +
                                       ") had already ended (" + entry->state() + "); it is no longer tracked"};
    }
    co_return tool_outcome{
        true, "✅ Daemon process " + std::to_string(*pid) + " (" + entry->command + ") stopped successfully"};
  }

 private:
  std::shared_ptr<os_state> state_;
  tool_spec spec_;
};

struct output_request {
  std::int64_t pid = 0;
  bool stdout_wanted = true;
  bool stderr_wanted = true;
  bool wait = false;
  std::optional<std::int64_t> timeout_ms;
};

result<output_request> parse_output_request(const json::object& args) {
  json_fields in(args);
  output_request out;
  PARLEY_TRY_ASSIGN(out.pid, daemon_pid(in, "get_daemon_output"));
  const auto out_flag = in.optional_boolean("stdout");
  const auto err_flag = in.optional_boolean("stderr");
  const auto wait = in.optional_boolean("wait_for_new_output");
  out.timeout_ms = in.optional_integer("timeout_ms");
  if (!in.ok()) return make_error(errc::invalid_argument, in.message());
  out.stdout_wanted = out_flag.value_or(true);
  out.stderr_wanted = err_flag.value_or(true);
  if (!out.stdout_wanted && !out.stderr_wanted) {
    return make_error(errc::invalid_argument, "get_daemon_output requires at least one of stdout/stderr to be true");
  }
  if (out.timeout_ms && (*out.timeout_ms < 0 || *out.timeout_ms > kMaxDaemonOutputWaitMs)) {
    return make_error(errc::invalid_argument, "get_daemon_output.timeout_ms must be a non-negative integer <= " +
                                                  std::to_string(kMaxDaemonOutputWaitMs));
  }
  if (wait == false && out.timeout_ms) {
    return make_error(errc::invalid_argument,
                      "get_daemon_output.timeout_ms cannot be provided when wait_for_new_output is false");
  }
  out.wait = wait.value_or(out.timeout_ms.has_value());
  return out;
}

std::string daemon_stream(std::int64_t pid, std::string_view name, const scrollback& stream) {
  std::string text = "📤 Daemon " + std::to_string(pid) + " " + std::string(name) + " output:\n";
  const std::string content = stream.content();
  text += content.empty() ? "(no output)" : "```console\n" + content + "\n```";
  if (stream.lines_scrolled_out() > 0) {
    text += "\n\n⚠️  " + std::to_string(stream.lines_scrolled_out()) + " lines have scrolled out of view";
  }
  return text;
}

class get_daemon_output_tool final : public tool {
 public:
  explicit get_daemon_output_tool(std::shared_ptr<os_state> state)
      : state_(std::move(state)), spec_(dominds_spec_or_note("get_daemon_output")) {}
  const tool_spec& spec() const override { return spec_; }
  bool has_effects() const override { return false; }

  asio::awaitable<tool_outcome> invoke(const json::object& args, const tool_context& ctx) override {
    auto wanted = parse_output_request(args);
    if (!wanted) co_return tool_outcome{false, wanted.err().message};
    auto entry = state_->daemons.find(ctx.dialog_id, wanted->pid);
    if (!entry) co_return tool_outcome{false, no_daemon(wanted->pid)};
    const std::string streams = wanted->stdout_wanted && wanted->stderr_wanted ? "stdout/stderr"
                                : wanted->stdout_wanted                        ? "stdout"
                                                                               : "stderr";
    auto written = [&] {
      return (wanted->stdout_wanted ? entry->out.bytes_written() : 0) +
             (wanted->stderr_wanted ? entry->err.bytes_written() : 0);
    };
    std::string text;
    if (wanted->wait) {
      const auto before = written();
      const auto deadline =
          steady_clock::now() + std::chrono::milliseconds(wanted->timeout_ms.value_or(kMaxDaemonOutputWaitMs));
      const call_cancellation stop(ctx.cancel, entry, false);
      while (written() == before && entry->running && !stop.cancelled() && steady_clock::now() < deadline) {
        co_await await_change(*entry, deadline);
      }
      const std::string pid = std::to_string(wanted->pid);
      if (stop.cancelled()) {
        text = "⏹️ Stopped waiting for new " + streams + " output from daemon " + pid +
               ": the dialog was stopped (the daemon runs on). Current snapshot follows.\n\n";
      } else if (written() == before && !entry->running) {
        text = "⏹️ Daemon " + pid + " exited while waiting for new " + streams +
               " output; no new requested-stream output was observed. Final snapshot follows.\n\n";
      } else if (written() == before) {
        text = "⏱️ Timed out waiting for new " + streams + " output from daemon " + pid +
               " (timeout_ms=" + std::to_string(wanted->timeout_ms.value_or(0)) + "). Current snapshot follows.\n\n";
      }
    }
    if (wanted->stdout_wanted) text += daemon_stream(wanted->pid, "stdout", entry->out);
    if (wanted->stderr_wanted) text += (text.empty() ? "" : "\n\n") + daemon_stream(wanted->pid, "stderr", entry->err);
    if (!entry->running) text += "\n\n(the daemon has ended: " + entry->state() + ")";
    co_return tool_outcome{true, std::move(text)};
  }

 private:
  std::shared_ptr<os_state> state_;
  tool_spec spec_;
};

}  // namespace

// The os tools' state of `registry`: its Dominds shell_cmd's; nullptr with Parley's shell_cmd.
std::shared_ptr<os_state> os_state_of(const tool_registry& registry) {
  const auto* shell = dynamic_cast<const dominds_shell_cmd*>(registry.find("shell_cmd"));
  return shell == nullptr ? nullptr : shell->state();
}

void end_daemons(const tool_registry& registry) {
  if (auto state = os_state_of(registry)) state->daemons.end_all();
}

void keep_os_state(const tool_registry& from, tool_registry& to) {
  auto kept = os_state_of(from);
  if (kept == nullptr || os_state_of(to) == nullptr) return;
  register_daemon_tools(to, kept);
  register_env_tools(to, kept);
}

void register_daemon_tools(tool_registry& registry, const std::shared_ptr<os_state>& state) {
  registry.add(std::make_unique<dominds_shell_cmd>(state));
  registry.add(std::make_unique<stop_daemon_tool>(state));
  registry.add(std::make_unique<get_daemon_output_tool>(state));
}

}  // namespace parley::tools::dominds_detail
