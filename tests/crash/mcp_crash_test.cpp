// Issue 39: Parley killed with SIGKILL while a member's call to a stdio MCP server is in flight.
// The server's process does not outlive Parley (the stdio supervisor kills its process group),
// and after a restart on the same store the call is not made again: its result in the log says it
// was interrupted by a restart, and the resumed model is shown that. The server is
// tests/mcp/recording_server.mjs, which writes "<pid> <note>" to a file for every call it takes.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "parley/engine/integrity.hpp"
#include "parley/store/store.hpp"

namespace parley {
namespace {

namespace fs = std::filesystem;

fs::path make_mcp_call_workdir() {
  std::random_device device;
  fs::path dir = fs::temp_directory_path() / ("parley-crash-mcp-" + std::to_string(device()));
  fs::create_directories(dir / "workspace");
  std::ofstream(dir / "team.yaml") << "version: 1\nworkspace: workspace\n"
                                      "providers:\n  offline: {kind: scripted, script: script.yaml}\n"
                                      "mcp:\n  servers:\n    recorder:\n      transport: stdio\n"
                                      "      command: node\n      args: ['"
                                   << PARLEY_SOURCE_DIR << "/tests/mcp/recording_server.mjs', calls.txt]\n"
                                   << "      cwd: .\n"
                                      "members:\n  lead: {persona: \"You write.\", provider: offline, model: "
                                      "scripted, toolsets: [recorder]}\n";
  // "all done" only when the model was told of the interruption; the server's own answer would
  // mean the call was made again.
  std::ofstream(dir / "script.yaml") << R"(members:
  lead:
    - when: {last_tool: "was interrupted by a restart of Parley"}
      emit: [{saying: "all done: the write was interrupted, I will check it"}]
    - when: {last_tool: "recorded"}
      emit: [{saying: "the write was made again"}]
    - emit: [{tool_call: {name: slow_write, id: w1, arguments: {note: once, sleep_ms: 60000}}}]
)";
  return dir;
}

std::vector<std::string> mcp_call_lines(const fs::path& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Runs the crash child in its tree mode (start or continue lead's root until it settles); kills it
// once `kill_when` holds (looked at every 5 ms, 30 s at most). Its exit status, or -1 if killed.
int run_mcp_child(const fs::path& dir, const std::function<bool()>& kill_when = {}) {
  const fs::path data = dir / "data";
  const pid_t pid = fork();
  if (pid == 0) {
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, STDOUT_FILENO);
    execl(PARLEY_CRASH_CHILD, PARLEY_CRASH_CHILD, (dir / "team.yaml").c_str(), data.c_str(), "--tree", nullptr);
    kill(getpid(), SIGKILL);  // exec failed: die without running the parent's atexit handlers
  }
  if (kill_when) {
    for (int i = 0; i < 6000 && !kill_when(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    kill(pid, SIGKILL);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// A process that is gone or a zombie (its parent, init, has not reaped it yet) runs nothing.
bool process_runs(const std::string& pid) {
  std::ifstream stat(fs::path("/proc") / pid / "stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const auto paren = text.rfind(')');
  return paren != std::string::npos && text.substr(paren + 2, 1) != "Z";
}

// The processes whose working folder is `folder` (the server runs in the workspace), zombies aside.
std::vector<std::string> processes_in(const fs::path& folder) {
  const auto wanted = fs::canonical(folder);
  std::vector<std::string> found;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    std::error_code ec;
    const auto cwd = fs::read_symlink(entry.path() / "cwd", ec);
    if (!ec && cwd == wanted && process_runs(entry.path().filename().string())) {
      found.push_back(entry.path().filename().string());
    }
  }
  return found;
}

// The server's process is killed by its supervisor, which notices Parley's death at once; a few
// seconds is a generous bound, and the test fails rather than waits when it is not met.
bool gone_within_seconds(const std::string& pid, int seconds) {
  for (int i = 0; i < seconds * 100; ++i) {
    if (!process_runs(pid)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

// processes_in(folder) once it is empty, or as it is after `seconds`.
std::vector<std::string> processes_left_in(const fs::path& folder, int seconds) {
  auto found = processes_in(folder);
  for (int i = 0; i < seconds * 100 && !found.empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    found = processes_in(folder);
  }
  return found;
}

TEST(CrashSafety, ParleyKilledMidMcpCallLeavesNoServerAndTheResumedDialogIsToldTheCallWasInterrupted) {
  const fs::path dir = make_mcp_call_workdir();
  const fs::path calls = dir / "workspace" / "calls.txt";
  const int killed = run_mcp_child(dir, [&] { return !mcp_call_lines(calls).empty(); });
  EXPECT_EQ(killed, -1) << "the child ended before the call reached the server";
  const auto made = mcp_call_lines(calls);
  ASSERT_EQ(made.size(), 1U);
  const std::string server_pid = made[0].substr(0, made[0].find(' '));
  EXPECT_TRUE(gone_within_seconds(server_pid, 10)) << "the MCP server " << server_pid << " outlived Parley";
  EXPECT_EQ(processes_left_in(dir / "workspace", 10), std::vector<std::string>{}) << "a server process is left";

  EXPECT_EQ(run_mcp_child(dir), 0) << "the dialog did not finish after the restart";
  EXPECT_EQ(mcp_call_lines(calls).size(), 1U) << "the server was called again";
  EXPECT_EQ(processes_left_in(dir / "workspace", 10), std::vector<std::string>{}) << "the restart left a server";

  auto log = open_sqlite_store((dir / "data").string());
  ASSERT_TRUE(log.has_value()) << log.err().message;
  const auto roots = (*log)->list_dialogs({}).value();
  ASSERT_EQ(roots.size(), 1U);
  std::vector<events::tool_result> results;
  std::string said;
  for (const auto& ev : (*log)->read_events(roots[0].id, 0).value()) {
    if (const auto* result = ev.as<events::tool_result>()) results.push_back(*result);
    if (const auto* finished = ev.as<events::generation_finished>()) said = finished->saying;
  }
  ASSERT_EQ(results.size(), 1U);
  EXPECT_EQ(results[0].call_id, "w1");
  EXPECT_TRUE(results[0].interrupted);
  EXPECT_FALSE(results[0].ok);
  ASSERT_TRUE(results[0].mcp.has_value());
  EXPECT_EQ(results[0].mcp->server, "recorder");
  EXPECT_EQ(results[0].mcp->tool, "slow_write");
  EXPECT_EQ(said, "all done: the write was interrupted, I will check it") << "what the model was shown";
  auto checked = engine::check_integrity(**log);
  ASSERT_TRUE(checked.has_value());
  for (const auto& problem : checked->problems) ADD_FAILURE() << problem;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace parley
