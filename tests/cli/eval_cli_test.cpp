// `parley eval` and `parley diff` run as a user runs them, on the demo team's suite
// (examples/eval/demo_suite.yaml) against its scripted model.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "parley/store/sqlite/sqlite_handle.hpp"
#include "parley/store/store.hpp"
#include "support/cli_runner.hpp"

namespace parley {
namespace {

namespace fs = std::filesystem;

class EvalCli : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device device;
    root_ = fs::temp_directory_path() / ("parley-eval-cli-" + std::to_string(device()));
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  std::string data() const { return " --data " + (root_ / "data").string(); }
  static std::string suite() { return std::string(PARLEY_SOURCE_DIR) + "/examples/eval/demo_suite.yaml"; }
  static std::string run_id(const std::string& output) {
    std::smatch match;
    return std::regex_search(output, match, std::regex("run (run-[0-9a-f-]+):")) ? match[1].str() : std::string();
  }
  static std::string slurp(const fs::path& file) {
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }
  fs::path root_;
};

TEST_F(EvalCli, TheDemoSuitePassesIsRecordedAndComparesWithItselfAsTheSame) {
  const auto first = parley::testing::run_cli("eval " + suite() + data() + " --concurrency 2");
  ASSERT_EQ(first.status, 0) << first.output;
  EXPECT_NE(first.output.find("pass  notes (1/1 passed)"), std::string::npos) << first.output;
  EXPECT_NE(first.output.find("pass  hierarchy (1/1 passed)"), std::string::npos) << first.output;
  const std::string id = run_id(first.output);
  ASSERT_FALSE(id.empty()) << first.output;
  ASSERT_TRUE(fs::exists(root_ / "data" / "eval-runs" / (id + ".json")));

  const auto junit = root_ / "junit.xml";
  const auto html = root_ / "report";
  const auto second = parley::testing::run_cli("eval " + suite() + data() + " --repeat 2 --compare " + id +
                                               " --junit " + junit.string() + " --html " + html.string());
  ASSERT_EQ(second.status, 0) << second.output;
  EXPECT_NE(second.output.find("pass  notes (2/2 passed)"), std::string::npos) << second.output;
  EXPECT_NE(second.output.find("same   notes (100% -> 100%)"), std::string::npos) << second.output;
  EXPECT_NE(slurp(junit).find("tests=\"4\" failures=\"0\" errors=\"0\""), std::string::npos) << slurp(junit);
  EXPECT_NE(slurp(html / "index.html").find("compared with the earlier run"), std::string::npos);
}

TEST_F(EvalCli, DiffAlignsTheTwoDemoTreesAndSaysWhereTheyPart) {
  const auto ran = parley::testing::run_cli("eval " + suite() + data());
  ASSERT_EQ(ran.status, 0) << ran.output;
  auto run = boost::json::parse(slurp(root_ / "data" / "eval-runs" / (run_id(ran.output) + ".json"))).as_object();
  const auto& cases = run.at("cases").as_array();
  const std::string notes(cases[0].at("attempts").at(0).at("rootId").as_string());
  const std::string hierarchy(cases[1].at("attempts").at(0).at("rootId").as_string());

  const auto diff = parley::testing::run_cli("diff " + notes + " " + hierarchy + data() + " --json");
  ASSERT_EQ(diff.status, 0) << diff.output;
  const auto json = boost::json::parse(diff.output).as_object();
  EXPECT_EQ(json.at("firstParting").at("path").as_string(), "@lead");
  EXPECT_EQ(json.at("firstParting").at("step").as_int64(), 0);
  const auto& dialogs = json.at("dialogs").as_array();
  ASSERT_EQ(dialogs.size(), 2U);
  EXPECT_EQ(dialogs[1].at("path").as_string(), "@lead/@researcher#1");
  EXPECT_TRUE(dialogs[1].at("a").is_null());
  EXPECT_EQ(json.at("members").at("researcher").at("b").at("rounds").as_int64(), 3);

  const auto text = parley::testing::run_cli("diff " + notes + " " + hierarchy + data());
  ASSERT_EQ(text.status, 0) << text.output;
  EXPECT_NE(text.output.find("first parting: @lead, step 1"), std::string::npos) << text.output;
  EXPECT_NE(text.output.find("+ @lead/@researcher#1"), std::string::npos) << text.output;

  const auto missing = parley::testing::run_cli("diff " + notes + " nosuchroot" + data());
  EXPECT_EQ(missing.status, 2) << missing.output;
  EXPECT_NE(missing.output.find("no root dialog 'nosuchroot'"), std::string::npos) << missing.output;
}

TEST_F(EvalCli, AnUnknownCheckMakesItsCaseAnErrorAndTheOthersRun) {
  const std::string team = std::string(PARLEY_SOURCE_DIR) + "/examples/demo/team.yaml";
  std::ofstream(root_ / "suite.yaml") << "cases:\n"
                                         "  - name: typo\n    team: "
                                      << team
                                      << "\n    message: What is in the notes?\n    checks: [{contain: '864'}]\n"
                                         "  - name: fine\n    team: "
                                      << team
                                      << "\n    message: What is in the notes?\n    checks: [{contains: '864'}]\n";
  const auto out = parley::testing::run_cli("eval " + (root_ / "suite.yaml").string() + data());
  EXPECT_EQ(out.status, 1) << out.output;
  EXPECT_NE(out.output.find("error typo (0/1 passed)"), std::string::npos) << out.output;
  EXPECT_NE(out.output.find("suite.yaml:5:15: cases[0].checks[0].contain: unknown check 'contain'"), std::string::npos)
      << out.output;
  EXPECT_NE(out.output.find("pass  fine (1/1 passed)"), std::string::npos) << out.output;
}

TEST_F(EvalCli, ASuiteThatDoesNotReadIsAUsageErrorNamingFileAndLine) {
  std::ofstream(root_ / "broken.yaml") << "cases:\n  - name: x\n    team: [\n";
  const auto out = parley::testing::run_cli("eval " + (root_ / "broken.yaml").string() + data());
  EXPECT_EQ(out.status, 2) << out.output;
  EXPECT_NE(out.output.find("broken.yaml:4:1: YAML syntax error"), std::string::npos) << out.output;
  EXPECT_FALSE(fs::exists(root_ / "data" / "eval-runs"));
}

TEST_F(EvalCli, TheUserOwnsTheRunAndItsTreesAndABadUserIdIsRefusedBeforeAnythingRuns) {
  const auto bad = parley::testing::run_cli("eval " + suite() + data() + " --user 1ann");
  EXPECT_EQ(bad.status, 2) << bad.output;
  EXPECT_NE(bad.output.find("--user: expected a user id"), std::string::npos) << bad.output;
  EXPECT_FALSE(fs::exists(root_ / "data" / "eval-runs"));

  const auto ran = parley::testing::run_cli("eval " + suite() + data() + " --user ann");
  ASSERT_EQ(ran.status, 0) << ran.output;
  auto run = boost::json::parse(slurp(root_ / "data" / "eval-runs" / (run_id(ran.output) + ".json"))).as_object();
  EXPECT_EQ(run.at("owner").as_string(), "ann");
  EXPECT_FALSE(run.contains("comparedWith"));
  const auto& notes = run.at("cases").at(0).at("attempts").at(0).as_object();
  // The case's tree and its judge's tree are ann's: she sees them where she sees the run.
  std::vector<std::string> roots{std::string(notes.at("rootId").as_string())};
  for (const auto& check : notes.at("checks").as_array()) {
    if (!check.at("judgeRoot").as_string().empty()) roots.emplace_back(check.at("judgeRoot").as_string());
  }
  ASSERT_EQ(roots.size(), 2U) << ran.output;
  auto log = open_sqlite_store((root_ / "data").string());
  ASSERT_TRUE(log.has_value());
  for (const auto& root : roots) {
    auto row = (*log)->get_dialog(root);
    ASSERT_TRUE(row && *row) << root;
    EXPECT_EQ((**row).humans, std::vector<std::string>{"ann"}) << root;
  }
}

}  // namespace
}  // namespace parley
