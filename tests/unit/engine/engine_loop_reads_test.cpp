// No store read of the engine runs on the thread that runs the io_context once it is given a read
// thread (dialog_host::set_reads). Real Tellask dialogs are driven through the scripted model with
// a loaded-dialog limit of one, so callers and callees are dropped from memory mid-task, and across
// a restart: a Type B session resumed, a Type C callee's question answered by a human, its
// tellaskBack to a caller that is not in memory, a final saying delivered to a caller that is not
// in memory, and a reflection opened with its records session. Every read of the store — a dialog's events, its
// row, the list of dialogs, a msgId, its messages, the records — notes the thread it ran on, and
// the dialogs must end with the same log as an engine without the limit leaves.
#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <mutex>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "engine_test_support.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/engine.hpp"
#include "parley/engine/store_reads.hpp"
#include "support/read_journal_store.hpp"

namespace parley::engine {
namespace {

namespace asio = boost::asio;
using testing::temp_team;

using journaling_store = parley::test::journaling_store;

constexpr const char* kLoopReadsTeam =
    "version: 1\nproviders:\n  offline: {kind: scripted, script: script.yaml}\n"
    "members:\n"
    "  lead: {persona: \"You lead.\", provider: offline, model: m, toolsets: [basic], self_reflection: true}\n"
    "  helper: {persona: \"You help.\", provider: offline, model: m, toolsets: [basic]}\n";

// The lead sends a Type B session two tasks, then a Type C callee one it cannot do alone; the
// callee asks the human, then its tellasker (tellaskBack), and replies. In a second root a Type C
// callee asks the human and, answered, replies at once. Rules on a tool's result come first: a
// reply is the last tool result after the task.
constexpr const char* kScript =
    "members:\n"
    "  lead:\n"
    "    - when: {last_tool: \"which format\"}\n      emit: [{saying: \"format-plain\"}]\n"
    "    - when: {last_tool: \"helper-done\"}\n      emit: [{saying: \"lead-done\"}]\n"
    "    - when: {last_user: \"first\"}\n"
    "      emit: [{tool_call: {name: tellask, arguments: {targetAgentId: helper, sessionSlug: s1, "
    "tellaskContent: \"count one\"}}}]\n"
    "    - when: {last_user: \"second\"}\n"
    "      emit: [{tool_call: {name: tellask, arguments: {targetAgentId: helper, sessionSlug: s1, "
    "tellaskContent: \"count two\"}}}]\n"
    "    - when: {last_user: \"third\"}\n"
    "      emit: [{tool_call: {name: tellaskSessionless, arguments: {targetAgentId: helper, "
    "tellaskContent: \"ask a human\"}}}]\n"
    "    - when: {last_user: \"fifth\"}\n"
    "      emit: [{tool_call: {name: tellaskSessionless, arguments: {targetAgentId: helper, "
    "tellaskContent: \"pick a color\"}}}]\n"
    "    - emit: [{saying: \"reflected\"}]\n"
    "  helper:\n"
    "    - when: {last_tool: \"blue\"}\n      emit: [{saying: \"helper-done blue\"}]\n"
    "    - when: {last_tool: \"format-plain\"}\n      emit: [{saying: \"helper-done three\"}]\n"
    "    - when: {last_tool: \"42\"}\n"
    "      emit: [{tool_call: {name: tellaskBack, arguments: {tellaskContent: \"which format?\"}}}]\n"
    "    - when: {last_user: \"count one\"}\n      emit: [{saying: \"helper-done one\"}]\n"
    "    - when: {last_user: \"count two\"}\n      emit: [{saying: \"helper-done two\"}]\n"
    "    - when: {last_user: \"ask a human\"}\n"
    "      emit: [{tool_call: {name: askHuman, arguments: {tellaskContent: \"what number?\"}}}]\n"
    "    - when: {last_user: \"pick a color\"}\n"
    "      emit: [{tool_call: {name: askHuman, arguments: {tellaskContent: \"what color?\"}}}]\n";

struct engine_loop_reads : ::testing::Test {
  struct run {
    std::filesystem::path dir;
    std::unique_ptr<journaling_store> log;
    std::vector<std::string> roots;
    std::vector<std::string> reads_on_loop;
    std::size_t event_reads = 0;  // dialogs read back into memory
  };

  engine_loop_reads() {
    std::random_device device;
    base = std::filesystem::temp_directory_path() / ("parley-loop-reads-" + std::to_string(device()));
  }
  ~engine_loop_reads() override { std::filesystem::remove_all(base); }
  engine_loop_reads(const engine_loop_reads&) = delete;
  engine_loop_reads& operator=(const engine_loop_reads&) = delete;

  std::unique_ptr<engine> make_engine(asio::io_context& io, store& log) {
    auto team = files.load();
    auto made = engine::create(io.get_executor(), log, team, build_providers(team).value(), build_builtin_tools());
    EXPECT_TRUE(made.has_value()) << made.err().message;
    return made ? std::move(*made) : nullptr;
  }

  // The whole scenario, in two processes (engines) over one store. `limit`: the loaded-dialog
  // limit (0: the default); `off_loop`: whether the engines are given a read thread.
  run drive_scenario(const std::string& name, std::size_t limit, bool off_loop) {
    run out;
    out.dir = base / name;
    std::filesystem::create_directories(out.dir);
    out.log = std::make_unique<journaling_store>(open_sqlite_store(out.dir.string()).value());
    auto& log = *out.log;
    log.journal().watch(false);  // the set-up's reads are not the engine's
    store_reads reads;
    const auto loop = std::this_thread::get_id();
    std::vector<user_answer> answers;
    {  // The first process: the Type B session twice, then the Type C callee that asks the human.
      asio::io_context io;
      auto eng = make_engine(io, log);
      if (limit > 0) eng->dialogs().set_limit(limit);
      if (off_loop) eng->dialogs().set_reads(&reads);
      log.journal().watch(true);
      asio::co_spawn(
          io,
          [&]() -> asio::awaitable<void> {
            new_dialog spec{"lead", "", ""};
            spec.first_message = "first task";
            auto id = co_await eng->create_root_dialog(std::move(spec));
            EXPECT_TRUE(id.has_value()) << id.err().message;
            if (!id) co_return;
            out.roots.push_back(*id);
            co_await eng->runs().wait_until_settled(*id);
            for (const char* task : {"second task", "third task"}) {
              auto posted = co_await eng->post_user_message(*id, task, "", "ann");
              EXPECT_TRUE(posted.has_value()) << task << ": " << posted.err().message;
              co_await eng->runs().wait_until_settled(*id);
            }
            new_dialog other{"lead", "", ""};
            other.first_message = "fifth task";
            auto second_root = co_await eng->create_root_dialog(std::move(other));
            EXPECT_TRUE(second_root.has_value()) << second_root.err().message;
            if (!second_root) co_return;
            out.roots.push_back(*second_root);
            co_await eng->runs().wait_until_settled(*second_root);
          },
          asio::detached);
      io.run();
      log.journal().watch(false);
    }
    {  // After a restart nothing is in memory: the answer, the tellaskBack, the replies, a reflection.
      asio::io_context io;
      auto eng = make_engine(io, log);
      if (limit > 0) eng->dialogs().set_limit(limit);
      if (off_loop) eng->dialogs().set_reads(&reads);
      log.journal().watch(true);
      asio::co_spawn(
          io,
          [&]() -> asio::awaitable<void> {
            // The server's awaitable views read on the read thread too.
            auto open = co_await eng->questions().open_questions_async();
            EXPECT_TRUE(open.has_value() && open->size() == 2U) << name << ": both callees ask the human";
            if (!open) co_return;
            for (const auto& asked : *open) {
              user_answer answer;
              answer.dialog = asked.dialog.id;
              answer.question_id = asked.question.id;
              answer.content = asked.question.tellask_content == "what number?" ? "42" : "blue";
              answer.from = "ann";
              answers.push_back(std::move(answer));
            }
            auto registry = co_await eng->registry_async(out.roots.front());
            EXPECT_TRUE(registry.has_value() && registry->size() == 1U && registry->front().key == "helper!s1");
            for (auto& answer : answers) {
              auto answered = co_await eng->questions().answer_question(answer);
              EXPECT_TRUE(answered.has_value()) << answered.err().message;
            }
            for (const auto& root : out.roots) {
              co_await eng->runs().wait_until_settled(root);
            }
            auto reflection = co_await eng->start_reflection("lead", "api", "zebra review");
            EXPECT_TRUE(reflection.has_value()) << reflection.err().message;
            if (reflection) {
              co_await eng->runs().wait_until_settled(reflection->dialog_id);
            }
            const auto resumable = co_await eng->runs().resumable_dialogs_async();
            EXPECT_EQ(resumable, std::vector<std::string>{}) << "all done";
          },
          asio::detached);
      io.run();
      log.journal().watch(false);
    }
    out.reads_on_loop = log.journal().on(loop);
    out.event_reads = log.journal().count("read_events");
    return out;
  }

  // What each dialog of the store said and did, without ids or times, sorted: two runs that did
  // the same work compare equal.
  static std::vector<std::string> shape_of(store& log) {
    std::vector<std::string> shapes;
    auto rows = log.list_dialogs({});
    EXPECT_TRUE(rows.has_value());
    if (!rows) return shapes;
    for (const auto& row : *rows) {
      std::string shape = row.member_id + " " + std::string(events::to_wire(row.kind)) + " " +
                          std::string(events::to_wire(row.status)) + ":";
      auto logged = log.read_events(row.id);
      EXPECT_TRUE(logged.has_value());
      if (logged) {
        for (const auto& ev : *logged) shape += " " + std::string(ev.type());
      }
      for (std::int64_t course = 1; course <= row.course; ++course) {
        auto said = log.messages(row.id, course);
        EXPECT_TRUE(said.has_value());
        if (!said) continue;
        for (const auto& message : *said)
          shape += "\n  " + std::string(parley::events::to_wire(message.role)) + ": " + message.content;
      }
      shapes.push_back(std::move(shape));
    }
    std::sort(shapes.begin(), shapes.end());
    return shapes;
  }

  temp_team files{kLoopReadsTeam, kScript};
  std::filesystem::path base;
};
using EngineLoopReads = engine_loop_reads;

TEST_F(EngineLoopReads, TellaskDialogsUnloadedMidTaskAndAfterARestartReadNothingOnTheLoop) {
  auto unloaded = drive_scenario("unloaded", 1, true);
  EXPECT_EQ(unloaded.reads_on_loop, std::vector<std::string>{}) << "reads made on the io_context's thread";

  auto kept = drive_scenario("kept", 0, false);
  // Past the limit, dialogs went and came back mid-task: more of them were read than after the
  // restart alone.
  EXPECT_GT(unloaded.event_reads, kept.event_reads);
  const auto shape = shape_of(*unloaded.log);
  EXPECT_EQ(shape, shape_of(*kept.log));
  // The work was done: every reply reached its caller, and the reflection answered.
  ASSERT_EQ(shape.size(), 6U);  // two roots, a Type B session, two Type C callees, the reflection
  const auto said = [&shape](const std::string& text) {
    return std::any_of(shape.begin(), shape.end(),
                       [&text](const std::string& one) { return one.find(text) != std::string::npos; });
  };
  for (const char* text : {"helper-done one", "helper-done two", "which format?", "format-plain", "helper-done three",
                           "lead-done", "reflected"}) {
    EXPECT_TRUE(said(text)) << text;
  }
}

}  // namespace
}  // namespace parley::engine
