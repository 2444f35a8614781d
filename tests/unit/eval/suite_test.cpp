// The suite reader: what it reads, and every error it gives, each naming the file and the line.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "parley/eval/suite.hpp"

namespace parley::eval {
namespace {

namespace fs = std::filesystem;

class SuiteFile : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device device;
    dir_ = fs::temp_directory_path() / ("parley-suite-" + std::to_string(device()));
    fs::create_directories(dir_);
    std::ofstream(dir_ / "team.yaml") << "version: 1\n";
  }
  void TearDown() override { fs::remove_all(dir_); }
  result<eval_suite> parse(const std::string& text) const { return parse_suite(dir_ / "suite.yaml", text); }
  // The one case of `checks` (a YAML list, indented as a case's key) and its error.
  std::string case_error(const std::string& body) const {
    auto suite = parse("cases:\n  - name: one\n    team: team.yaml\n    message: hi\n" + body);
    EXPECT_TRUE(suite.has_value()) << (suite ? "" : suite.err().message);
    if (!suite || suite->cases.empty() || !suite->cases[0].error) return {};
    return *suite->cases[0].error;
  }
  std::string file() const { return (dir_ / "suite.yaml").string(); }
  fs::path dir_;
};

TEST_F(SuiteFile, ReadsEveryCheckKindAndTheAnswers) {
  auto suite = parse(R"(cases:
  - name: full
    team: team.yaml
    member: lead
    message: "What is in the notes?"
    answers:
      - "first"
      - {question: "Which part", answer: "The engine."}
    checks:
      - contains: "864"
      - regex: "\\d+ hours"
      - json_schema: {type: object, required: [a]}
      - asked: [researcher]
      - tool_called: calculate
      - tool_not_called: write_file
      - max_rounds: 5
      - max_tokens: 1000
      - max_cost: 0.5
      - judge: {team: team.yaml, member: judge, rubric: "gives the hours"}
)");
  ASSERT_TRUE(suite.has_value()) << suite.err().message;
  ASSERT_EQ(suite->cases.size(), 1U);
  const auto& one = suite->cases[0];
  EXPECT_FALSE(one.error) << *one.error;
  EXPECT_EQ(one.team, dir_ / "team.yaml");
  EXPECT_EQ(one.member, "lead");
  ASSERT_EQ(one.answers.size(), 2U);
  EXPECT_EQ(one.answers[0].question, "");
  EXPECT_EQ(one.answers[1].question, "Which part");
  ASSERT_EQ(one.checks.size(), 10U);
  EXPECT_EQ(one.checks[0].label(), "contains: 864");
  EXPECT_EQ(one.checks[3].members, std::vector<std::string>{"researcher"});
  EXPECT_EQ(one.checks[6].label(), "max_rounds: 5");
  EXPECT_EQ(one.checks[8].limit, 0.5);
  EXPECT_EQ(one.checks[9].judge.rubric, "gives the hours");
  EXPECT_EQ(one.checks[0].where, file() + ":10:9");
}

TEST_F(SuiteFile, AProblemOfTheWholeFileRefusesTheSuiteNamingFileAndLine) {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"cases: [\n", ":2:1: YAML syntax error"},
      {"other: 1\n", ":1:1: other: unknown key 'other'"},
      {"cases: {a: 1}\n", ":1:8: cases: got "},
      {"cases: []\n", "missing"},
      {"cases:\n  - {name: a, team: team.yaml, message: m, checks: [{contains: x}]}\n"
       "  - {name: a, team: team.yaml, message: m, checks: [{contains: x}]}\n",
       ":3:5: cases[1]: a second case named 'a'"},
  };
  for (const auto& [text, expected] : bad) {
    auto suite = parse(text);
    ASSERT_FALSE(suite.has_value()) << text;
    EXPECT_NE(suite.err().message.find(file()), std::string::npos) << suite.err().message;
    EXPECT_NE(suite.err().message.find(expected), std::string::npos) << text << " → " << suite.err().message;
  }
}

TEST_F(SuiteFile, AProblemOfOneCaseMakesThatCaseAnErrorAndKeepsTheOthers) {
  auto suite = parse(R"(cases:
  - name: broken
    team: team.yaml
    message: hi
    checks: [{contain: "x"}]
  - name: fine
    team: team.yaml
    message: hi
    checks: [{contains: "x"}]
)");
  ASSERT_TRUE(suite.has_value()) << suite.err().message;
  ASSERT_EQ(suite->cases.size(), 2U);
  ASSERT_TRUE(suite->cases[0].error);
  EXPECT_EQ(*suite->cases[0].error, file() +
                                        ":5:15: cases[0].checks[0].contain: unknown check 'contain' (did you mean "
                                        "'contains'?); expected one of: contains, regex, json_schema, asked, "
                                        "tool_called, tool_not_called, max_rounds, max_tokens, max_cost or judge");
  EXPECT_FALSE(suite->cases[1].error);
}

TEST_F(SuiteFile, EveryCaseErrorNamesTheFileLineAndField) {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"    checks: [{regex: \"(\"}]\n", ":5:22: cases[0].checks[0].regex: invalid regex '('"},
      {"    checks: [{json_schema: {if: {}}}]\n", ":5:28: cases[0].checks[0].json_schema: cannot be evaluated:"},
      {"    checks: [{asked: []}]\n", "cases[0].checks[0].asked: an empty list"},
      {"    checks: [{max_rounds: 0}]\n", "cases[0].checks[0].max_rounds:"},
      {"    checks: [{max_cost: -1}]\n", "cases[0].checks[0].max_cost:"},
      {"    checks: [{contains: a, regex: b}]\n",
       ":5:14: cases[0].checks[0]: a check is a mapping with exactly one key"},
      {"    checks: [{judge: {team: team.yaml}}]\n", "cases[0].checks[0].judge: missing required key 'rubric'"},
      {"    checks: [{judge: {team: gone.yaml, rubric: r}}]\n",
       "cases[0].checks[0].judge.team: no such file or folder"},
      {"    checks: []\n", "checks"},
      {"    answers: [{question: q}]\n    checks: [{contains: a}]\n",
       "cases[0].answers[0]: missing required key 'answer'"},
      {"    answers: [\"\"]\n    checks: [{contains: a}]\n", ":5:15: cases[0].answers[0]: an empty answer"},
      {"    colour: red\n    checks: [{contains: a}]\n", ":5:5: cases[0].colour: unknown key 'colour'"},
  };
  for (const auto& [body, expected] : bad) {
    const std::string error = case_error(body);
    EXPECT_EQ(error.rfind(file() + ":", 0), 0U) << body << " → " << error;
    EXPECT_NE(error.find(expected), std::string::npos) << body << " → " << error;
  }
}

TEST_F(SuiteFile, ACaseWithoutTeamOrMessageOrWithAMissingTeamFileIsAnError) {
  auto suite = parse(R"(cases:
  - name: no team
    message: hi
    checks: [{contains: a}]
  - name: no message
    team: team.yaml
    checks: [{contains: a}]
  - name: gone
    team: nowhere.yaml
    message: hi
    checks: [{contains: a}]
)");
  ASSERT_TRUE(suite.has_value()) << suite.err().message;
  ASSERT_EQ(suite->cases.size(), 3U);
  for (const auto& one : suite->cases) ASSERT_TRUE(one.error) << one.name;
  EXPECT_NE(suite->cases[0].error->find("cases[0]: missing required key 'team'"), std::string::npos)
      << *suite->cases[0].error;
  EXPECT_NE(suite->cases[1].error->find("cases[1]: missing required key 'message'"), std::string::npos)
      << *suite->cases[1].error;
  EXPECT_NE(suite->cases[2].error->find(":9:11: cases[2].team: no such file or folder"), std::string::npos)
      << *suite->cases[2].error;
}

}  // namespace
}  // namespace parley::eval
