// Kills a dialog-driving process with SIGKILL at 50 random points. After each kill the store is
// reopened (the restart) and must hold a prefix of an uninterrupted run's log (ids and times
// aside), every event the child acknowledged, and projections that rebuild identically. A process
// killed after a tool call's effect and before its result is durable runs the call again on
// restart, with the same idempotency key.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/json/serialize.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include "parley/engine/integrity.hpp"
#include "parley/model/event_codec.hpp"
#include "parley/store/store.hpp"

namespace parley {
namespace {

namespace fs = std::filesystem;
using std::chrono::steady_clock;

constexpr int kRounds = 40;
constexpr int kKills = 50;

fs::path make_workdir() {
  std::random_device device;
  fs::path dir = fs::temp_directory_path() / ("parley-crash-" + std::to_string(device()));
  fs::create_directories(dir / "workspace");
  std::ofstream(dir / "team.yaml") << "version: 1\nworkspace: workspace\n"
                                      "providers:\n  offline: {kind: scripted, script: script.yaml}\n"
                                      "members:\n  worker:\n    persona: \"You count.\"\n    provider: offline\n"
                                      "    model: scripted\n    toolsets: [basic]\n    max_tool_rounds: 100\n";
  std::ofstream script(dir / "script.yaml");
  script << "chunk_size: 4\ndelay_ms: 1\nmembers:\n  worker:\n";
  script << "    - when: {round: " << kRounds << "}\n      emit: [{saying: \"finished counting\"}]\n";
  script << "    - emit:\n        - thinking: \"next number please\"\n"
            "        - saying: \"counting on\"\n"
            "        - tool_call: {name: calculate, arguments: {expression: \"{{round}} + 1\"}}\n";
  return dir;
}

struct child_run {
  std::vector<std::pair<std::string, std::int64_t>> acks;
  bool exited_normally = false;
};

// Starts the child; kills it after `kill_after`, or once `kill_when` holds (looked at every 5 ms,
// for 30 s at most), or lets it finish when neither is given.
child_run run_child(const fs::path& dir, const fs::path& data, std::optional<std::chrono::microseconds> kill_after,
                    bool tree = false, const std::function<bool()>& kill_when = {}) {
  int pipe_fds[2];
  EXPECT_EQ(pipe(pipe_fds), 0);
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(pipe_fds[1], STDOUT_FILENO);
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    const char* mode = tree ? "--tree" : nullptr;
    execl(PARLEY_CRASH_CHILD, PARLEY_CRASH_CHILD, (dir / "team.yaml").c_str(), data.c_str(), mode, nullptr);
    kill(getpid(), SIGKILL);  // exec failed: die without running the parent's atexit handlers
  }
  close(pipe_fds[1]);
  if (kill_after) {
    std::this_thread::sleep_for(*kill_after);
    kill(pid, SIGKILL);
  } else if (kill_when) {
    for (int i = 0; i < 6000 && !kill_when(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    kill(pid, SIGKILL);
  }
  std::string output;
  char buffer[4096];
  for (ssize_t n; (n = read(pipe_fds[0], buffer, sizeof buffer)) > 0;)
    output.append(buffer, static_cast<std::size_t>(n));
  close(pipe_fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  child_run run;
  run.exited_normally = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  std::istringstream lines(output);
  std::string word, dialog;
  std::int64_t seq = 0;
  // Only complete lines count: a line cut by the kill was never fully acknowledged.
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    if (fields >> word >> dialog >> seq && word == "ACK") run.acks.emplace_back(dialog, seq);
  }
  return run;
}

// The log without what legitimately differs between runs: dialog ids, message ids, times.
std::vector<std::string> normalized_log(store& log) {
  std::vector<std::string> out;
  for (auto ev : log.read_all_events().value()) {
    auto wire = encode_payload(ev.payload);
    wire.erase("msgId");
    out.push_back(std::string(ev.type()) + " " + std::to_string(ev.seq) + " " + boost::json::serialize(wire));
  }
  return out;
}

struct projections {
  std::vector<dialog_row> dialogs;
  std::vector<std::vector<message_row>> messages;
  bool operator==(const projections&) const = default;
};

projections dump(store& log) {
  projections out;
  out.dialogs = log.list_dialogs({}).value();
  for (const auto& row : out.dialogs) out.messages.push_back(log.messages(row.id, 0).value());
  return out;
}

TEST(CrashSafety, SigkillAtFiftyRandomPointsLosesNothingAcknowledged) {
  const fs::path dir = make_workdir();
  const auto started = steady_clock::now();
  const child_run reference = run_child(dir, dir / "reference", std::nullopt);
  const auto full_run = std::chrono::duration_cast<std::chrono::microseconds>(steady_clock::now() - started);
  ASSERT_TRUE(reference.exited_normally);
  std::vector<std::string> reference_log;
  {
    auto log = open_sqlite_store((dir / "reference").string());
    ASSERT_TRUE(log.has_value()) << log.err().message;
    reference_log = normalized_log(**log);
  }
  ASSERT_EQ(reference_log.size(), reference.acks.size());
  ASSERT_GT(reference_log.size(), static_cast<std::size_t>(kRounds * 3));

  std::mt19937 random(20261122);
  std::uniform_int_distribution<std::int64_t> when(0, full_run.count());
  std::set<std::size_t> prefix_lengths;
  for (int kill_number = 0; kill_number < kKills; ++kill_number) {
    SCOPED_TRACE("kill " + std::to_string(kill_number));
    const fs::path data = dir / ("killed-" + std::to_string(kill_number));
    const child_run killed = run_child(dir, data, std::chrono::microseconds(when(random)));
    if (!fs::exists(data / "parley.db")) {
      EXPECT_TRUE(killed.acks.empty()) << "acknowledged events but created no database";
      prefix_lengths.insert(0);
      continue;
    }
    auto log = open_sqlite_store(data.string());  // the restart
    ASSERT_TRUE(log.has_value()) << log.err().message;
    const auto stored = normalized_log(**log);
    ASSERT_LE(stored.size(), reference_log.size());
    for (std::size_t i = 0; i < stored.size(); ++i) ASSERT_EQ(stored[i], reference_log[i]) << "event " << i;
    prefix_lengths.insert(stored.size());

    std::set<std::pair<std::string, std::int64_t>> present;
    for (const auto& ev : (*log)->read_all_events().value()) present.emplace(ev.dialog_id, ev.seq);
    for (const auto& ack : killed.acks)
      EXPECT_EQ(present.count(ack), 1U) << "acknowledged seq " << ack.second << " lost";

    const projections live = dump(**log);
    ASSERT_TRUE((*log)->rebuild_projections().has_value());
    EXPECT_TRUE(live == dump(**log)) << "projections after the crash differ from a rebuild";
  }
  // The kills must have landed at many different points, not all before or after the run.
  EXPECT_GE(prefix_lengths.size(), 10U);
  fs::remove_all(dir);
}

// A fresh folder with a team of a scripted lead and a worker described by `worker` (its persona
// and tools), and the script both follow.
fs::path make_team_workdir(const std::string& name, const std::string& worker, const std::string& script) {
  std::random_device device;
  fs::path dir = fs::temp_directory_path() / ("parley-crash-" + name + "-" + std::to_string(device()));
  fs::create_directories(dir / "workspace");
  std::ofstream(dir / "team.yaml") << R"(version: 1
workspace: workspace
providers:
  offline: {kind: scripted, script: script.yaml}
members:
  lead: {persona: "You lead.", provider: offline, model: scripted}
  worker: {)" << worker << R"(, provider: offline, model: scripted}
)";
  std::ofstream(dir / "script.yaml") << script;
  return dir;
}

fs::path make_tree_workdir() {
  return make_team_workdir("tree", R"(persona: "You add.", toolsets: [basic], max_tool_rounds: 50)", R"(chunk_size: 3
delay_ms: 1
members:
  lead:
    - when: {last_tool: "【最终完成】"}
      emit: [{saying: "all done"}]
    - emit:
        - thinking: "three workers"
        - tool_call: {name: tellaskSessionless, arguments: {targetAgentId: worker, tellaskContent: "a"}}
        - tool_call: {name: tellaskSessionless, arguments: {targetAgentId: worker, tellaskContent: "b"}}
        - tool_call: {name: tellask, arguments: {targetAgentId: worker, sessionSlug: c, tellaskContent: "c"}}
  worker:
    - when: {last_tool: "6"}
      emit: [{saying: "【最终完成】\nsummed"}]
    - when: {last_tool_regex: "^([0-9]+)$"}
      emit:
        - saying: "adding more"
        - tool_call: {name: calculate, arguments: {expression: "{{capture.1}} + 1"}}
    - emit:
        - saying: "starting"
        - tool_call: {name: calculate, arguments: {expression: "1 + 1"}}
)");
}

// Seed 001 crash recovery: kill a process driving a root with three concurrent subdialogs at a
// random moment, restart it on the same store, and the hierarchy finishes from the log: nothing
// acknowledged is lost, no subdialog is stuck or lost, and `parley check` finds nothing off.
TEST(CrashSafety, AHierarchyKilledAnywhereFinishesAfterARestart) {
  const fs::path dir = make_tree_workdir();
  const auto started = steady_clock::now();
  const child_run reference = run_child(dir, dir / "reference", std::nullopt, true);
  const auto full_run = std::chrono::duration_cast<std::chrono::microseconds>(steady_clock::now() - started);
  ASSERT_TRUE(reference.exited_normally);
  std::mt19937 random(20261123);
  std::uniform_int_distribution<std::int64_t> when(0, full_run.count());
  for (int kill_number = 0; kill_number < 12; ++kill_number) {
    SCOPED_TRACE("kill " + std::to_string(kill_number));
    const fs::path data = dir / ("killed-" + std::to_string(kill_number));
    const child_run killed = run_child(dir, data, std::chrono::microseconds(when(random)), true);
    const child_run restarted = run_child(dir, data, std::nullopt, true);
    EXPECT_TRUE(restarted.exited_normally) << "the hierarchy did not finish after the restart";
    auto log = open_sqlite_store(data.string());
    ASSERT_TRUE(log.has_value()) << log.err().message;
    std::set<std::pair<std::string, std::int64_t>> present;
    for (const auto& ev : (*log)->read_all_events().value()) present.emplace(ev.dialog_id, ev.seq);
    for (const auto& ack : killed.acks) {
      EXPECT_EQ(present.count(ack), 1U) << "acknowledged seq " << ack.second << " lost";
    }
    const auto dialogs = (*log)->list_dialogs({}).value();
    EXPECT_EQ(dialogs.size(), 4U) << "one root and three subdialogs";
    for (const auto& row : dialogs) {
      EXPECT_EQ(row.pending_subdialogs, 0) << row.id;
      EXPECT_FALSE(row.generating) << row.id;
      EXPECT_EQ(row.last_error, "") << row.id;
    }
    auto checked = engine::check_integrity(**log);
    ASSERT_TRUE(checked.has_value());
    for (const auto& problem : checked->problems) ADD_FAILURE() << problem;
  }
  fs::remove_all(dir);
}

// A subdialog's shell command appends its call's idempotency key to keys.txt, then takes a second
// before it answers: the process is killed in that second, after the effect and before the
// result is durable.
fs::path make_effect_workdir() {
  return make_team_workdir("effect", R"(persona: "You deploy.", toolsets: [shell])", R"(members:
  lead:
    - when: {last_tool: "【最终完成】"}
      emit: [{saying: "all done"}]
    - emit: [{tool_call: {name: tellaskSessionless, arguments: {targetAgentId: worker, tellaskContent: "deploy"}}}]
  worker:
    - when: {last_tool: "deployed"}
      emit: [{saying: "【最终完成】\nit is out"}]
    - emit:
        - tool_call: {name: shell_cmd, arguments: {command: 'echo "$PARLEY_IDEMPOTENCY_KEY" >> keys.txt; sleep 1; echo deployed'}}
)");
}

std::vector<std::string> lines_of(const fs::path& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Issue 38: a call with effects whose process died before its result was durable is run again by
// the next process on the store, with the key it had — root, subdialog, generation and call id,
// all read from the log — so the effect can be deduplicated.
TEST(CrashSafety, ACallKilledAfterItsEffectRunsAgainAfterARestartWithTheSameKey) {
  const fs::path dir = make_effect_workdir();
  const fs::path data = dir / "data";
  const fs::path keys = dir / "workspace" / "keys.txt";
  const auto effect_done = [&] { return !lines_of(keys).empty(); };
  const child_run killed = run_child(dir, data, std::nullopt, true, effect_done);
  EXPECT_FALSE(killed.exited_normally);
  ASSERT_EQ(lines_of(keys).size(), 1U);
  const child_run restarted = run_child(dir, data, std::nullopt, true);
  EXPECT_TRUE(restarted.exited_normally) << "the tree did not finish after the restart";

  auto log = open_sqlite_store(data.string());
  ASSERT_TRUE(log.has_value()) << log.err().message;
  std::string root, sub;
  for (const auto& row : (*log)->list_dialogs({}).value()) (row.parent_id.empty() ? root : sub) = row.id;
  ASSERT_FALSE(root.empty());
  ASSERT_FALSE(sub.empty());
  EXPECT_EQ(lines_of(keys),
            (std::vector<std::string>{root + "/" + sub + "/1.1/call_1_1", root + "/" + sub + "/1.1/call_1_1"}));
  std::size_t results = 0;
  for (const auto& ev : (*log)->read_events(sub, 0).value()) results += ev.is<events::tool_result>() ? 1 : 0;
  EXPECT_EQ(results, 1U) << "the effect ran twice, its answer is in the log once";
  auto checked = engine::check_integrity(**log);
  ASSERT_TRUE(checked.has_value());
  for (const auto& problem : checked->problems) ADD_FAILURE() << problem;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace parley
