// Seed 004's missing pieces of the SDK, run through the tutor chat example agent
// (examples/flows/tutor_chat_cpp): loadOperations and an extra task (`chatPair`), a handler's
// answer streamed into the thread (`response.setStream(agent.createStream(stream))`), and a
// Response's `messageUpdate`.
#include <gtest/gtest.h>

#include <boost/json/serialize.hpp>

#include <string>
#include <vector>

#include "../../../examples/flows/tutor_chat_cpp/TutorChatAgent.hpp"
#include "flow_test_support.hpp"
#include "parley/flow/flow_runner.hpp"
#include "parley/flow/thread_replay.hpp"
#include "test_agents.hpp"

namespace parley::flow {
namespace {

using test::run_on;

constexpr const char* kAnswer = "A prime has exactly two divisors.";

struct tutor_fixture : ::testing::Test {
  test::host_fixture host{[](const llm::model_request&) -> result<std::string> { return std::string(kAnswer); }};
  flow_runner runner{host.repository, host.ai,
                     [](const thread_settings& settings) -> result<std::unique_ptr<base_agent>> {
                       auto agent = base_agent::create<tutor_chat::TutorChatAgent>(
                           agent_metadata{"TutorChatAgent", "tutor", {}}, settings,
                           std::filesystem::path(PARLEY_SOURCE_DIR) / "examples/flows/tutor_chat_cpp/prompt");
                       if (!agent) return std::move(agent).err();
                       return std::unique_ptr<base_agent>(std::move(*agent));
                     },
                     "tutor"};

  // The main thread as a reader of the log sees it now (what REST and `parley show` replay).
  flow_thread from_log(const std::string& id) {
    auto events = host.log->read_events(id);
    EXPECT_TRUE(events.has_value());
    auto replayed = replay_flow_thread(id, *events);
    EXPECT_TRUE(replayed.has_value()) << (replayed ? "" : replayed.err().message);
    return replayed ? std::move(*replayed) : flow_thread{};
  }
  flow_thread started() {
    auto first = run_on(host.io, runner.start("What is a prime number?"));
    EXPECT_TRUE(first.has_value()) << (first ? "" : first.err().message);
    return first ? std::move(*first) : flow_thread{};
  }
};

using FlowSdk = tutor_fixture;

// §2.2: "const stream = await AIAdapter.chat(messages, {systemMessage, stream: true}); const response =
// new Response(''); response.setStream(agent.createStream(stream)); return response;"
TEST_F(FlowSdk, AHandlersStreamGrowsInItsBotMessageWhichReadersSeeBeforeItEnds) {
  std::vector<std::string> chunks;
  std::vector<flow_thread> seen_while_streaming;
  std::string thread_id;
  host.ai.set_stream_observer([&](std::string_view id, std::string_view chunk) {
    chunks.emplace_back(chunk);
    thread_id = std::string(id);
    seen_while_streaming.push_back(from_log(thread_id));
  });
  const auto main = started();
  ASSERT_EQ(chunks.size(), 2u);  // the recording model streams in two pieces
  EXPECT_EQ(chunks[0] + chunks[1], kAnswer);
  EXPECT_EQ(thread_id, main.id);
  // While it streams, the log already holds the bot message, empty and marked _streaming.
  const auto& during = seen_while_streaming.front();
  ASSERT_EQ(during.messages.size(), 2u);
  EXPECT_EQ(during.messages[1].sender, "bot");
  EXPECT_EQ(during.messages[1].text, "");
  EXPECT_EQ(during.messages[1].meta.at("_streaming"), true);
  // When it ends, the same message holds the whole answer, saved; no second bot message.
  const auto after = from_log(main.id);
  ASSERT_EQ(after.messages.size(), 2u);
  EXPECT_EQ(after.messages[1].id, during.messages[1].id);
  EXPECT_EQ(after.messages[1].text, kAnswer);
  EXPECT_FALSE(after.messages[1].meta.contains("_streaming"));
  EXPECT_EQ(after.messages[1].meta.at("_phase"), "initial_phase");
  EXPECT_TRUE(after.settings.pending_tasks.empty());
  ASSERT_EQ(host.model->calls.size(), 1u);
  EXPECT_TRUE(host.model->calls[0].request.stream);
  // Each persistence point one event: the placeholder saved, its text updated, the task ended.
  EXPECT_EQ(host.event_types(main.id),
            (std::vector<std::string>{"dialog_created", "flow_thread_saved", "flow_thread_appended",
                                      "flow_message_updated", "flow_thread_appended"}));
}

// §2.1: "async executeTask(task, thread) { if (task.name === 'chatPair') { // 额外支持的各种task
// return new Response(task.meta.bot); } ..." and "async loadOperations(agent) { //主Agent才必须实现".
TEST_F(FlowSdk, ChatPairRecordsTheGivenExchangeWithoutAskingTheModel) {
  const auto main = started();
  ASSERT_EQ(runner.operations().value().size(), 2u);
  EXPECT_EQ(runner.operations().value()[0].name, "chatPair");
  task_request pair{"chatPair", "Is 2 prime?", {{"bot", "Yes, the only even one."}}};
  auto paired = run_on(host.io, runner.run_task(main.id, std::move(pair)));
  ASSERT_TRUE(paired.has_value()) << paired.err().message;
  EXPECT_EQ(host.model->calls.size(), 1u);  // only the first, streamed answer
  const auto after = from_log(main.id);
  ASSERT_EQ(after.messages.size(), 4u);
  EXPECT_EQ(after.messages[2].sender, "user");
  EXPECT_EQ(after.messages[2].text, "Is 2 prime?");
  EXPECT_EQ(after.messages[3].sender, "bot");
  EXPECT_EQ(after.messages[3].text, "Yes, the only even one.");
  EXPECT_TRUE(after.settings.pending_tasks.empty());
}

TEST_F(FlowSdk, AnOperationTheAgentDoesNotListIsRefusedNamingItsOperationsAndWritesNothing) {
  const auto main = started();
  const auto before = host.event_types(main.id).size();
  task_request invented{"deleteEverything", "now", {}};
  auto refused = run_on(host.io, runner.run_task(main.id, std::move(invented)));
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.err().code, errc::invalid_argument);
  EXPECT_NE(refused.err().message.find("no operation \"deleteEverything\" (its loadOperations: chatPair, amendAnswer)"),
            std::string::npos)
      << refused.err().message;
  EXPECT_EQ(host.event_types(main.id).size(), before);
  task_request no_bot{"chatPair", "Is 3 prime?", {}};
  auto bad = run_on(host.io, runner.run_task(main.id, std::move(no_bot)));
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.err().message.find("task.meta.bot"), std::string::npos) << bad.err().message;
}

// §11.2.5: "Response包含messageUpdate指导消息更新"; §11.1.5: "区分现有消息更新和新消息创建".
TEST_F(FlowSdk, AMessageUpdateChangesTheNamedMessageInsteadOfCreatingOne) {
  const auto main = started();
  const std::string answer_id = main.messages[1].id;
  task_request amend{"amendAnswer", "Two divisors: 1 and itself.", {}};
  auto amended = run_on(host.io, runner.run_task(main.id, std::move(amend)));
  ASSERT_TRUE(amended.has_value()) << amended.err().message;
  const auto after = from_log(main.id);
  ASSERT_EQ(after.messages.size(), 2u);  // no user message (the operation has none), no new bot message
  EXPECT_EQ(after.messages[1].id, answer_id);
  EXPECT_EQ(after.messages[1].text, "Two divisors: 1 and itself.");
  EXPECT_EQ(after.messages[1].meta.at("amended"), true);
  EXPECT_EQ(after.messages[1].meta.at("_phase"), "initial_phase");  // the update's fields laid over the meta
  EXPECT_EQ(host.event_types(main.id).back(), "flow_thread_appended");
}

// The bad input: "a messageUpdate for a message that does not exist ... a clear error".
TEST_F(FlowSdk, AMessageUpdateOfAMessageThatDoesNotExistIsAClearErrorAndTheFlowWaitsAgain) {
  const auto main = started();
  task_request amend{"amendAnswer", "new text", {{"messageId", "no-such-message"}}};
  auto refused = run_on(host.io, runner.run_task(main.id, std::move(amend)));
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.err().code, errc::not_found);
  EXPECT_NE(refused.err().message.find("messageUpdate: no message \"no-such-message\" in thread " + main.id),
            std::string::npos)
      << refused.err().message;
  const auto after = from_log(main.id);
  ASSERT_EQ(after.messages.size(), 2u);
  EXPECT_EQ(after.messages[1].text, kAnswer);         // untouched
  EXPECT_TRUE(after.settings.pending_tasks.empty());  // dropped: running it again cannot succeed
  auto next = run_on(host.io, runner.say(main.id, "And 9?"));
  ASSERT_TRUE(next.has_value()) << next.err().message;
  EXPECT_EQ(from_log(main.id).messages.size(), 4u);
}

// §11.2.2: "Retry时清除迁移建议但不改变状态" — a retry runs the current phase's handler again.
TEST_F(FlowSdk, ARetriedMessageIsAnsweredByTheSamePhaseAgain) {
  const auto main = started();
  auto retried = run_on(host.io, runner.say(main.id, "What is a prime number?", "retry"));
  ASSERT_TRUE(retried.has_value()) << retried.err().message;
  EXPECT_EQ(retried->settings.phase, "initial_phase");
  EXPECT_EQ(host.model->calls.size(), 2u);
  ASSERT_EQ(retried->settings.pending_tasks.size(), 0u);
  auto bad = run_on(host.io, runner.say(main.id, "again", "redo"));
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.err().message.find("_ui_action: expected \"retry\""), std::string::npos);
}

// §6.1: "每个子Thread的Agent和其StateHandler返回的Response对象应当是同步的，而不是stream".
TEST_F(FlowSdk, ASubThreadHandlerThatStreamsIsRefusedNamingItsPhase) {
  auto streaming_sub = test::sub_agent("StreamingSubAgent", [](auto& units) {
    auto handler = std::make_shared<tutor_chat::TutoringHandler>("patient maths tutor");
    units["initial_phase"] =
        std::make_shared<test::review_responsor>(phase_config{"initial_phase", "completed"}, handler);
  });
  auto agent = test::main_agent("StreamingMainAgent", [streaming_sub](auto& handlers) {
    handlers["initial_phase"] = std::make_shared<sub_thread_preparation_handler>(
        phase_config{"initial_phase", "execute_subthread"}, "Working…");
    handlers["execute_subthread"] =
        std::make_shared<sub_thread_execution_handler>(phase_config{"execute_subthread", "completed"}, streaming_sub);
  });
  flow_runner sub_runner(host.repository, host.ai, agent, "writer");
  auto failed = run_on(host.io, sub_runner.start("go"));
  ASSERT_FALSE(failed.has_value());
  EXPECT_EQ(failed.err().code, errc::invalid_argument);
  EXPECT_NE(failed.err().message.find("answered with a stream (setStream) in a sub-thread, whose Response must be "
                                      "synchronous (seed 004 §6.1)"),
            std::string::npos)
      << failed.err().message;
  EXPECT_TRUE(host.model->calls.empty());  // refused before the stream ran
}

}  // namespace
}  // namespace parley::flow
