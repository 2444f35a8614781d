// The flow's event types: strict codecs (a missing or mistyped field is an error naming it) and a
// round trip that keeps every field, nested sub-threads included.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "parley/flow/flow_events.hpp"

namespace parley::flow {
namespace {

flow_thread sample_thread() {
  flow_thread nested;
  nested.id = "nested";
  nested.settings.phase = "outline_reviewing";
  thread_message review;
  review.id = "n0";
  review.sender = "user";
  review.text = "review this";
  nested.messages.push_back(review);

  flow_thread main;
  main.id = "main";
  main.settings.phase = "execute_subthread";
  main.settings.phase_update_suggestion = phase_suggestion{"article_writing", "t1"};
  main.settings.phase_start_index = 2;
  main.settings.extra["briefTopic"] = "tea";
  task pending;
  pending.id = "t2";
  pending.name = "ContinueProcessing";
  pending.type = "action";
  pending.message = "continue";
  pending.meta["subThreadPath"] = "";
  main.settings.pending_tasks.push_back(pending);
  thread_message placeholder;
  placeholder.id = "m1";
  placeholder.sender = "bot";
  placeholder.text = "Drafting…";
  placeholder.timestamp = 42;
  placeholder.is_virtual = true;
  placeholder.meta["_step"] = "placeholder";
  placeholder.sub_thread = std::make_unique<flow_thread>(nested);
  main.messages.push_back(placeholder);
  return main;
}

struct flow_events_fixture : ::testing::Test {};
using FlowEvents = flow_events_fixture;

TEST_F(FlowEvents, AThreadSavedRoundTripsEveryFieldAtEveryDepth) {
  const flow_thread_saved saved{sample_thread()};
  const auto payload = to_payload(saved);
  auto back = flow_thread_saved_from_payload(payload);
  ASSERT_TRUE(back) << back.err().message;
  EXPECT_EQ(boost::json::serialize(to_payload(*back)), boost::json::serialize(payload));
  EXPECT_EQ(back->thread.messages[0].sub_thread->messages[0].text, "review this");
  EXPECT_EQ(back->thread.settings.phase_update_suggestion->phase, "article_writing");
  EXPECT_EQ(back->thread.settings.pending_tasks[0].name, "ContinueProcessing");
  // The seed's wire names, exactly.
  const auto& settings = payload.at("thread").at("settings").as_object();
  EXPECT_EQ(settings.at("briefStatus").at("phase"), "execute_subthread");
  EXPECT_TRUE(settings.contains("_phaseUpdateSuggestion"));
  EXPECT_TRUE(payload.at("thread").at("messages").at(0).at("meta").as_object().contains("_thread"));
}

TEST_F(FlowEvents, MessageUpdatedAndSettingsUpdatedRoundTrip) {
  flow_message_updated update{"m1", std::string("done"), boost::json::object{{"_thread", to_json(sample_thread())}}};
  auto back = flow_message_updated_from_payload(to_payload(update));
  ASSERT_TRUE(back) << back.err().message;
  EXPECT_EQ(*back->text, "done");
  flow_settings_updated settings{"messages.0.meta._thread", sample_thread().settings};
  auto settings_back = flow_settings_updated_from_payload(to_payload(settings));
  ASSERT_TRUE(settings_back) << settings_back.err().message;
  EXPECT_EQ(settings_back->path, "messages.0.meta._thread");
  EXPECT_EQ(settings_back->settings.phase, "execute_subthread");
}

TEST_F(FlowEvents, AppendedMessagesRoundTripAndApplyAtTheirPaths) {
  auto main = sample_thread();
  thread_message added;
  added.id = "n1";
  added.sender = "bot";
  added.text = "reviewed";
  flow_thread_appended appended{{{"messages.0.meta._thread", {added}}}, main.settings};
  appended.settings->phase = "article_writing";
  auto back = flow_thread_appended_from_payload(to_payload(appended));
  ASSERT_TRUE(back) << back.err().message;
  ASSERT_TRUE(apply_flow_event(*back, main));
  EXPECT_EQ(main.messages[0].sub_thread->messages.back().text, "reviewed");
  EXPECT_EQ(main.settings.phase, "article_writing");

  auto bad_path = to_payload(appended);
  bad_path["appends"].as_array()[0].as_object()["path"] = "messages.9.meta._thread";
  auto parsed = flow_thread_appended_from_payload(bad_path);
  ASSERT_TRUE(parsed);
  const auto before = boost::json::serialize(to_json(main));
  auto refused = apply_flow_event(*parsed, main);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.err().message.find("message index 9 is out of range"), std::string::npos);
  EXPECT_EQ(boost::json::serialize(to_json(main)), before);  // nothing of it applied

  auto missing = flow_thread_appended_from_payload(
      boost::json::object{{"appends", boost::json::array{boost::json::object{{"path", ""}}}}});
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.err().message, "flow_thread_appended.appends.0.messages: missing");
}

TEST_F(FlowEvents, AMissingFieldIsNamedWithItsPath) {
  auto payload = to_payload(flow_thread_saved{sample_thread()});
  payload["thread"].as_object()["messages"].as_array()[0].as_object().erase("sender");
  auto bad = flow_thread_saved_from_payload(payload);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.err().message, "flow_thread_saved.thread.messages.0.sender: missing");

  auto deep = to_payload(flow_thread_saved{sample_thread()});
  deep["thread"].as_object()["messages"].as_array()[0].as_object()["meta"].as_object()["_thread"].as_object().erase(
      "settings");
  auto bad_deep = flow_thread_saved_from_payload(deep);
  ASSERT_FALSE(bad_deep);
  EXPECT_EQ(bad_deep.err().message, "flow_thread_saved.thread.messages.0.meta._thread.settings: missing");
}

TEST_F(FlowEvents, AMistypedFieldIsNamedWithWhatWasExpected) {
  auto payload = to_payload(flow_thread_saved{sample_thread()});
  payload["thread"].as_object()["settings"].as_object()["briefStatus"].as_object()["phase"] = 3;
  auto bad = flow_thread_saved_from_payload(payload);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.err().message, "flow_thread_saved.thread.settings.briefStatus.phase: expected a string, got integer");

  auto sender = to_payload(flow_thread_saved{sample_thread()});
  sender["thread"].as_object()["messages"].as_array()[0].as_object()["sender"] = "robot";
  EXPECT_NE(flow_thread_saved_from_payload(sender).err().message.find("expected \"user\" or \"bot\""),
            std::string::npos);

  auto no_text = flow_message_updated_from_payload(boost::json::object{{"messageId", "m1"}});
  ASSERT_FALSE(no_text);
  EXPECT_NE(no_text.err().message.find("neither text nor meta"), std::string::npos);
  auto bad_path = flow_settings_updated_from_payload(
      boost::json::object{{"path", "messages.x"}, {"settings", to_json(thread_settings{})}});
  ASSERT_FALSE(bad_path);
  EXPECT_NE(bad_path.err().message.find("flow_settings_updated.path"), std::string::npos);
}

TEST_F(FlowEvents, EventsDispatchByWireNameAndApplyToTheMainThread) {
  auto main = sample_thread();
  auto ev = flow_event_from("flow_message_updated", boost::json::object{{"messageId", "n0"}, {"text", "reviewed"}});
  ASSERT_TRUE(ev) << ev.err().message;
  ASSERT_TRUE(apply_flow_event(*ev, main));
  EXPECT_EQ(main.messages[0].sub_thread->messages[0].text, "reviewed");
  auto unknown = apply_flow_event(flow_message_updated{"nope", std::string("x"), std::nullopt}, main);
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.err().message.find("no message nope"), std::string::npos);
  EXPECT_EQ(flow_event_from("user_message", {}).err().code, errc::not_found);
}

}  // namespace
}  // namespace parley::flow
