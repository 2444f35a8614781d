// Scenario tests that read like seed 004 §7.6, on the scripted model and the durable SQLite log:
// scenario 1 starts a sub-thread with a question (a Starter holding a StateHandler); scenario 2
// judges the AI's output and asks for the next step (a Responsor whose feedback depends on it).
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "flow_test_support.hpp"
#include "parley/flow/yaml_agent.hpp"
#include "parley/llm/scripted/scripted_provider.hpp"

namespace parley::flow {
namespace {

namespace fs = std::filesystem;
const fs::path kScenarios = fs::path(PARLEY_SOURCE_DIR) / "tests/unit/flow/scenarios";

struct scenario_fixture : ::testing::Test {
  scenario_fixture() {
    std::random_device device;
    dir = fs::temp_directory_path() / ("parley-flow-scenario-" + std::to_string(device()));
    log = open_sqlite_store(dir.string()).value();
    repository = std::make_unique<thread_repository>(*log, io.get_executor());
    ai = std::make_unique<ai_adapter>(
        std::make_shared<llm::scripted_provider>(llm::load_scripted_script(kScenarios / "script.yaml").value()),
        "analyst", "scripted");
  }
  ~scenario_fixture() override {
    repository.reset();
    log.reset();
    std::error_code ignored;
    fs::remove_all(dir, ignored);
  }
  result<flow_thread> converse(const std::string& agent_folder, const std::string& first_message) {
    auto agent = yaml_flow::load(kScenarios / agent_folder);
    if (!agent) return std::move(agent).err();
    flow_runner runner(*repository, *ai, agent->factory("analyst"), "analyst");
    return test::run_on(io, runner.start(first_message));
  }
  // What the log holds, read back as a restart would.
  flow_thread reread(const std::string& id) {
    log->flush();
    return repository->load_thread(id).value();
  }

  fs::path dir;
  boost::asio::io_context io;
  std::unique_ptr<store> log;
  std::unique_ptr<thread_repository> repository;
  std::unique_ptr<ai_adapter> ai;
};
using FlowScenario = scenario_fixture;

TEST_F(FlowScenario, OneAQuestionStartsTheFlowAndTheStarterHandsItToItsStateHandler) {
  // The user asks; the main thread shows a placeholder, then the sub-thread's result in it.
  auto main = converse("data_analysis", "the Q3 sales figures");
  ASSERT_TRUE(main) << main.err().message;
  ASSERT_EQ(main->messages.size(), 2U);
  EXPECT_EQ(main->messages[1].text, "Sales rose 12% in Q3; the format you asked for follows.");
  // In the sub-thread: DataRequestStarter's question, then dataProcessingHandler's answer — and
  // nothing after it: a Starter holding a StateHandler writes no feedback.
  const auto& sub = *main->messages[1].sub_thread;
  ASSERT_EQ(sub.messages.size(), 2U);
  EXPECT_EQ(sub.messages[0].sender, "user");
  EXPECT_EQ(sub.messages[0].text, "Please give the analysis of the Q3 sales figures in this format: ...");
  EXPECT_EQ(sub.messages[1].sender, "bot");
  EXPECT_EQ(sub.settings.phase, "completed");
  // The log says the same.
  EXPECT_EQ(to_json(reread(main->id)), to_json(*main));
}

TEST_F(FlowScenario, TwoAPerformanceFindingIsFollowedUpWithAskingHowToFixIt) {
  auto main = converse("code_review", "slow_loop(values)");
  ASSERT_TRUE(main) << main.err().message;
  const auto& sub = *main->messages[1].sub_thread;
  ASSERT_EQ(sub.messages.size(), 4U);
  EXPECT_EQ(sub.messages[1].text, "One performance problem: the loop copies the vector each time.");
  // CodeReviewResponsor read the review and asked for the fix.
  EXPECT_EQ(sub.messages[2].text,
            "Good review, but explain in detail how to fix these performance problems, with code examples.");
  EXPECT_EQ(sub.messages[3].text, "Take the vector by const reference: for (const auto& v : values) ...");
  // The refinement's next phase is completed: no user message after it.
  EXPECT_EQ(sub.messages[3].sender, "bot");
  EXPECT_NE(main->messages[1].text.find("const reference"), std::string::npos);
  EXPECT_EQ(to_json(reread(main->id)), to_json(*main));
}

TEST_F(FlowScenario, TwoWithoutAPerformanceFindingTheResponsorAsksForSecurity) {
  auto main = converse("code_review", "tidy_function()");
  ASSERT_TRUE(main) << main.err().message;
  const auto& sub = *main->messages[1].sub_thread;
  ASSERT_EQ(sub.messages.size(), 4U);
  EXPECT_EQ(sub.messages[2].text, "Please add a security assessment, especially input validation and data handling.");
  EXPECT_EQ(sub.messages[3].text, "Validate the input length before parsing.");
}

}  // namespace
}  // namespace parley::flow
