// Issue 22's bad input: each is an error naming what is wrong, and the thread on disk stays as it
// was before the failing step. Also the retry rule of _applyPhaseUpdateSuggestion.
#include <gtest/gtest.h>

#include <boost/json/serialize.hpp>

#include <algorithm>

#include "flow_test_support.hpp"
#include "parley/flow/flow_runner.hpp"
#include "test_agents.hpp"

namespace parley::flow {
namespace {

using test::article_agent;
using test::article_model;

struct flow_bad_input_fixture : ::testing::Test {
  flow_bad_input_fixture() : host([this](const llm::model_request& r) { return answer(r); }) {}
  std::function<result<std::string>(const llm::model_request&)> answer = article_model;
  test::host_fixture host;
};
using FlowBadInput = flow_bad_input_fixture;

TEST_F(FlowBadInput, AStoredPhaseTheAgentLacksIsNamedWithTheAgentsPhases) {
  flow_runner runner(host.repository, host.ai, article_agent(), "writer");
  auto first = test::run_on(host.io, runner.start("I want an article"));
  ASSERT_TRUE(first);
  // The log holds a phase from some other version of the agent.
  auto main = host.repository.load_thread(first->id).value();
  auto settings = main.settings;
  settings.phase = "proofreading";
  settings.phase_update_suggestion.reset();
  ASSERT_TRUE(test::run_on(host.io, host.repository.update_thread_settings(main, sub_thread_path(), settings)));
  ASSERT_TRUE(test::run_on(host.io, host.repository.commit(main.id)));
  const auto events_before = host.event_types(first->id).size();

  auto failed = test::run_on(host.io, runner.say(first->id, "Tea"));
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.err().message,
            "agent ArticleCreationAgent has no StateHandler for phase \"proofreading\" (its phases: article_writing, "
            "execute_subthread, initial_phase, prepare_subthread, completed)");
  // Only the user's message (with its pending task) was written; the failing step wrote nothing.
  EXPECT_EQ(host.event_types(first->id).size(), events_before + 1);
  auto after = host.repository.load_thread(first->id).value();
  EXPECT_EQ(after.settings.phase, "proofreading");
  EXPECT_EQ(after.settings.pending_tasks.size(), 1U);
}

TEST_F(FlowBadInput, AHandlerSuggestingAPhaseTheAgentLacksIsRefusedAndWritesNothing) {
  auto agent = test::main_agent("TypoAgent", [](auto& handlers) {
    handlers["initial_phase"] = std::make_shared<test::model_handler>(phase_config{"initial_phase", "drafitng"},
                                                                      "initial_phase_system_prompt", true);
    handlers["drafting"] = std::make_shared<test::model_handler>(phase_config{"drafting", "completed"},
                                                                 "initial_phase_system_prompt", true);
  });
  flow_runner runner(host.repository, host.ai, agent, "writer");
  auto failed = test::run_on(host.io, runner.start("hello"));
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.err().message,
            "the StateHandler of phase \"initial_phase\" suggests phase \"drafitng\", which agent TypoAgent does not "
            "have (its phases: drafting, initial_phase, completed)");
  // The thread was created with the user's message; nothing after it.
  auto dialogs = host.log->list_dialogs({}).value();
  ASSERT_EQ(dialogs.size(), 1U);
  EXPECT_EQ(host.event_types(dialogs[0].id), (std::vector<std::string>{"dialog_created", "flow_thread_saved"}));
}

TEST_F(FlowBadInput, AModelFailureInsideTheNestedSubThreadNamesItAndLeavesTheLastDurableStep) {
  flow_runner runner(host.repository, host.ai, article_agent(), "writer");
  auto first = test::run_on(host.io, runner.start("I want an article"));
  ASSERT_TRUE(first);
  answer = [](const llm::model_request& r) -> result<std::string> {
    if (r.system_prompt == "outline_reviewing_system_prompt") {
      return make_error(errc::provider_error, "503 upstream overloaded");
    }
    return article_model(r);
  };
  auto failed = test::run_on(host.io, runner.say(first->id, "Tea, for beginners"));
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.err().code, errc::provider_error);
  const auto& message = failed.err().message;
  EXPECT_NE(
      message.find("sub-thread \"messages.3.meta._thread\" of agent OutlineDraftingAgent, phase \"outline_review\""),
      std::string::npos)
      << message;
  EXPECT_NE(message.find("sub-thread \"messages.3.meta._thread.messages.3.meta._thread\" of agent OutlineReviewAgent, "
                         "phase \"initial_phase\""),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("503 upstream overloaded"), std::string::npos);

  // On disk: everything up to the nested Starter's message, nothing of the failed call.
  auto disk = host.repository.load_thread(first->id).value();
  const auto& review = *disk.messages[3].sub_thread->messages[3].sub_thread;
  ASSERT_EQ(review.messages.size(), 1U);
  EXPECT_EQ(review.messages[0].text, "Review this outline for gaps.");
  EXPECT_EQ(disk.settings.pending_tasks.size(), 1U);

  // Once the model answers again, resume finishes the flow without writing anything twice.
  answer = article_model;
  const auto calls_before = host.model->calls.size();
  auto resumed = test::run_on(host.io, runner.resume(first->id));
  ASSERT_TRUE(resumed) << resumed.err().message;
  EXPECT_EQ(host.model->calls.size(), calls_before + 2);  // the review and the article, nothing else again
  ASSERT_EQ(resumed->messages.size(), 5U);
  const auto& outline = *resumed->messages[3].sub_thread;
  EXPECT_EQ(outline.messages.size(), 4U);
  EXPECT_EQ(outline.messages[3].sub_thread->messages.size(), 2U);
}

TEST_F(FlowBadInput, ACycleOfPhasesWithNoExitStopsWithTheWalkNamed) {
  auto looping = test::sub_agent("LoopingAgent", [](auto& units) {
    auto handler = std::make_shared<test::model_handler>(phase_config{"drafting", "revising"},
                                                         "initial_phase_system_prompt", false);
    units["initial_phase"] =
        std::make_shared<test::review_responsor>(phase_config{"initial_phase", "revising"}, handler);
    units["revising"] = std::make_shared<test::review_responsor>(phase_config{"revising", "initial_phase"}, handler);
  });
  auto agent = test::main_agent("CycleAgent", [looping](auto& handlers) {
    handlers["initial_phase"] = std::make_shared<sub_thread_preparation_handler>(
        phase_config{"initial_phase", "execute_subthread"}, "Working…");
    handlers["execute_subthread"] =
        std::make_shared<sub_thread_execution_handler>(phase_config{"execute_subthread", "completed"}, looping);
  });
  flow_runner runner(host.repository, host.ai, agent, "writer");
  auto failed = test::run_on(host.io, runner.start("go"));
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.err().code, errc::limit_exceeded);
  EXPECT_NE(failed.err().message.find("initial_phase → revising → initial_phase"), std::string::npos)
      << failed.err().message;
  EXPECT_NE(failed.err().message.find("cycle without an exit"), std::string::npos);
}

TEST_F(FlowBadInput, ARetryRemovesTheSuggestionWithoutApplyingIt) {
  flow_runner runner(host.repository, host.ai, article_agent(), "writer");
  auto first = test::run_on(host.io, runner.start("I want an article"));
  ASSERT_TRUE(first);
  ASSERT_EQ(first->settings.phase_update_suggestion->phase, "prepare_subthread");
  auto retried = test::run_on(host.io, runner.say(first->id, "ask me again", "retry"));
  ASSERT_TRUE(retried) << retried.err().message;
  // Still initial_phase: its handler asked again (and suggested again).
  EXPECT_EQ(retried->settings.phase, "initial_phase");
  EXPECT_EQ(retried->messages.back().text, "Which topic and audience?");
  // The log shows the suggestion removed with the phase unchanged, before the handler ran: with
  // the retry's message, in the one event that took it in (the removal merged into it).
  auto events = host.log->read_events(first->id).value();
  const auto retry_message = std::find_if(events.rbegin(), events.rend(), [](const event& ev) {
    const auto* appended = ev.as<events::flow_thread_appended>();
    return appended != nullptr && appended->appends.size() == 1 && appended->appends[0].path.empty() &&
           appended->appends[0].messages.at(0).at("text") == "ask me again";
  });
  ASSERT_NE(retry_message, events.rend());
  const auto& settings = retry_message->as<events::flow_thread_appended>()->settings;
  ASSERT_TRUE(settings.has_value());
  EXPECT_FALSE(settings->contains("_phaseUpdateSuggestion"));
  EXPECT_EQ(settings->at("briefStatus").at("phase"), "initial_phase");
  auto bad_action = test::run_on(host.io, runner.say(first->id, "x", "redo"));
  ASSERT_FALSE(bad_action);
  EXPECT_NE(bad_action.err().message.find("_ui_action"), std::string::npos);
}

TEST_F(FlowBadInput, MessagesMustBeTextAndAFlowAtWorkTakesNoNewMessage) {
  flow_runner runner(host.repository, host.ai, article_agent(), "writer");
  EXPECT_EQ(test::run_on(host.io, runner.start("")).err().message, "message: empty");
  EXPECT_EQ(test::run_on(host.io, runner.start("caf\xFF")).err().message, "message: not valid UTF-8");
  answer = [](const llm::model_request&) -> result<std::string> { return make_error(errc::provider_error, "down"); };
  auto failed = test::run_on(host.io, runner.start("I want an article"));
  ASSERT_FALSE(failed);
  auto dialogs = host.log->list_dialogs({}).value();
  ASSERT_EQ(dialogs.size(), 1U);
  auto busy = test::run_on(host.io, runner.say(dialogs[0].id, "hello?"));
  ASSERT_FALSE(busy);
  EXPECT_EQ(busy.err().code, errc::conflict);
  EXPECT_NE(busy.err().message.find("resume it"), std::string::npos);
  EXPECT_EQ(test::run_on(host.io, runner.say("0000000000000000", "x")).err().code, errc::not_found);
}

}  // namespace
}  // namespace parley::flow
