// The article flow of issue 22 through BaseAgent, SubThreadAgent, Starter/Responsor and the
// two-step sub-thread start, on the in-memory log: what each component is given (main thread +
// path), what the model is told (first-level messages only; streamed for the main thread only),
// which event each persistence point of §5 writes, and that the log replays to the thread in memory.
#include <gtest/gtest.h>

#include <algorithm>

#include <boost/json/serialize.hpp>

#include "flow_test_support.hpp"
#include "parley/flow/flow_runner.hpp"
#include "test_agents.hpp"

namespace parley::flow {
namespace {

using test::article_agent;
using test::article_model;
using test::component_calls;

struct article_flow_fixture : ::testing::Test {
  article_flow_fixture() : host(article_model), runner(host.repository, host.ai, article_agent(), "writer") {
    component_calls().clear();
    host.ai.set_stream_observer([this](std::string_view /*thread_id*/, std::string_view chunk) { streamed += chunk; });
  }
  test::host_fixture host;
  flow_runner runner;
  std::string streamed;
};
using ArticleFlow = article_flow_fixture;

TEST_F(ArticleFlow, TheFirstMessageIsAnsweredInTheInitialPhaseAndTheFlowWaits) {
  auto main = test::run_on(host.io, runner.start("I want an article"));
  ASSERT_TRUE(main) << main.err().message;
  ASSERT_EQ(main->messages.size(), 2U);
  EXPECT_EQ(main->messages[1].text, "Which topic and audience?");
  EXPECT_EQ(main->settings.phase, "initial_phase");
  ASSERT_TRUE(main->settings.phase_update_suggestion);
  EXPECT_EQ(main->settings.phase_update_suggestion->phase, "prepare_subthread");
  EXPECT_TRUE(main->settings.pending_tasks.empty());
  EXPECT_EQ(streamed, "Which topic and audience?");
}

TEST_F(ArticleFlow, TheAnswerRunsTheOutlineSubThreadWithANestedReviewAndThenWrites) {
  auto first = test::run_on(host.io, runner.start("I want an article"));
  ASSERT_TRUE(first) << first.err().message;
  auto main = test::run_on(host.io, runner.say(first->id, "Tea, for beginners"));
  ASSERT_TRUE(main) << main.err().message;

  // [user, bot ask, user answer, placeholder (with the sub-thread), article]
  ASSERT_EQ(main->messages.size(), 5U);
  const auto& placeholder = main->messages[3];
  ASSERT_TRUE(placeholder.sub_thread);
  EXPECT_EQ(placeholder.text, "The outline lacks a summary.");  // updated with the sub-thread's result
  EXPECT_EQ(main->messages[4].text, "Tea: an article.");
  EXPECT_EQ(main->settings.phase, "article_writing");
  EXPECT_EQ(main->settings.phase_update_suggestion->phase, "completed");

  const auto& outline = *placeholder.sub_thread;
  EXPECT_EQ(outline.settings.phase, "completed");
  ASSERT_EQ(outline.messages.size(), 4U);
  EXPECT_EQ(outline.messages[0].sender, "user");  // the Starter's initial message
  EXPECT_EQ(outline.messages[0].text, "Draft an outline for the article.");
  EXPECT_EQ(outline.messages[1].text, "1. Intro 2. Brewing 3. performance of kettles");
  EXPECT_EQ(outline.messages[2].sender, "user");  // the Responsor's feedback, chosen by the bot's text
  EXPECT_EQ(outline.messages[2].text, "Good review; now show how to fix the performance problems, with code.");
  ASSERT_TRUE(outline.messages[3].sub_thread);  // the nested review, and no feedback: next is completed
  const auto& review = *outline.messages[3].sub_thread;
  ASSERT_EQ(review.messages.size(), 2U);
  EXPECT_EQ(review.messages[0].text, "Review this outline for gaps.");
  EXPECT_EQ(review.messages[1].text, "The outline lacks a summary.");
  EXPECT_EQ(review.settings.phase, "completed");
}

TEST_F(ArticleFlow, EveryComponentIsGivenTheMainThreadAndAPath) {
  auto first = test::run_on(host.io, runner.start("I want an article"));
  ASSERT_TRUE(first);
  ASSERT_TRUE(test::run_on(host.io, runner.say(first->id, "Tea, for beginners")));
  std::vector<std::string> seen;
  for (const auto& call : component_calls()) {
    EXPECT_EQ(call.thread_id, first->id) << call.component;  // never a sub-thread alone (rules 1, 3, 4)
    seen.push_back(call.component + "@" + call.path);
  }
  const std::vector<std::string> expected = {
      "handler:initial_phase@",
      "starter:initial_phase@messages.3.meta._thread",
      "handler:outline_drafting@messages.3.meta._thread",
      "responsor:outline_drafting@messages.3.meta._thread",
      "starter:initial_phase@messages.3.meta._thread.messages.3.meta._thread",
      "handler:outline_reviewing@messages.3.meta._thread.messages.3.meta._thread",
      "handler:article_writing@",
  };
  EXPECT_EQ(seen, expected);
}

TEST_F(ArticleFlow, TheModelIsToldFirstLevelMessagesOnlyAndOnlyMainThreadsStream) {
  auto first = test::run_on(host.io, runner.start("I want an article"));
  ASSERT_TRUE(first);
  ASSERT_TRUE(test::run_on(host.io, runner.say(first->id, "Tea, for beginners")));
  const auto& calls = host.model->calls;
  ASSERT_EQ(calls.size(), 4U);
  // The outline drafting call sees its sub-thread's first level: the Starter's message only.
  EXPECT_EQ(calls[1].request.system_prompt, "outline_drafting_system_prompt");
  ASSERT_EQ(calls[1].request.messages.size(), 1U);
  EXPECT_EQ(calls[1].request.messages[0].content, "Draft an outline for the article.");
  EXPECT_FALSE(calls[1].request.stream);
  EXPECT_FALSE(calls[2].request.stream);
  // The writing call sees the main thread's four messages; nothing of the sub-threads.
  const auto& writing = calls[3].request;
  EXPECT_TRUE(writing.stream);
  ASSERT_EQ(writing.messages.size(), 4U);
  EXPECT_EQ(writing.messages[0].role, llm::role::user);
  EXPECT_EQ(writing.messages[1].role, llm::role::assistant);
  for (const auto& message : writing.messages) {
    EXPECT_EQ(message.content.find("Draft an outline"), std::string::npos);
    EXPECT_EQ(message.content.find("Review this outline"), std::string::npos);
  }
  EXPECT_EQ(streamed, "Which topic and audience?Tea: an article.");  // sub-thread answers never stream
}

// Every persistence point of the seed reaches the log, in its order; the writes a step makes
// between two model calls are merged where one event says what several say (a suggestion and its
// application, then the message and task that follow), never across a model call.
TEST_F(ArticleFlow, PersistencePointsReachTheLogInTheSeedsOrderMergedBetweenModelCalls) {
  auto first = test::run_on(host.io, runner.start("I want an article"));
  ASSERT_TRUE(first);
  const auto before = host.event_types(first->id).size();
  ASSERT_TRUE(test::run_on(host.io, runner.say(first->id, "Tea, for beginners")));
  auto types = host.event_types(first->id);
  types.erase(types.begin(), types.begin() + static_cast<std::ptrdiff_t>(before));
  const std::vector<std::string> expected = {
      "flow_thread_appended",   // the user's answer with its task (runner); prepare_subthread applied
                                // (agent) and its suggestion of execute_subthread (StateHandler)
      "flow_thread_appended",   // the placeholder and the next task (runner); execute_subthread applied;
                                // the sub-thread placed in the placeholder's meta._thread
                                // (StateHandler); Starter: initial user message — all sent before
                                // the model is called
      "flow_thread_appended",   // Responsor: bot message, then the user feedback
      "flow_settings_updated",  // Starter suggests outline_review, then it is applied
      "flow_thread_appended",   // nested placeholder with the nested sub-thread, nested Starter's message
      "flow_thread_appended",   // nested StateHandler's bot message
      "flow_settings_updated",  // nested Starter suggests completed, then it is applied
      "flow_message_updated",   // nested placeholder updated with the review
      "flow_settings_updated",  // outline_review responsor suggests completed, then it is applied
      "flow_message_updated",   // main placeholder updated with the outline's result
      "flow_thread_appended",   // execute_subthread suggests article_writing; the task done
                                // (skipBotMessageCreation) + next task; article_writing applied and
                                // suggests completed
      "flow_thread_appended",   // the article
      "status_changed",         // the flow finished: its dialog is completed
  };
  EXPECT_EQ(types, expected);
}

TEST_F(ArticleFlow, TheLogReplaysToTheThreadInMemory) {
  auto first = test::run_on(host.io, runner.start("I want an article"));
  ASSERT_TRUE(first);
  auto main = test::run_on(host.io, runner.say(first->id, "Tea, for beginners"));
  ASSERT_TRUE(main);
  auto replayed = host.repository.load_thread(first->id);
  ASSERT_TRUE(replayed) << replayed.err().message;
  EXPECT_EQ(boost::json::serialize(to_json(*replayed)), boost::json::serialize(to_json(*main)));
}

TEST_F(ArticleFlow, ACompletedFlowTakesNoMoreMessagesButARetryRewritesTheLastPhase) {
  auto first = test::run_on(host.io, runner.start("I want an article"));
  ASSERT_TRUE(test::run_on(host.io, runner.say(first->id, "Tea, for beginners")));
  auto status_in_log = [&] { return host.log->get_dialog(first->id).value()->status; };
  EXPECT_EQ(status_in_log(), events::dialog_status::completed);  // a finished flow completes its dialog
  const auto events_before = host.event_types(first->id).size();
  auto more = test::run_on(host.io, runner.say(first->id, "and more?"));
  ASSERT_FALSE(more);
  EXPECT_EQ(more.err().code, errc::conflict);
  EXPECT_NE(more.err().message.find("is completed"), std::string::npos);
  auto reopened = test::run_on(host.io, runner.set_status(first->id, events::dialog_status::running));
  ASSERT_FALSE(reopened);
  EXPECT_EQ(reopened.err().code, errc::conflict);
  EXPECT_NE(reopened.err().message.find("its flow has finished"), std::string::npos) << reopened.err().message;
  EXPECT_EQ(host.event_types(first->id).size(), events_before);  // refusals change nothing
  auto retried = test::run_on(host.io, runner.say(first->id, "again please", "retry"));
  ASSERT_TRUE(retried) << retried.err().message;
  EXPECT_EQ(retried->settings.phase, "article_writing");  // the suggestion was dropped, not applied
  EXPECT_EQ(retried->messages.back().text, "Tea: an article.");
  // The retry ran it again (its dialog running) and it finished again (completed).
  auto types = host.event_types(first->id);
  types.erase(types.begin(), types.begin() + static_cast<std::ptrdiff_t>(events_before));
  EXPECT_EQ(std::count(types.begin(), types.end(), "status_changed"), 2);
  EXPECT_EQ(types.front(), "status_changed");
  EXPECT_EQ(types.back(), "status_changed");
  EXPECT_EQ(status_in_log(), events::dialog_status::completed);
}

TEST_F(ArticleFlow, AFlowsDialogIsCompletedArchivedAndReopenedLikeAnyRootAndTakesInputOnlyWhileRunning) {
  auto first = test::run_on(host.io, runner.start("I want an article"));
  ASSERT_TRUE(first);
  const auto& id = first->id;
  auto set = [&](events::dialog_status to) { return test::run_on(host.io, runner.set_status(id, to)); };
  ASSERT_TRUE(set(events::dialog_status::completed));
  auto refused = test::run_on(host.io, runner.say(id, "Tea, for beginners"));
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.err().code, errc::conflict);
  EXPECT_NE(refused.err().message.find("dialog " + id + " is completed; reopen it to go on"), std::string::npos)
      << refused.err().message;
  EXPECT_EQ(set(events::dialog_status::completed).err().message, "dialog " + id + " is already completed");
  ASSERT_TRUE(set(events::dialog_status::archived));
  EXPECT_NE(set(events::dialog_status::completed).err().message.find("is archived; reopen it"), std::string::npos);
  ASSERT_TRUE(set(events::dialog_status::running));
  // What the log says, read by a new repository (another process: the CLI after the server).
  thread_repository fresh(*host.log, host.io.get_executor());
  EXPECT_EQ(test::run_on(host.io, fresh.status_of(id)).value(), events::dialog_status::running);
  auto said = test::run_on(host.io, runner.say(id, "Tea, for beginners"));
  ASSERT_TRUE(said) << said.err().message;
  EXPECT_EQ(host.log->get_dialog(id).value()->status, events::dialog_status::completed);
  thread_repository later(*host.log, host.io.get_executor());
  EXPECT_EQ(test::run_on(host.io, later.status_of(id)).value(), events::dialog_status::completed);
}

}  // namespace
}  // namespace parley::flow
