// Kills a flow (the YAML article agent, SQLite store, slow scripted model) with SIGKILL at random
// points, a third of them while the reviewer answers inside the nested review sub-thread, restarts it each time, and
// requires the end result to be the uninterrupted run's: every phase continued from its last durable step, nothing
// written twice. After each kill the log must read back as a whole thread.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <string>
#include <thread>

#include <boost/asio/io_context.hpp>

#include "parley/flow/thread_repository.hpp"

namespace parley {
namespace {

namespace fs = std::filesystem;
using std::chrono::steady_clock;

constexpr int kKills = 24;
const fs::path kAgent = fs::path(PARLEY_SOURCE_DIR) / "examples/flows/article_creation";

fs::path make_workdir() {
  std::random_device device;
  fs::path dir = fs::temp_directory_path() / ("parley-flow-crash-" + std::to_string(device()));
  fs::create_directories(dir);
  // Slow enough that kills land inside each model call; the review is the longest.
  std::ofstream(dir / "script.yaml") << R"(chunk_size: 4
delay_ms: 2
members:
  "*":
    - when: {system: "Ask, in one short message"}
      emit: [{saying: "What topic, and who reads it?"}]
    - when: {system: "You draft article outlines"}
      emit: [{saying: "1. Why tea matters 2. Choosing leaves 3. Brewing"}]
    - when: {system: "You review article outlines"}
      emit: [{saying: "- Missing: a closing summary. - Brewing should come before the cups. - Add a glossary for beginners."}]
    - when: {system: "You write the article"}
      emit: [{saying: "Tea for beginners: the article."}]
)";
  return dir;
}

// When to kill a child: `delay` after it printed a line holding `after_line`, or after it started
// when that is empty.
struct kill_plan {
  std::string after_line;
  std::chrono::microseconds delay{0};
};

// Reads the child's output until a line holding `needle` has arrived (true) or the pipe ends.
bool read_until_line(int fd, std::string& output, const std::string& needle) {
  std::size_t line_start = 0;
  char buffer[512];
  for (ssize_t n; (n = read(fd, buffer, sizeof buffer)) > 0;) {
    output.append(buffer, static_cast<std::size_t>(n));
    for (std::size_t end; (end = output.find('\n', line_start)) != std::string::npos; line_start = end + 1) {
      if (output.substr(line_start, end - line_start).find(needle) != std::string::npos) return true;
    }
  }
  return false;
}

// Runs the child; kills it as `plan` says (or lets it finish). True when it printed DONE.
bool run_child(const fs::path& dir, const fs::path& data, const std::optional<kill_plan>& plan) {
  int pipe_fds[2];
  EXPECT_EQ(pipe(pipe_fds), 0);
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(pipe_fds[1], STDOUT_FILENO);
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    execl(PARLEY_FLOW_CRASH_CHILD, PARLEY_FLOW_CRASH_CHILD, kAgent.c_str(), (dir / "script.yaml").c_str(), data.c_str(),
          nullptr);
    kill(getpid(), SIGKILL);
  }
  close(pipe_fds[1]);
  std::string output;
  if (plan) {
    if (plan->after_line.empty() || read_until_line(pipe_fds[0], output, plan->after_line)) {
      std::this_thread::sleep_for(plan->delay);
      kill(pid, SIGKILL);
    }
  }
  char buffer[512];
  for (ssize_t n; (n = read(pipe_fds[0], buffer, sizeof buffer)) > 0;)
    output.append(buffer, static_cast<std::size_t>(n));
  close(pipe_fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 && output.find("DONE") != std::string::npos;
}

// The thread without what differs between runs (ids, times): senders, texts, phases, nesting.
std::string shape(const flow::flow_thread& thread, int depth = 0) {
  std::string out = std::string(static_cast<std::size_t>(depth) * 2, ' ') + "[" + thread.settings.phase + "]\n";
  for (const auto& message : thread.messages) {
    out += std::string(static_cast<std::size_t>(depth) * 2, ' ') + message.sender + ": " + message.text + "\n";
    if (message.sub_thread) out += shape(*message.sub_thread, depth + 1);
  }
  return out;
}

std::optional<flow::flow_thread> stored_thread(const fs::path& data) {
  auto log = open_sqlite_store(data.string());
  EXPECT_TRUE(log.has_value()) << log.err().message;
  if (!log) return std::nullopt;
  dialog_filter roots;
  roots.roots_only = true;
  auto rows = (*log)->list_dialogs(roots).value();
  if (rows.empty()) return std::nullopt;
  boost::asio::io_context io;
  flow::thread_repository repository(**log, io.get_executor());
  auto thread = repository.load_thread(rows.front().id);
  EXPECT_TRUE(thread) << thread.err().message;
  if (!thread) return std::nullopt;
  return std::move(*thread);
}

// Inside the nested review: its sub-thread exists and has not completed.
bool inside_nested(const flow::flow_thread& main) {
  for (const auto& message : main.messages) {
    if (!message.sub_thread) continue;
    for (const auto& inner : message.sub_thread->messages) {
      if (inner.sub_thread && inner.sub_thread->settings.phase != flow::kCompletedPhase) return true;
    }
  }
  return false;
}

TEST(FlowCrashSafety, AFlowKilledAtRandomPointsGoesOnFromItsLastDurableStepWithNothingTwice) {
  const fs::path dir = make_workdir();
  const auto started = steady_clock::now();
  ASSERT_TRUE(run_child(dir, dir / "reference", std::nullopt));
  const auto full_run = std::chrono::duration_cast<std::chrono::microseconds>(steady_clock::now() - started);
  const auto reference = stored_thread(dir / "reference");
  ASSERT_TRUE(reference);
  const std::string expected = shape(*reference);

  std::mt19937 random(20261126);
  std::uniform_int_distribution<std::int64_t> when(0, full_run.count());
  // The review's answer streams for about 50 ms (25 chunks, 2 ms apart); killed within it, the
  // nested sub-thread is open.
  std::uniform_int_distribution<std::int64_t> within_review(0, 30'000);
  const auto at_random = [&](std::int64_t divisor) {
    return kill_plan{"", std::chrono::microseconds(when(random) / divisor)};
  };
  int in_nested = 0;
  for (int kill_number = 0; kill_number < kKills; ++kill_number) {
    SCOPED_TRACE("kill " + std::to_string(kill_number));
    const fs::path data = dir / ("killed-" + std::to_string(kill_number));
    // Killed once at a random point — every third time while the reviewer answers in the nested
    // sub-thread, since random times alone may all miss it on a slow machine — then killed again
    // in the restarted run half the time.
    const kill_plan first = kill_number % 3 == 2
                                ? kill_plan{"CALL You review", std::chrono::microseconds(within_review(random))}
                                : at_random(1);
    run_child(dir, data, first);
    if (auto after_kill = stored_thread(data)) in_nested += inside_nested(*after_kill) ? 1 : 0;
    if (kill_number % 2 == 1) {
      run_child(dir, data, at_random(2));
      if (auto after_kill = stored_thread(data)) in_nested += inside_nested(*after_kill) ? 1 : 0;
    }
    ASSERT_TRUE(run_child(dir, data, std::nullopt)) << "the restarted flow did not finish";
    const auto finished = stored_thread(data);
    ASSERT_TRUE(finished);
    EXPECT_EQ(shape(*finished), expected);
  }
  EXPECT_GE(in_nested, 2) << "too few kills landed inside the nested sub-thread";
  fs::remove_all(dir);
}

}  // namespace
}  // namespace parley
