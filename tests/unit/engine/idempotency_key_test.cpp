// The idempotency key of a tool call (engine/idempotency_key.hpp, issue 38): its form, where its
// parts come from, and what a tool with effects can rely on — a call whose result never reached
// the log is run again by the next engine to drive the tree, with the same key, and every other
// call has another one.
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
#include "parley/core/time.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/engine.hpp"
#include "parley/engine/idempotency_key.hpp"
#include "support/typed_events.hpp"

namespace parley::engine {
namespace {

namespace asio = boost::asio;
using testing::temp_team;

TEST(IdempotencyKey, IsTheRootTheDialogTheGenerationAndTheCallId) {
  EXPECT_EQ(idempotency_key({"r1", "d2", 3, 14}, "call_1"), "r1/d2/3.14/call_1");
  EXPECT_EQ(idempotency_key({"r1", "d2", 3, 14}, "toolu_01A-b.c:d~e"), "r1/d2/3.14/toolu_01A-b.c:d~e");
}

// One line of ASCII for an environment variable or a header, and two ids never share a key.
TEST(IdempotencyKey, OtherBytesArePercentEncodedSoDifferentIdsStayApart) {
  const call_origin at{"r", "d", 1, 2};
  EXPECT_EQ(idempotency_key(at, "a/b"), "r/d/1.2/a%2Fb");
  EXPECT_EQ(idempotency_key(at, "a%2Fb"), "r/d/1.2/a%252Fb");
  EXPECT_EQ(idempotency_key(at, "x\ny \xC3\xA9"), "r/d/1.2/x%0Ay%20%C3%A9");
  EXPECT_EQ(idempotency_key({"r/d", "1", 1, 2}, "c"), "r%2Fd/1/1.2/c");
  EXPECT_NE(idempotency_key({"r/d", "1", 1, 2}, "c"), idempotency_key({"r", "d/1", 1, 2}, "c"));
}

event raw(std::string dialog, std::string root, std::int64_t seq, std::string_view type, boost::json::object payload) {
  return test::typed_event(std::move(dialog), std::move(root), seq, type, std::move(payload), now_ms());
}

// The genseq is the one generation_finished logged for the calls (no generation_started is needed:
// the row's last_genseq stays 0 here); root and dialog are the event's envelope; a call answered
// already is not owed, and the one that is keeps its own id.
TEST(IdempotencyKey, ItsPartsAreReadFromTheGenerationThatMadeTheCalls) {
  const boost::json::array calls{boost::json::object{{"id", "c1"}, {"name", "shell_cmd"}, {"arguments", "{}"}},
                                 boost::json::object{{"id", "c2"}, {"name", "shell_cmd"}, {"arguments", "{}"}}};
  auto sub = dialog_runtime::replay(
      {raw("s1", "r1", 1, event_type::dialog_created, {{"memberId", "lead"}, {"kind", "sub"}, {"parentId", "r1"}}),
       raw("s1", "r1", 2, event_type::user_message, {{"course", 1}, {"content", "do it"}}),
       raw("s1", "r1", 3, event_type::generation_finished, {{"course", 1}, {"genseq", 7}, {"toolCalls", calls}}),
       raw("s1", "r1", 4, event_type::tool_result,
           {{"course", 1}, {"genseq", 7}, {"callId", "c1"}, {"name", "shell_cmd"}, {"content", "done"}})});
  ASSERT_TRUE(sub.has_value()) << sub.err().message;
  const auto owed = (*sub)->unanswered_tool_calls();
  ASSERT_EQ(owed.size(), 1U);
  const call_origin origin = origin_of_calls(**sub);
  EXPECT_EQ(idempotency_key(origin, owed[0].id), "r1/s1/1.7/c2");
}

// A memory store that, while `dying` is set, refuses every batch that holds a tool result: the log
// a process leaves when it dies after a call's effect and before the call's result is durable.
class dying_store final : public testing::forwarding_store {
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

// Each call appends its key to keys.txt, the effect a real tool would deduplicate.
constexpr std::string_view kAppendKey = R"(echo \"$PARLEY_IDEMPOTENCY_KEY\" >> keys.txt; echo )";

std::string script_of_lead() {
  const std::string append = std::string(kAppendKey);
  return "members:\n  lead:\n"
         "    - when: {last_tool: second}\n      emit: [{saying: done}]\n"
         "    - when: {last_tool: first}\n"
         "      emit: [{tool_call: {name: shell_cmd, id: w1, arguments: {command: \"" +
         append +
         "second\"}}}]\n"
         "    - emit:\n"
         "        - {tool_call: {name: shell_cmd, id: w1, arguments: {command: \"" +
         append + "first\"}}}\n" + "        - {tool_call: {name: shell_cmd, id: w2, arguments: {command: \"" + append +
         "first\"}}}\n";
}

std::vector<std::string> lines_of(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Two engines on one store stand for two processes of one cluster: the first runs a round of two
// calls with effects and dies before their results are durable; the second, started on the same
// log, runs both again — each with the key it had — then the model's next round, whose call reuses
// the id w1 and still gets a key of its own.
TEST(IdempotencyKey, ACallRunAgainAfterATakeoverHasTheSameKeyAndEveryOtherCallAnother) {
  temp_team files(
      "version: 1\nproviders:\n  offline: {kind: scripted, script: script.yaml}\n"
      "members:\n  lead: {persona: p, provider: offline, model: m, toolsets: [shell]}\n",
      script_of_lead());
  dying_store log;
  std::string id;
  {
    asio::io_context io;
    auto first = engine::create(io.get_executor(), log, files.load(), build_providers(files.load()).value(),
                                build_builtin_tools());
    ASSERT_TRUE(first.has_value()) << first.err().message;
    asio::co_spawn(
        io,
        [&]() -> asio::awaitable<void> {
          new_dialog spec{"lead", "", ""};
          spec.first_message = "go";
          id = (co_await (*first)->create_root_dialog(std::move(spec))).value();
          co_await (*first)->runs().wait_until_idle(id);
        },
        asio::detached);
    io.run();
  }
  const auto keys = files.dir() / "keys.txt";
  ASSERT_EQ(lines_of(keys).size(), 2U) << "the first process ran both calls of the durable round";
  const auto died_with = log.read_events(id, 0).value();
  EXPECT_TRUE(
      std::none_of(died_with.begin(), died_with.end(), [](const event& ev) { return ev.is<events::tool_result>(); }));

  log.dying = false;
  asio::io_context io;
  auto second = engine::create(io.get_executor(), log, files.load(), build_providers(files.load()).value(),
                               build_builtin_tools());
  ASSERT_TRUE(second.has_value()) << second.err().message;
  EXPECT_EQ((*second)->runs().recover_all().value(), 1U);
  io.run();
  log.flush();

  const auto ran = lines_of(keys);
  ASSERT_EQ(ran.size(), 5U);
  EXPECT_EQ(ran[0], id + "/" + id + "/1.1/w1");
  EXPECT_EQ(ran[1], id + "/" + id + "/1.1/w2");
  EXPECT_EQ(ran[2], ran[0]) << "w1 of generation 1, run again by the second process";
  EXPECT_EQ(ran[3], ran[1]) << "w2 of generation 1, run again by the second process";
  EXPECT_EQ(ran[4], id + "/" + id + "/1.2/w1") << "the next generation's w1 is another call";
  // The log holds each call's result once: the effects ran at least once, the answers exactly once.
  std::vector<std::string> results;
  for (const auto& ev : log.read_events(id, 0).value()) {
    if (const auto* result = ev.as<events::tool_result>()) {
      results.push_back(std::to_string(result->genseq) + "/" + result->call_id);
    }
  }
  EXPECT_EQ(results, (std::vector<std::string>{"1/w1", "1/w2", "2/w1"}));
  const auto messages = log.messages(id, 1).value();
  ASSERT_FALSE(messages.empty());
  EXPECT_EQ(messages.back().content, "done");
}

}  // namespace
}  // namespace parley::engine
