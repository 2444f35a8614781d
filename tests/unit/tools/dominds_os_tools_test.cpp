// Dominds' `os` toolset for a `.minds/` team (issue 46 item 3): shell_cmd whose command, still
// running at timeoutSeconds, becomes a daemon of the dialog; get_daemon_output and stop_daemon with
// Dominds' arguments and answers, bounded per dialog, unknown to other dialogs, killed when their
// owner goes; env_get/env_set/env_unset over the dialog's shell environment, never Parley's own.
#include <gtest/gtest.h>

#include <signal.h>

#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/steady_timer.hpp>

#include <cstdlib>
#include <iostream>
#include <string>

#include "access_globs.hpp"
#include "shell_fixture.hpp"
#include "support/text_contains.hpp"

#include "parley/tools/dominds_tools.hpp"

namespace parley::tools::testing {
namespace {

using parley::testing::contains;

// The pid of a "🟢 ... is now running in the background (PID: N)" answer, or 0.
int dos_daemon_pid_of(const std::string& answer) {
  const auto at = answer.find("(PID: ");
  return at == std::string::npos ? 0 : std::atoi(answer.c_str() + at + 6);
}

// Gone, or a zombie nobody reaped yet: either way it no longer runs.
bool dos_process_gone(int pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  std::getline(stat, line);
  return !stat || line.find(") Z") != std::string::npos;
}

class DomindsOsTools : public shell_fixture {
 protected:
  void SetUp() override {
    shell_fixture::SetUp();
    register_dominds_tools(*registry_);
    ctx_.dialog_id = "d1";
  }
  // Starts `command` as a daemon (it must still run after one second) and returns its pid.
  int start_daemon(const std::string& command) {
    const auto out = call("shell_cmd", R"({"timeoutSeconds":1,"command":")" + command + "\"}");
    EXPECT_TRUE(out.ok) << out.content;
    EXPECT_TRUE(out.content.starts_with("🟢 " + command + " is now running in the background (PID: ")) << out.content;
    return dos_daemon_pid_of(out.content);
  }
  std::string pid_args(int pid, std::string_view more = "") {
    return "{\"pid\":" + std::to_string(pid) + std::string(more) + "}";
  }
};

TEST_F(DomindsOsTools, ACommandThatEndsInTimeAnswersBothStreams) {
  const auto out = call("shell_cmd", R"({"command":"echo out; echo err >&2"})");
  ASSERT_TRUE(out.ok) << out.content;
  EXPECT_EQ(out.content,
            "✅ Command completed (exit code: 0)\n\n📤 stdout:\n```console\nout\n```\n\n📤 stderr:\n```console\nerr\n```");
  const auto failed = call("shell_cmd", R"({"command":"echo no >&2; exit 3"})");
  EXPECT_FALSE(failed.ok);
  EXPECT_TRUE(failed.content.starts_with("✅ Command completed (exit code: 3)")) << failed.content;
  const auto scrolled = call("shell_cmd", R"({"command":"seq 1 5","scrollbackLines":2})");
  EXPECT_TRUE(contains(scrolled.content, "3 lines scrolled out of view during execution")) << scrolled.content;
  EXPECT_TRUE(contains(scrolled.content, "```console\n4\n5\n```")) << scrolled.content;
}

TEST_F(DomindsOsTools, ACommandStillRunningBecomesADaemonOfItsDialog) {
  const int pid = start_daemon("echo ready; echo warn >&2; exec sleep 30");
  ASSERT_GT(pid, 0);
  ASSERT_TRUE(run_until([&] { return contains(call("get_daemon_output", pid_args(pid)).content, "warn"); }));
  const std::string p = std::to_string(pid);
  EXPECT_EQ(call("get_daemon_output", pid_args(pid)).content,
            "📤 Daemon " + p + " stdout output:\n```console\nready\n```\n\n📤 Daemon " + p +
                " stderr output:\n```console\nwarn\n```");
  EXPECT_EQ(call("get_daemon_output", pid_args(pid, R"(,"stdout":false)")).content,
            "📤 Daemon " + p + " stderr output:\n```console\nwarn\n```");
  EXPECT_EQ(call("get_daemon_output", pid_args(pid, R"(,"stdout":false,"stderr":false)")).content,
            "get_daemon_output requires at least one of stdout/stderr to be true");
  // Another dialog does not know it, and cannot stop it.
  ctx_.dialog_id = "d2";
  EXPECT_EQ(call("get_daemon_output", pid_args(pid)).content, "❌ No daemon process found with PID " + p);
  EXPECT_EQ(call("stop_daemon", pid_args(pid)).content, "❌ No daemon process found with PID " + p);
  EXPECT_EQ(::kill(pid, 0), 0);
  ctx_.dialog_id = "d1";
  const auto stopped = call("stop_daemon", pid_args(pid));
  EXPECT_TRUE(stopped.ok);
  EXPECT_EQ(stopped.content,
            "✅ Daemon process " + p + " (echo ready; echo warn >&2; exec sleep 30) stopped successfully");
  EXPECT_TRUE(run_until([&] { return dos_process_gone(pid); }));
  EXPECT_EQ(call("get_daemon_output", pid_args(pid)).content, "❌ No daemon process found with PID " + p);
}

TEST_F(DomindsOsTools, GetDaemonOutputWaitsForNewOutput) {
  const int pid = start_daemon("echo first; while [ ! -e go ]; do sleep 0.05; done; echo second; exec sleep 30");
  ASSERT_GT(pid, 0);
  const std::string p = std::to_string(pid);
  const auto timed_out = call("get_daemon_output", pid_args(pid, R"(,"timeout_ms":50)"));
  EXPECT_TRUE(timed_out.content.starts_with("⏱️ Timed out waiting for new stdout/stderr output from daemon " + p +
                                            " (timeout_ms=50). Current snapshot follows.\n\n📤 Daemon"))
      << timed_out.content;
  put("go", "");
  const auto fresh = call("get_daemon_output", pid_args(pid, R"(,"wait_for_new_output":true,"timeout_ms":20000)"));
  EXPECT_TRUE(fresh.content.starts_with("📤 Daemon " + p + " stdout output:\n```console\nfirst\nsecond"))
      << fresh.content;
  EXPECT_EQ(call("get_daemon_output", pid_args(pid, R"(,"wait_for_new_output":false,"timeout_ms":5)")).content,
            "get_daemon_output.timeout_ms cannot be provided when wait_for_new_output is false");
  EXPECT_EQ(call("get_daemon_output", R"({"pid":1.5})").content,
            "get_daemon_output.pid must be a process id (a positive integer)");
}

// Stopping the dialog kills the command shell_cmd waits for, and ends a wait for output (the
// daemon itself runs on).
TEST_F(DomindsOsTools, StoppingTheDialogEndsTheWait) {
  const int pid = start_daemon("exec sleep 30");
  ASSERT_GT(pid, 0);
  boost::asio::cancellation_signal stop;
  ctx_.cancel = stop.slot();
  boost::asio::steady_timer soon(io_, std::chrono::milliseconds(100));
  soon.async_wait([&](boost::system::error_code) { stop.emit(boost::asio::cancellation_type::terminal); });
  const auto waited = call("get_daemon_output", pid_args(pid, R"(,"wait_for_new_output":true)"));
  EXPECT_TRUE(waited.content.starts_with("⏹️ Stopped waiting for new stdout/stderr output from daemon " +
                                         std::to_string(pid) + ": the dialog was stopped"))
      << waited.content;
  EXPECT_EQ(::kill(pid, 0), 0);
  soon.expires_after(std::chrono::milliseconds(100));
  soon.async_wait([&](boost::system::error_code) { stop.emit(boost::asio::cancellation_type::terminal); });
  const auto killed = call("shell_cmd", R"({"command":"echo $$ > fg.pid; exec sleep 30","timeoutSeconds":30})");
  EXPECT_EQ(killed.content, "❌ Command did not complete: the dialog was stopped, the command was killed");
  std::ifstream fg(workspace_ / "fg.pid");
  int fg_pid = 0;
  fg >> fg_pid;
  ASSERT_GT(fg_pid, 0);
  EXPECT_TRUE(run_until([&] { return dos_process_gone(fg_pid); }));
}

TEST_F(DomindsOsTools, DaemonsAreBoundedPerDialog) {
  for (int i = 0; i < 4; ++i) ASSERT_GT(start_daemon("exec sleep 30"), 0);
  const auto refused = call("shell_cmd", R"({"timeoutSeconds":1,"command":"echo $$ > fifth.pid; exec sleep 30"})");
  EXPECT_FALSE(refused.ok);
  EXPECT_EQ(refused.content,
            "❌ Command did not complete: it ran longer than 1 seconds and was killed, as this dialog already has 4 "
            "daemons running; stop one with stop_daemon first");
  std::ifstream fifth(workspace_ / "fifth.pid");
  int fifth_pid = 0;
  fifth >> fifth_pid;
  ASSERT_GT(fifth_pid, 0);
  EXPECT_TRUE(run_until([&] { return dos_process_gone(fifth_pid); }));
  ctx_.dialog_id = "d2";  // the bound is the dialog's
  EXPECT_GT(start_daemon("exec sleep 30"), 0);
}

TEST_F(DomindsOsTools, NoDaemonOutlivesItsOwner) {
  const int pid = start_daemon("exec sleep 60");
  ASSERT_GT(pid, 0);
  EXPECT_EQ(::kill(pid, 0), 0);
  registry_.reset();  // what the server does when it stops
  EXPECT_TRUE(run_until([&] { return dos_process_gone(pid); }));
}

// A team reload builds a new registry; the dialog keeps its daemons and env overlay in it, and
// ending the daemons through either registry ends them.
TEST_F(DomindsOsTools, AReloadedRegistryKeepsTheDialogsDaemonsAndEnv) {
  const int pid = start_daemon("exec sleep 30");
  ASSERT_GT(pid, 0);
  ASSERT_TRUE(call("env_set", R"({"key":"PARLEY_DOS_KEPT","value":"yes"})").ok);
  auto reloaded = std::make_unique<tool_registry>();
  register_shell_tools(*reloaded);
  register_dominds_tools(*reloaded);
  keep_dominds_os_state(*registry_, *reloaded);
  auto retired = std::exchange(registry_, std::move(reloaded));
  EXPECT_EQ(call("env_get", R"({"key":"PARLEY_DOS_KEPT"})").content, "yes");
  EXPECT_TRUE(call("get_daemon_output", pid_args(pid)).ok);
  retired.reset();  // the old registry goes; the daemon is still the dialog's
  EXPECT_EQ(::kill(pid, 0), 0);
  end_dominds_daemons(*registry_);
  EXPECT_TRUE(run_until([&] { return dos_process_gone(pid); }));
  // The loop records the end when it reaps the process, which may come a turn after it is gone.
  EXPECT_TRUE(run_until(
      [&] { return contains(call("get_daemon_output", pid_args(pid)).content, "(the daemon has ended: signal: 9)"); }));
}

TEST_F(DomindsOsTools, ShellCmdKeepsTheShellRulesAndNamesBadArguments) {
  policy_.allow = {"echo *"};
  const auto refused = call("shell_cmd", R"({"command":"touch ran.txt"})");
  EXPECT_EQ(refused.content,
            "❌ Failed to execute command: refused: 'touch ran.txt' is outside your allowlist ('echo *')");
  policy_.allow.clear();
  rules_.write.deny_dirs = globs({"src"});  // rules a shell without a sandbox cannot be held to
  const auto confined = call("shell_cmd", R"({"command":"touch ran.txt"})");
  EXPECT_FALSE(confined.ok);
  EXPECT_TRUE(contains(confined.content, "refused: no shell for you")) << confined.content;
  rules_ = access::access_rules{};
  EXPECT_EQ(call("shell_cmd", R"({"command":"touch ran.txt","timeoutSeconds":1.5})").content,
            "shell_cmd.timeoutSeconds must be a positive integer (or 0 for default)");
  EXPECT_EQ(call("shell_cmd", R"({"command":"  "})").content, "shell_cmd.command must be a non-empty string");
  EXPECT_FALSE(std::filesystem::exists(workspace_ / "ran.txt"));
  EXPECT_EQ(call("stop_daemon", R"({"pid":-4})").content, "stop_daemon.pid must be a process id (a positive integer)");
}

// A daemon is started as shell_cmd starts every command: inside the sandbox, under the rules.
TEST_F(DomindsOsTools, DaemonsRunInsideTheSandboxUnderTheAccessRules) {
  put("secrets/key.txt", "the-secret-key");
  rules_.read.deny_dirs = globs({"secrets"});
  policy_.sandbox = access::shell_sandbox::bubblewrap;
  if (const std::string why = why_bwrap_cannot_run(); !why.empty()) {
    std::cout << "[sandbox] " << why << "\n";  // without bwrap the member gets no shell at all
    EXPECT_TRUE(contains(call("shell_cmd", R"({"command":"cat secrets/key.txt"})").content, "no shell for you"));
    return;
  }
  const int pid = start_daemon("cat secrets/key.txt; echo pwn > secrets/new.txt; echo done; exec sleep 30");
  ASSERT_GT(pid, 0);
  ASSERT_TRUE(run_until([&] { return contains(call("get_daemon_output", pid_args(pid)).content, "done"); }));
  EXPECT_FALSE(contains(call("get_daemon_output", pid_args(pid)).content, "the-secret-key"));
  EXPECT_FALSE(std::filesystem::exists(workspace_ / "secrets/new.txt"));
}

TEST_F(DomindsOsTools, EnvToolsChangeOnlyThisDialogsShellEnvironment) {
  EXPECT_EQ(call("env_get", R"({"key":"PARLEY_DOS_FOO"})").content, "(unset)");
  EXPECT_EQ(call("env_set", R"({"key":"PARLEY_DOS_FOO","value":"bar baz"})").content,
            "ok: PARLEY_DOS_FOO\nprev: (unset)\nnext: bar baz");
  EXPECT_EQ(call("env_get", R"({"key":"PARLEY_DOS_FOO"})").content, "bar baz");
  EXPECT_EQ(std::getenv("PARLEY_DOS_FOO"), nullptr);  // Parley's own environment is untouched
  EXPECT_TRUE(contains(call("shell_cmd", R"({"command":"echo \"[$PARLEY_DOS_FOO]\""})").content, "[bar baz]"));
  ctx_.dialog_id = "d2";
  EXPECT_EQ(call("env_get", R"({"key":"PARLEY_DOS_FOO"})").content, "(unset)");
  EXPECT_TRUE(contains(call("shell_cmd", R"({"command":"echo \"[$PARLEY_DOS_FOO]\""})").content, "[]"));
  ctx_.dialog_id = "d1";
  // A variable of the environment shell commands are given can be unset for this dialog.
  ::setenv("PARLEY_DOS_BASE", "base", 1);
  EXPECT_EQ(call("env_get", R"({"key":"PARLEY_DOS_BASE"})").content, "base");
  EXPECT_EQ(call("env_unset", R"({"key":"PARLEY_DOS_BASE"})").content,
            "ok: PARLEY_DOS_BASE\nprev: base\nnext: (unset)");
  EXPECT_TRUE(contains(call("shell_cmd", R"({"command":"echo \"[$PARLEY_DOS_BASE]\""})").content, "[]"));
  EXPECT_STREQ(std::getenv("PARLEY_DOS_BASE"), "base");
  ::unsetenv("PARLEY_DOS_BASE");
}

TEST_F(DomindsOsTools, EnvToolsNeverShowProviderKeysAndRefuseBadInput) {
  ::setenv("PARLEY_DOS_API_KEY", "sk-secret", 1);
  ::setenv("PARLEY_DOS_PROVIDER_PASS", "pass-secret", 1);  // a key variable named freely in llm.yaml
  mark_secret_variable("PARLEY_DOS_PROVIDER_PASS");
  for (const char* key : {"PARLEY_DOS_API_KEY", "PARLEY_DOS_PROVIDER_PASS"}) {
    EXPECT_EQ(call("env_get", "{\"key\":\"" + std::string(key) + "\"}").content, "(unset)") << key;
    const auto echoed = call("shell_cmd", "{\"command\":\"echo \\\"[$" + std::string(key) + "]\\\"\"}");
    EXPECT_TRUE(contains(echoed.content, "[]")) << echoed.content;
  }
  EXPECT_EQ(call("env_set", R"({"key":"1BAD","value":"x"})").content,
            "env_set.key must be a valid environment variable name matching ^[A-Za-z_][A-Za-z0-9_]*$");
  EXPECT_EQ(call("env_unset", R"({"key":"A=B"})").content,
            "env_unset.key must be a valid environment variable name matching ^[A-Za-z_][A-Za-z0-9_]*$");
  EXPECT_EQ(call("env_set", R"({"key":"GOOD","value":"a\u0000b"})").content, "env_set.value must not contain NUL");
  EXPECT_EQ(call("env_get", R"({"key":"GOOD"})").content, "(unset)");  // the refusal changed nothing
  EXPECT_TRUE(contains(call("env_set", R"({"key":"PARLEY_IDEMPOTENCY_KEY","value":"x"})").content,
                       "env_set.key 'PARLEY_IDEMPOTENCY_KEY' is set by Parley for each call"));
  ::unsetenv("PARLEY_DOS_API_KEY");
  ::unsetenv("PARLEY_DOS_PROVIDER_PASS");
}

}  // namespace
}  // namespace parley::tools::testing
