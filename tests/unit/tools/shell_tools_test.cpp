// shell_cmd, readonly_shell and the background-process tools: what runs, what is refused before
// anything runs, and how timeouts, floods, bad bytes, secrets and stops are answered.
#include <boost/asio/steady_timer.hpp>

#include <gtest/gtest.h>

#include <cstdlib>

#include "parley/tools/shell_command.hpp"
#include "shell_fixture.hpp"
#include "support/text_contains.hpp"

namespace parley::tools {
namespace {

using ShellTools = testing::shell_fixture;

using parley::testing::contains;

TEST_F(ShellTools, RunsACommandInTheWorkspaceAndAnswersItsExitAndOutput) {
  put("src/a.txt", "a");
  auto out = call("shell_cmd", R"x({"command": "pwd; ls", "cwd": "src"})x");
  EXPECT_TRUE(out.ok) << out.content;
  EXPECT_EQ(out.content,
            "$ pwd; ls\n[exit 0]\n" + std::filesystem::canonical(workspace_ / "src").string() + "\na.txt\n");
  out = call("shell_cmd", R"x({"command": "echo oops >&2; exit 3"})x");
  EXPECT_FALSE(out.ok);
  EXPECT_EQ(out.content, "$ echo oops >&2; exit 3\n[exit 3]\noops\n");
}

TEST_F(ShellTools, ATimeoutKillsTheCommandAndWhatItStarted) {
  const auto out = call("shell_cmd", R"x({"command": "echo begun; sleep 30 & sleep 30", "timeout_seconds": 1})x");
  EXPECT_FALSE(out.ok);
  EXPECT_EQ(
      out.content,
      "$ echo begun; sleep 30 & sleep 30\n[timed out after 1 s: the command and what it started were killed]\nbegun\n");
}

TEST_F(ShellTools, AFloodOfOutputKeepsItsHeadAndTail) {
  policy_.max_output_bytes = 1000;
  const auto out = call("shell_cmd", R"x({"command": "echo FIRST; yes | head -c 2000000; echo; echo LAST"})x");
  EXPECT_TRUE(out.ok);
  EXPECT_TRUE(contains(out.content, "[exit 0]\nFIRST\ny\ny\n")) << out.content.substr(0, 100);
  EXPECT_TRUE(contains(out.content, "bytes of output cut here ...]"));
  EXPECT_TRUE(contains(out.content, "y\n\nLAST\n[output capped: 20000"))
      << out.content.substr(out.content.size() - 200);
  EXPECT_TRUE(out.content.ends_with(" bytes in all, the first and last 1000 kept]\n"))
      << out.content.substr(out.content.size() - 200);
  EXPECT_LT(out.content.size(), 1300U);
}

TEST_F(ShellTools, BinaryAndNonUtf8OutputIsRepairedAndSaid) {
  const auto out = call("shell_cmd", R"x({"command": "printf 'caf\\351\\000!'"})x");
  EXPECT_TRUE(out.ok);
  EXPECT_EQ(out.content,
            "$ printf 'caf\\351\\000!'\n[exit 0]\ncaf\xEF\xBF\xBD?!\n[the output was not all UTF-8 text: 1 ill-formed "
            "sequence(s) shown as U+FFFD, 1 NUL byte(s) shown as '?']\n");
}

TEST_F(ShellTools, TheRuntimesSecretsAreNotInTheEnvironment) {
  ::setenv("PARLEY_TEST_API_KEY", "sk-secret", 1);
  ::setenv("SOME_TOKEN", "tok", 1);
  ::setenv("PARLEY_TEST_PLAIN", "visible", 1);
  const auto out = call("shell_cmd", R"x({"command": "env"})x");
  EXPECT_TRUE(out.ok);
  EXPECT_FALSE(contains(out.content, "sk-secret"));
  EXPECT_FALSE(contains(out.content, "SOME_TOKEN"));
  EXPECT_TRUE(contains(out.content, "PARLEY_TEST_PLAIN=visible"));
  EXPECT_TRUE(is_secret_variable("OPENAI_API_KEY"));
  EXPECT_TRUE(is_secret_variable("anthropic_api_key"));
  EXPECT_FALSE(is_secret_variable("PATH"));
}

// The call's idempotency key reaches the command (engine/idempotency_key.hpp); the server's own
// variable of that name does not: a command never sees a key that is not its call's.
TEST_F(ShellTools, TheCommandSeesItsCallsIdempotencyKeyAndNoOther) {
  ::setenv("PARLEY_IDEMPOTENCY_KEY", "the-servers-own", 1);
  const std::string command = R"x({"command": "printf '%s' \"${PARLEY_IDEMPOTENCY_KEY-unset}\""})x";
  EXPECT_EQ(call("shell_cmd", command).content, "$ printf '%s' \"${PARLEY_IDEMPOTENCY_KEY-unset}\"\n[exit 0]\nunset\n");
  ctx_.idempotency_key = "r1/d1/1.2/call_1";
  EXPECT_EQ(call("shell_cmd", command).content,
            "$ printf '%s' \"${PARLEY_IDEMPOTENCY_KEY-unset}\"\n[exit 0]\nr1/d1/1.2/call_1\n");
  const auto env = call("shell_cmd", R"x({"command": "env"})x").content;
  EXPECT_TRUE(contains(env, "\nPARLEY_IDEMPOTENCY_KEY=r1/d1/1.2/call_1\n")) << env;
  EXPECT_FALSE(contains(env, "the-servers-own")) << env;
  ::unsetenv("PARLEY_IDEMPOTENCY_KEY");
}

// A background process keeps the key of the call that started it, for as long as it runs.
TEST_F(ShellTools, ABackgroundProcessSeesTheKeyOfTheCallThatStartedIt) {
  ctx_.idempotency_key = "r1/d1/1.3/call_7";
  ASSERT_TRUE(call("start_process", R"x({"command": "echo \"key=$PARLEY_IDEMPOTENCY_KEY\"; sleep 30"})x").ok);
  ctx_.idempotency_key = "r1/d1/1.4/call_8";  // a later call's key is not the process's
  ASSERT_TRUE(run_until([&] { return contains(call("list_processes", "{}").content, "21 bytes unread"); }));
  const auto read = call("read_process", R"x({"id": "p1"})x");
  EXPECT_TRUE(read.content.ends_with("\nkey=r1/d1/1.3/call_7\n")) << read.content;
  EXPECT_TRUE(call("stop_process", R"x({"id": "p1"})x").ok);
}

TEST_F(ShellTools, AllowAndDenyPatternsAreCheckedOnEveryPartBeforeAnythingRuns) {
  policy_.allow = {"echo *", "touch *"};
  policy_.deny = {"touch *.lock"};
  EXPECT_TRUE(call("shell_cmd", R"x({"command": "echo hi && touch made.txt"})x").ok);
  EXPECT_TRUE(std::filesystem::exists(workspace_ / "made.txt"));
  EXPECT_EQ(call("shell_cmd", R"x({"command": "echo hi; touch x; rm made.txt"})x").content,
            "refused: 'rm made.txt' is outside your allowlist ('echo *', 'touch *')");
  EXPECT_EQ(call("shell_cmd", R"x({"command": "touch a.lock"})x").content,
            "refused: 'touch a.lock' matches the deny pattern 'touch *.lock'");
  EXPECT_EQ(
      call("shell_cmd", R"x({"command": "echo $(rm made.txt)"})x").content,
      "refused: command substitution ($(...) or backquotes) is not allowed: the allowlist cannot check what it runs");
  EXPECT_TRUE(call("shell_cmd", R"x({"command": "echo 'a; rm made.txt'"})x").ok);  // quoted: one command
  EXPECT_TRUE(std::filesystem::exists(workspace_ / "made.txt"));
  EXPECT_FALSE(std::filesystem::exists(workspace_ / "x"));
}

TEST_F(ShellTools, TheWorkingFolderMustBeAReadableFolderOfTheWorkspace) {
  put(".minds/team.yaml", "t");
  put("a.txt", "a");
  EXPECT_TRUE(contains(call("shell_cmd", R"x({"command": "ls", "cwd": "../"})x").content, "cwd: '../'"));
  EXPECT_TRUE(
      contains(call("shell_cmd", R"x({"command": "ls", "cwd": ".minds"})x").content, "cwd: '.minds' is not readable"));
  EXPECT_EQ(call("shell_cmd", R"x({"command": "ls", "cwd": "a.txt"})x").content, "cwd: 'a.txt' is not a folder");
}

TEST_F(ShellTools, AStopKillsTheRunningCommand) {
  tool* shell = registry_->find("shell_cmd");
  boost::asio::cancellation_signal stop;
  ctx_.cancel = stop.slot();
  boost::asio::steady_timer soon(io_, std::chrono::milliseconds(200));
  soon.async_wait([&](boost::system::error_code) { stop.emit(boost::asio::cancellation_type::terminal); });
  const auto out = call("shell_cmd", R"x({"command": "echo working; sleep 30"})x");
  (void)shell;
  EXPECT_FALSE(out.ok);
  EXPECT_EQ(out.content,
            "$ echo working; sleep 30\n[cancelled: the dialog was stopped, the command was killed]\nworking\n");
}

TEST_F(ShellTools, ReadonlyShellRunsInspectionCommandsOnly) {
  put("a.txt", "one\ntwo\n");
  const auto out = call("readonly_shell", R"x({"command": "cat a.txt | wc -l"})x");
  EXPECT_TRUE(out.ok) << out.content;
  EXPECT_EQ(out.content, "$ cat a.txt | wc -l\n[exit 0]\n2\n");
  EXPECT_EQ(call("readonly_shell", R"x({"command": "rm a.txt"})x").content,
            "refused: 'rm' is not an inspection command readonly_shell runs; use shell_cmd if you have it");
  EXPECT_EQ(call("readonly_shell", R"x({"command": "echo x > a.txt"})x").content,
            "refused: redirection ('>') writes files; readonly_shell only inspects");
  EXPECT_EQ(call("readonly_shell", R"x({"command": "git push"})x").content,
            "refused: readonly_shell runs git only with status, log, diff, show, blame, ls-files, rev-parse or grep");
  EXPECT_EQ(call("readonly_shell", R"x({"command": "find . -delete"})x").content,
            "refused: find -delete runs or writes; readonly_shell only inspects");
  EXPECT_EQ(call("readonly_shell", R"x({"command": "ls; rm a.txt"})x").content,
            "refused: only pipelines ('|') are allowed in readonly_shell, not ';' or '&'");
  EXPECT_EQ(call("readonly_shell", R"x({"command": "sort -o a.txt a.txt"})x").content,
            "refused: sort -o writes a file; readonly_shell only inspects");
  EXPECT_TRUE(std::filesystem::exists(workspace_ / "a.txt"));
}

TEST_F(ShellTools, BackgroundProcessesAreStartedListedReadAndStopped) {
  auto started = call("start_process", R"x({"command": "echo ready; sleep 30"})x");
  EXPECT_TRUE(started.ok) << started.content;
  EXPECT_EQ(started.content, "started p1: $ echo ready; sleep 30");
  ASSERT_TRUE(run_until([&] { return contains(call("list_processes", "{}").content, "6 bytes unread"); }));
  EXPECT_TRUE(contains(call("list_processes", "{}").content, "p1  running for "));
  auto read = call("read_process", R"x({"id": "p1"})x");
  EXPECT_TRUE(read.ok);
  EXPECT_TRUE(read.content.starts_with("p1 running for ")) << read.content;
  EXPECT_TRUE(read.content.ends_with("\nready\n")) << read.content;
  EXPECT_EQ(call("stop_process", R"x({"id": "p1"})x").content, "stopped p1 ($ echo ready; sleep 30)");
  ASSERT_TRUE(run_until([&] { return contains(call("list_processes", "{}").content, "p1  stopped"); }));
  EXPECT_EQ(call("read_process", R"x({"id": "p9"})x").content, "no process 'p9' of yours; list_processes shows them");
  ctx_.member_id = "other";
  EXPECT_EQ(call("read_process", R"x({"id": "p1"})x").content, "no process 'p1' of yours; list_processes shows them");
  EXPECT_EQ(call("list_processes", "{}").content, "no processes");
}

TEST_F(ShellTools, BackgroundProcessesAreBoundedPerMemberAndEndAtTheirLifetime) {
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(call("start_process", R"x({"command": "sleep 30"})x").ok);
  EXPECT_EQ(call("start_process", R"x({"command": "sleep 30"})x").content,
            "refused: you already run 4 processes; stop one with stop_process first");
  EXPECT_TRUE(call("stop_process", R"x({"id": "p1"})x").ok);
  ASSERT_TRUE(run_until([&] { return contains(call("list_processes", "{}").content, "p1  stopped"); }));
  EXPECT_TRUE(call("start_process", R"x({"command": "sleep 30", "max_seconds": 1})x").ok);
  ASSERT_TRUE(run_until(
      [&] { return contains(call("list_processes", "{}").content, "p5  killed at the end of its max_seconds"); }));
  policy_.allow = {"sleep *"};
  EXPECT_EQ(call("start_process", R"x({"command": "rm -rf x"})x").content,
            "refused: 'rm -rf x' is outside your allowlist ('sleep *')");
}

TEST_F(ShellTools, ShuttingDownKillsWhatStillRuns) {
  auto started = call("start_process", R"x({"command": "echo $$ > pid.txt; exec sleep 60"})x");
  ASSERT_TRUE(started.ok);
  ASSERT_TRUE(run_until([&] {
    return std::filesystem::exists(workspace_ / "pid.txt") && std::filesystem::file_size(workspace_ / "pid.txt") > 0;
  }));
  std::ifstream in(workspace_ / "pid.txt");
  int pid = 0;
  in >> pid;
  ASSERT_GT(pid, 0);
  EXPECT_EQ(::kill(pid, 0), 0);  // running
  registry_.reset();
  bool gone = false;
  for (int i = 0; i < 500 && !gone; ++i) {
    io_.restart();
    io_.run_for(std::chrono::milliseconds(10));
    // Killed, then reaped by nobody yet or already: either way it no longer runs sleep.
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    std::getline(stat, line);
    gone = !stat || line.find(") Z") != std::string::npos;
  }
  EXPECT_TRUE(gone);
}

}  // namespace
}  // namespace parley::tools
