// `parley run --member article_writer` then `parley say`: a member of kind flow (seed 004) run by
// the real binary on the offline model; the thread is a dialog of the log.
#include <gtest/gtest.h>
#include <boost/json/parse.hpp>

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "parley/store/store.hpp"
#include "support/cli_runner.hpp"

namespace parley {
namespace {

namespace fs = std::filesystem;

using flow_cli_outcome = parley::testing::cli_outcome;

flow_cli_outcome run_parley(const std::string& args) { return parley::testing::run_cli(args); }

struct flow_cli_fixture : ::testing::Test {
  flow_cli_fixture() {
    std::random_device device;
    data = fs::temp_directory_path() / ("parley-flow-cli-" + std::to_string(device()));
  }
  ~flow_cli_fixture() override {
    std::error_code ignored;
    fs::remove_all(data, ignored);
  }
  std::string team() const { return " --team " + std::string(PARLEY_SOURCE_DIR) + "/examples/flows/team.yaml"; }
  std::string data_arg() const { return " --data " + data.string(); }
  fs::path data;
};
using FlowCli = flow_cli_fixture;

std::string dialog_of(const std::string& output) {
  const auto at = output.find("\ndialog ");
  if (at == std::string::npos) return {};
  return output.substr(at + 8, 16);
}

TEST_F(FlowCli, RunStartsTheFlowAndSayCarriesItThroughItsSubThreadsToTheEnd) {
  auto first = run_parley("run" + team() + data_arg() + " --member article_writer 'Write me an article'");
  ASSERT_EQ(first.status, 0) << first.output;
  EXPECT_NE(first.output.find("What topic should the article cover, and who will read it?"), std::string::npos)
      << first.output;
  EXPECT_NE(first.output.find("the flow waits for you (phase initial_phase, next prepare_subthread)"),
            std::string::npos);
  const auto id = dialog_of(first.output);
  ASSERT_EQ(id.size(), 16U) << first.output;

  auto second = run_parley("say" + data_arg() + " " + id + " 'Tea, for beginners'");
  ASSERT_EQ(second.status, 0) << second.output;
  EXPECT_NE(second.output.find("[sub-thread sub_" + id), std::string::npos) << second.output;
  EXPECT_NE(second.output.find("Missing: a closing summary"), std::string::npos);
  EXPECT_NE(second.output.find("Tea for beginners. Tea matters because"), std::string::npos);
  EXPECT_NE(second.output.find("the flow is completed"), std::string::npos);

  auto third = run_parley("say" + data_arg() + " " + id + " 'more'");
  EXPECT_EQ(third.status, 1);
  EXPECT_NE(third.output.find("is completed"), std::string::npos) << third.output;

  // The thread is a root dialog of the flow member in the log.
  auto log = open_sqlite_store(data.string());
  ASSERT_TRUE(log.has_value());
  auto dialogs = (*log)->list_dialogs({}).value();
  ASSERT_EQ(dialogs.size(), 1U);
  EXPECT_EQ(dialogs[0].id, id);
  EXPECT_EQ(dialogs[0].member_id, "article_writer");
}

// Seed 004 §4.2: "如果是retry任务，只移除建议但不应用" — `parley say --retry` sends the message with
// `_ui_action: "retry"`: the waiting suggestion (prepare_subthread) is dropped and initial_phase
// answers again.
TEST_F(FlowCli, SayRetryDropsTheWaitingSuggestionAndTheCurrentPhaseAnswersAgain) {
  auto first = run_parley("run" + team() + data_arg() + " --member article_writer 'Write me an article'");
  ASSERT_EQ(first.status, 0) << first.output;
  const auto id = dialog_of(first.output);
  ASSERT_EQ(id.size(), 16U) << first.output;
  auto retried = run_parley("say --retry" + data_arg() + " " + id + " 'Write me an article'");
  ASSERT_EQ(retried.status, 0) << retried.output;
  EXPECT_NE(retried.output.find("What topic should the article cover, and who will read it?"), std::string::npos)
      << retried.output;
  // Still in initial_phase: the retry's own answer suggests prepare_subthread again.
  EXPECT_NE(retried.output.find("phase initial_phase, next prepare_subthread"), std::string::npos) << retried.output;
  EXPECT_EQ(retried.output.find("[sub-thread"), std::string::npos) << retried.output;
  auto plain = run_parley("say --retry --data " + data.string() + "-none nosuchdialog0000 'x'");
  EXPECT_NE(plain.status, 0);
}

TEST_F(FlowCli, ShowPrintsThePhaseTheMessagesAndEachSubThreadIndentedUnderTheMessageThatHoldsIt) {
  auto first = run_parley("run" + team() + data_arg() + " --member article_writer 'Write me an article'");
  ASSERT_EQ(first.status, 0) << first.output;
  const auto id = dialog_of(first.output);
  ASSERT_EQ(id.size(), 16U) << first.output;

  auto waiting = run_parley("show" + data_arg() + " " + id);
  ASSERT_EQ(waiting.status, 0) << waiting.output;
  EXPECT_EQ(waiting.output, "flow dialog " + id +
                                " · @article_writer · phase initial_phase, next prepare_subthread\n"
                                "[user] Write me an article\n"
                                "[bot] What topic should the article cover, and who will read it?\n"
                                "the flow waits for you (phase initial_phase, next prepare_subthread)\n");

  ASSERT_EQ(run_parley("say" + data_arg() + " " + id + " 'Tea, for beginners'").status, 0);
  auto done = run_parley("show" + data_arg() + " " + id);
  ASSERT_EQ(done.status, 0) << done.output;
  // The outline's sub-thread sits under message 3 (the placeholder the result went into), the
  // review's nested sub-thread one step further in, each with its own phase.
  const auto outline = done.output.find("\n    sub-thread messages.3.meta._thread · phase completed · 4 messages\n");
  const auto review = done.output.find(
      "\n        sub-thread messages.3.meta._thread.messages.3.meta._thread · phase completed · 2 messages\n"
      "        [user] Review this outline.");
  const auto article = done.output.find("\n[bot] Tea for beginners. Tea matters because");
  ASSERT_NE(outline, std::string::npos) << done.output;
  ASSERT_NE(review, std::string::npos) << done.output;
  ASSERT_NE(article, std::string::npos) << done.output;
  EXPECT_LT(done.output.find("\n[user] Tea, for beginners\n"), outline);
  EXPECT_LT(outline, review);
  EXPECT_LT(review, article);
  EXPECT_NE(done.output.find("\n    [user] Draft an outline for an article. The brief: Tea, for beginners\n"),
            std::string::npos);
  EXPECT_TRUE(done.output.ends_with("the flow is completed\n")) << done.output;
}

TEST_F(FlowCli, CompleteAndReopenActOnAFlowsDialogAsOnAnyRoot) {
  auto first = run_parley("run" + team() + data_arg() + " --member article_writer 'Write me an article'");
  ASSERT_EQ(first.status, 0) << first.output;
  const auto id = dialog_of(first.output);
  auto completed = run_parley("complete " + id + data_arg());
  ASSERT_EQ(completed.status, 0) << completed.output;
  EXPECT_EQ(completed.output, id + " is completed\n");
  auto refused = run_parley("say" + data_arg() + " " + id + " 'Tea, for beginners'");
  EXPECT_EQ(refused.status, 1);
  EXPECT_NE(refused.output.find("dialog " + id + " is completed; reopen it to go on"), std::string::npos)
      << refused.output;
  auto reopened = run_parley("reopen " + id + data_arg());
  ASSERT_EQ(reopened.status, 0) << reopened.output;
  auto said = run_parley("say" + data_arg() + " " + id + " 'Tea, for beginners'");
  ASSERT_EQ(said.status, 0) << said.output;
  EXPECT_TRUE(said.output.ends_with("the flow is completed\n")) << said.output;
  auto finished = run_parley("reopen " + id + data_arg());
  EXPECT_EQ(finished.status, 1);
  EXPECT_NE(finished.output.find("its flow has finished"), std::string::npos) << finished.output;
}

TEST_F(FlowCli, ShowJsonPrintsTheThreadObjectAsSeed004ShapesIt) {
  auto first = run_parley("run" + team() + data_arg() + " --member article_writer 'Write me an article'");
  const auto id = dialog_of(first.output);
  ASSERT_EQ(id.size(), 16U) << first.output;
  ASSERT_EQ(run_parley("say" + data_arg() + " " + id + " 'Tea, for beginners'").status, 0);

  auto shown = run_parley("show --json" + data_arg() + " " + id);
  ASSERT_EQ(shown.status, 0) << shown.output;
  boost::system::error_code parse_error;
  const auto thread = boost::json::parse(shown.output, parse_error);
  ASSERT_FALSE(parse_error) << shown.output;
  EXPECT_EQ(thread.at("id").as_string(), id);
  const auto& messages = thread.at("messages").as_array();
  ASSERT_EQ(messages.size(), 5U);
  EXPECT_EQ(messages[0].at("sender").as_string(), "user");
  EXPECT_EQ(messages[0].at("text").as_string(), "Write me an article");
  EXPECT_EQ(thread.at("settings").at("briefStatus").at("phase").as_string(), "article_writing");
  const auto& outline = messages[3].at("meta").at("_thread");
  EXPECT_EQ(outline.at("settings").at("briefStatus").at("phase").as_string(), "completed");
  ASSERT_EQ(outline.at("messages").as_array().size(), 4U);
  const auto& review = outline.at("messages").at(3).at("meta").at("_thread");
  EXPECT_EQ(review.at("settings").at("briefStatus").at("phase").as_string(), "completed");
  EXPECT_EQ(review.at("messages").as_array().size(), 2U);
}

TEST_F(FlowCli, AFlowMemberWithAMissingFolderIsAConfigurationError) {
  fs::create_directories(data / "team");
  std::ofstream(data / "team/team.yaml")
      << "version: 1\nworkspace: .\nproviders:\n  p: {kind: scripted, script: s.yaml}\n"
         "members:\n  w: {kind: flow, flow: nowhere, provider: p, model: m}\n";
  std::ofstream(data / "team/s.yaml") << "members:\n  \"*\": [{emit: [{saying: hi}]}]\n";
  auto out = run_parley("run --team " + (data / "team/team.yaml").string() + " --data " + (data / "d").string() +
                        " --member w hi");
  EXPECT_EQ(out.status, 2) << out.output;
  EXPECT_NE(out.output.find("members.w.flow"), std::string::npos) << out.output;
  EXPECT_NE(out.output.find("does not exist"), std::string::npos) << out.output;
}

}  // namespace
}  // namespace parley
