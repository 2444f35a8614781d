// MCP calls in the log (issue 39, item 3): a result of an MCP tool names its server, the server's
// own name for the tool and the call's duration; a call a crash left without a result is not run
// again (MCP has no place for an idempotency key) but answered as interrupted, which the resumed
// model reads; a built-in tool with effects is still run again. The server is
// tests/mcp/recording_server.mjs, which counts the calls it was given in a file.
#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <string>
#include <vector>

#include "engine_test_support.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/engine.hpp"
#include "parley/model/event.hpp"

namespace parley::engine {
namespace {

namespace asio = boost::asio;
using testing::temp_team;

const std::string kRecordingServer = std::string(PARLEY_SOURCE_DIR) + "/tests/mcp/recording_server.mjs";

// The server's tools are offered with the prefix `rec_`: the log keeps the server's own name.
std::string recorder_team_yaml() {
  return "version: 1\nworkspace: .\nproviders:\n  offline: {kind: scripted, script: script.yaml}\n"
         "mcp:\n  servers:\n    recorder:\n      transport: stdio\n      command: node\n      args: ['" +
         kRecordingServer +
         "', calls.txt]\n      cwd: .\n      transform: [{prefix: rec_}]\n"
         "members:\n  lead: {persona: p, provider: offline, model: m, toolsets: [recorder, shell]}\n";
}

std::vector<std::string> durable_lines_of(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<events::tool_result> durable_results(store& log, const std::string& id) {
  std::vector<events::tool_result> out;
  for (const auto& ev : log.read_events(id, 0).value()) {
    if (const auto* result = ev.as<events::tool_result>()) out.push_back(*result);
  }
  return out;
}

std::string durable_final_saying(store& log, const std::string& id) {
  std::string said;
  for (const auto& ev : log.read_events(id, 0).value()) {
    if (const auto* finished = ev.as<events::generation_finished>()) said = finished->saying;
  }
  return said;
}

// Creates lead's root with `message` on `log` and drives it until it rests; stops the servers then.
std::string drive_new_root(const temp_team& files, store& log, const std::string& message) {
  asio::io_context io;
  auto eng = engine::create(io.get_executor(), log, files.load(), build_providers(files.load()).value(),
                            build_builtin_tools());
  EXPECT_TRUE(eng) << (eng ? "" : eng.err().message);
  if (!eng) return {};
  std::string id;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        new_dialog spec{"lead", "", ""};
        spec.first_message = message;
        id = (co_await (*eng)->create_root_dialog(std::move(spec))).value();
        co_await (*eng)->runs().wait_until_idle(id);
        (*eng)->stop_mcp();
      },
      asio::detached);
  io.run();
  return id;
}

// A second process on the same log: recovers what is owed and drives `id` until it rests.
void recover_on(const temp_team& files, store& log, const std::string& id) {
  asio::io_context io;
  auto eng = engine::create(io.get_executor(), log, files.load(), build_providers(files.load()).value(),
                            build_builtin_tools());
  ASSERT_TRUE(eng) << eng.err().message;
  ASSERT_EQ((*eng)->runs().recover_all().value(), 1U);
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        co_await (*eng)->runs().wait_until_idle(id);
        (*eng)->stop_mcp();
      },
      asio::detached);
  io.run();
  log.flush();
}

// While `dying` is set, refuses every batch that holds a tool result: the log a process leaves
// when it dies after its call reached the tool and before the call's result is durable.
class result_losing_store final : public testing::forwarding_store {
 public:
  std::atomic<bool> dying{true};

  void append(std::vector<event> batch, append_callback on_durable) override {
    const bool has_result =
        std::any_of(batch.begin(), batch.end(), [](const event& ev) { return ev.is<events::tool_result>(); });
    if (dying && has_result) {
      if (on_durable) on_durable(make_error(errc::io_error, "the process died (injected)"));
      return;
    }
    forwarding_store::append(std::move(batch), std::move(on_durable));
  }
};

TEST(McpDurable, AnMcpToolsResultNamesItsServerItsToolAndTheCallsDuration) {
  temp_team files(recorder_team_yaml(), R"(members:
  lead:
    - when: {round: 1}
      emit: [{tool_call: {name: rec_slow_write, arguments: {note: one, sleep_ms: 30}}}]
    - when: {round: 2}
      emit: [{tool_call: {name: shell_cmd, arguments: {command: "echo built-in"}}}]
    - emit: [{saying: "Done."}]
)");
  auto log = make_memory_store();
  const auto id = drive_new_root(files, *log, "Go.");
  const auto results = durable_results(*log, id);
  ASSERT_EQ(results.size(), 2U);
  EXPECT_EQ(results[0].name, "rec_slow_write");
  EXPECT_TRUE(results[0].ok) << results[0].content;
  EXPECT_EQ(results[0].content, "recorded one");
  ASSERT_TRUE(results[0].mcp.has_value());
  EXPECT_EQ(results[0].mcp->server, "recorder");
  EXPECT_EQ(results[0].mcp->tool, "slow_write") << "the server's own name, not the team's";
  ASSERT_TRUE(results[0].mcp->duration_ms.has_value());
  EXPECT_GE(*results[0].mcp->duration_ms, 30) << "the server waited 30 ms before it answered";
  EXPECT_FALSE(results[0].interrupted);
  EXPECT_FALSE(results[1].mcp.has_value()) << "a built-in tool has no MCP call: " << results[1].content;
  EXPECT_EQ(durable_final_saying(*log, id), "Done.");
}

// The first process calls the server and dies before the result is durable; the second finds the
// call owed, records it as interrupted without calling the server, and the model — which answers
// "It ran again." only if it is shown the server's answer — reads the interruption.
TEST(McpDurable, ACallLeftWithoutAResultByACrashIsRecordedInterruptedAndNotRunAgain) {
  temp_team files(recorder_team_yaml(), R"(members:
  lead:
    - when: {last_tool: "was interrupted by a restart of Parley"}
      emit: [{saying: "Told it was interrupted."}]
    - when: {last_tool: "recorded"}
      emit: [{saying: "It ran again."}]
    - emit: [{tool_call: {name: rec_slow_write, id: m1, arguments: {note: once, sleep_ms: 0}}}]
)");
  result_losing_store log;
  const auto id = drive_new_root(files, log, "Go.");
  const auto calls = files.dir() / "calls.txt";
  ASSERT_EQ(durable_lines_of(calls).size(), 1U) << "the first process called the server";
  ASSERT_TRUE(durable_results(log, id).empty());

  log.dying = false;
  recover_on(files, log, id);
  EXPECT_EQ(durable_lines_of(calls).size(), 1U) << "the server was not called again";
  const auto results = durable_results(log, id);
  ASSERT_EQ(results.size(), 1U);
  EXPECT_EQ(results[0].call_id, "m1");
  EXPECT_FALSE(results[0].ok);
  EXPECT_TRUE(results[0].interrupted);
  EXPECT_NE(results[0].content.find("MCP server 'recorder' may or may not have carried it out"), std::string::npos)
      << results[0].content;
  ASSERT_TRUE(results[0].mcp.has_value());
  EXPECT_EQ(results[0].mcp->server, "recorder");
  EXPECT_EQ(results[0].mcp->tool, "slow_write");
  EXPECT_FALSE(results[0].mcp->duration_ms.has_value()) << "nobody saw the call end";
  EXPECT_EQ(durable_final_saying(log, id), "Told it was interrupted.");
}

// A built-in tool with effects keeps issue 38's rule: run again after the crash, with its key.
TEST(McpDurable, ABuiltInToolWithEffectsLeftWithoutAResultIsStillRunAgain) {
  temp_team files(recorder_team_yaml(), R"(members:
  lead:
    - when: {last_tool: "was interrupted"}
      emit: [{saying: "Told it was interrupted."}]
    - when: {last_tool: "ran"}
      emit: [{saying: "It ran."}]
    - emit: [{tool_call: {name: shell_cmd, id: s1, arguments: {command: "echo x >> effects.txt; echo ran"}}}]
)");
  result_losing_store log;
  const auto id = drive_new_root(files, log, "Go.");
  ASSERT_EQ(durable_lines_of(files.dir() / "effects.txt").size(), 1U);
  log.dying = false;
  recover_on(files, log, id);
  EXPECT_EQ(durable_lines_of(files.dir() / "effects.txt").size(), 2U) << "run again after the crash";
  const auto results = durable_results(log, id);
  ASSERT_EQ(results.size(), 1U);
  EXPECT_TRUE(results[0].ok) << results[0].content;
  EXPECT_FALSE(results[0].interrupted);
  EXPECT_FALSE(results[0].mcp.has_value());
  EXPECT_EQ(durable_final_saying(log, id), "It ran.");
}

}  // namespace
}  // namespace parley::engine
