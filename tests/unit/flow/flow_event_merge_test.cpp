// The repository's merged writes (thread_repository::held_, merge_flow_events): which writes one
// event may say together, that an append event applies in order and whole or not at all, and that
// nothing a flow wrote is still held back while its model is called.
#include <gtest/gtest.h>

#include <boost/json/serialize.hpp>

#include "flow_test_support.hpp"
#include "parley/flow/flow_events.hpp"
#include "parley/flow/flow_runner.hpp"
#include "parley/flow/thread_replay.hpp"
#include "test_agents.hpp"

namespace parley::flow {
namespace {

thread_message merge_test_message(std::string id, std::string sender) {
  thread_message message;
  message.id = std::move(id);
  message.sender = std::move(sender);
  message.text = "text of " + message.id;
  return message;
}

thread_settings merge_test_settings(std::string phase) {
  thread_settings settings;
  settings.phase = std::move(phase);
  return settings;
}

flow_thread_appended append_of(std::string path, std::vector<thread_message> messages) {
  flow_thread_appended out;
  out.appends.push_back({std::move(path), std::move(messages)});
  return out;
}

std::string serialized(const flow_thread& thread) { return boost::json::serialize(to_json(thread)); }

struct flow_event_merge_fixture : ::testing::Test {};
using FlowEventMerge = flow_event_merge_fixture;

TEST_F(FlowEventMerge, SettingsOfOneThreadTwiceAreTheLaterOnesAndOfTwoThreadsStayApart) {
  flow_event held = flow_settings_updated{"", merge_test_settings("prepare_subthread")};
  flow_event next = flow_settings_updated{"", merge_test_settings("execute_subthread")};
  ASSERT_TRUE(merge_flow_events(held, next));
  EXPECT_EQ(std::get<flow_settings_updated>(held).settings.phase, "execute_subthread");
  flow_event other = flow_settings_updated{"messages.0.meta._thread", merge_test_settings("review")};
  EXPECT_FALSE(merge_flow_events(held, other));
  EXPECT_EQ(std::get<flow_settings_updated>(held).settings.phase, "execute_subthread");  // unchanged
}

TEST_F(FlowEventMerge, TheMainSettingsThenAnAppendAreOneAppendWhoseOwnSettingsWin) {
  flow_event held = flow_settings_updated{"", merge_test_settings("applied")};
  flow_event next = append_of("", {merge_test_message("m1", "bot")});
  ASSERT_TRUE(merge_flow_events(held, next));
  const auto& merged = std::get<flow_thread_appended>(held);
  ASSERT_TRUE(merged.settings);
  EXPECT_EQ(merged.settings->phase, "applied");
  flow_event later = flow_settings_updated{"", merge_test_settings("suggested")};
  ASSERT_TRUE(merge_flow_events(held, later));
  EXPECT_EQ(std::get<flow_thread_appended>(held).settings->phase, "suggested");
  // A sub-thread's settings are not the append's: they stay an event of their own.
  flow_event sub = flow_settings_updated{"messages.0.meta._thread", merge_test_settings("x")};
  EXPECT_FALSE(merge_flow_events(held, sub));
}

TEST_F(FlowEventMerge, AnEventTakesAtMostOneMainThreadMessageAsTheRecordsTakeOnePerEvent) {
  flow_event held = append_of("", {merge_test_message("u1", "user")});
  flow_event second_main = append_of("", {merge_test_message("b1", "bot")});
  EXPECT_FALSE(merge_flow_events(held, second_main));
  EXPECT_EQ(std::get<flow_thread_appended>(held).appends.at(0).messages.size(), 1U);
}

TEST_F(FlowEventMerge, AnUpdateOfAMessageTheAppendsAddIsLaidOverItButNotAMainMessagesText) {
  flow_event held = append_of("", {merge_test_message("p", "bot")});
  boost::json::object meta;
  meta["_step"] = "placeholder";
  flow_event placed = flow_message_updated{"p", std::nullopt, meta};
  ASSERT_TRUE(merge_flow_events(held, placed));
  EXPECT_EQ(std::get<flow_thread_appended>(held).appends[0].messages[0].meta.at("_step"), "placeholder");
  // The records took the main-thread message with its text as added: a new text stays its own event.
  flow_event retexted = flow_message_updated{"p", std::string("done"), std::nullopt};
  EXPECT_FALSE(merge_flow_events(held, retexted));
  EXPECT_EQ(std::get<flow_thread_appended>(held).appends[0].messages[0].text, "text of p");
  // In a sub-thread the records see nothing, so the text is laid over too.
  flow_event sub = append_of("messages.0.meta._thread", {merge_test_message("s", "bot")});
  flow_event sub_text = flow_message_updated{"s", std::string("reviewed"), std::nullopt};
  ASSERT_TRUE(merge_flow_events(sub, sub_text));
  EXPECT_EQ(std::get<flow_thread_appended>(sub).appends[0].messages[0].text, "reviewed");
  flow_event elsewhere = flow_message_updated{"not-added-here", std::string("x"), std::nullopt};
  EXPECT_FALSE(merge_flow_events(sub, elsewhere));
}

TEST_F(FlowEventMerge, MergedAppendsReplayAsTheWritesInOrderEvenIntoAMessageAddedBefore) {
  flow_thread main;
  main.id = "t";
  auto placeholder = merge_test_message("p", "bot");
  placeholder.sub_thread = std::make_unique<flow_thread>();
  placeholder.sub_thread->id = "sub";
  const std::vector<flow_event> writes = {
      flow_settings_updated{"", merge_test_settings("prepare_subthread")},
      append_of("", {placeholder}),
      append_of("messages.0.meta._thread", {merge_test_message("s1", "user")}),
      append_of("messages.0.meta._thread", {merge_test_message("s2", "bot")}),
      flow_settings_updated{"", merge_test_settings("execute_subthread")},
  };
  flow_thread one_by_one = main;
  for (const auto& write : writes) ASSERT_TRUE(apply_flow_event(write, one_by_one));
  flow_event held = writes[0];
  for (std::size_t i = 1; i < writes.size(); ++i) {
    flow_event next = writes[i];
    ASSERT_TRUE(merge_flow_events(held, next)) << "write " << i;
  }
  const auto& merged = std::get<flow_thread_appended>(held);
  ASSERT_EQ(merged.appends.size(), 2U);  // the two sub-thread appends are one
  EXPECT_EQ(merged.appends[1].messages.size(), 2U);
  flow_thread at_once = main;
  ASSERT_TRUE(apply_flow_event(held, at_once));
  EXPECT_EQ(serialized(at_once), serialized(one_by_one));
}

TEST_F(FlowEventMerge, AnAppendWhosePathDoesNotResolveChangesNothing) {
  flow_thread main;
  main.id = "t";
  main.messages.push_back(merge_test_message("m0", "user"));
  const auto before = serialized(main);
  flow_thread_appended appended = append_of("", {merge_test_message("m1", "bot")});
  appended.appends.push_back({"messages.5.meta._thread", {merge_test_message("s1", "user")}});
  auto applied = apply_flow_event(appended, main);
  ASSERT_FALSE(applied);
  EXPECT_NE(applied.err().message.find("flow_thread_appended"), std::string::npos);
  EXPECT_EQ(serialized(main), before);  // m1, added before the bad path, was taken back
}

// Seed 004 §5: "persist immediately" — merging never holds a write across a model call: while the
// model answers, the log already replays to the thread as the flow has it in memory.
TEST_F(FlowEventMerge, WhileTheModelIsCalledTheLogHoldsEverythingTheFlowWroteBefore) {
  std::string thread_id;
  test::host_fixture* host_of_call = nullptr;
  std::vector<std::string> mismatches;
  int checked = 0;
  test::host_fixture host([&](const llm::model_request& request) -> result<std::string> {
    if (!thread_id.empty()) {
      ++checked;
      auto events = host_of_call->log->read_events(thread_id);
      auto replayed = replay_flow_thread(thread_id, events.value());
      auto in_memory = host_of_call->repository.load_thread(thread_id);
      if (!replayed || !in_memory || serialized(*replayed) != serialized(*in_memory)) {
        mismatches.push_back(request.system_prompt);
      }
    }
    return test::article_model(request);
  });
  host_of_call = &host;
  flow_runner runner(host.repository, host.ai, test::article_agent(), "writer");
  auto first = test::run_on(host.io, runner.start("I want an article"));
  ASSERT_TRUE(first);
  thread_id = first->id;
  ASSERT_TRUE(test::run_on(host.io, runner.say(first->id, "Tea, for beginners")));
  EXPECT_EQ(checked, 3);  // outline, review, article
  EXPECT_TRUE(mismatches.empty()) << "held across the call of " << mismatches.front();
  auto replayed = replay_flow_thread(thread_id, host.log->read_events(thread_id).value());
  ASSERT_TRUE(replayed);
  EXPECT_EQ(serialized(*replayed), serialized(*host.repository.load_thread(thread_id)));
}

}  // namespace
}  // namespace parley::flow
