// The checks on a tree and the judge's verdict read strictly.
#include <gtest/gtest.h>

#include "parley/eval/checks.hpp"

namespace parley::eval {
namespace {

tree_summary answered(const std::string& answer) {
  tree_summary tree;
  tree.root_id = "r";
  dialog_node root;
  root.id = "r";
  root.member_id = "lead";
  root.final_answer = answer;
  root.steps.push_back({step_kind::tool_call, "read_file", "{}", {}});
  root.children = {1};
  tree.dialogs.push_back(root);
  dialog_node sub;
  sub.id = "s";
  sub.member_id = "researcher";
  sub.parent_id = "r";
  tree.dialogs.push_back(sub);
  tree.total.rounds = 3;
  tree.total.input_tokens = 90;
  tree.total.output_tokens = 10;
  return tree;
}

check_spec check_of(check_kind kind, std::string text = {}, double limit = 0) {
  check_spec check;
  check.kind = kind;
  check.text = std::move(text);
  check.limit = limit;
  return check;
}

TEST(EvalChecks, TextStructureAndLimitChecksPassAndFail) {
  const auto tree = answered(R"({"hours": 864})");
  EXPECT_EQ(evaluate_check(check_of(check_kind::contains, "864"), tree).outcome, verdict::pass);
  EXPECT_EQ(evaluate_check(check_of(check_kind::contains, "865"), tree).outcome, verdict::fail);
  EXPECT_EQ(evaluate_check(check_of(check_kind::regex, "\"hours\": \\d+"), tree).outcome, verdict::pass);
  auto schema = check_of(check_kind::json_schema);
  schema.schema = {{"type", "object"}, {"required", boost::json::array{"hours"}}};
  EXPECT_EQ(evaluate_check(schema, tree).outcome, verdict::pass);
  schema.schema["required"] = boost::json::array{"days"};
  EXPECT_EQ(evaluate_check(schema, tree).outcome, verdict::fail);
  EXPECT_EQ(evaluate_check(schema, answered("not json")).outcome, verdict::fail);
  auto asked = check_of(check_kind::asked);
  asked.members = {"researcher"};
  EXPECT_EQ(evaluate_check(asked, tree).outcome, verdict::pass);
  asked.members = {"researcher", "dev"};
  const auto missing = evaluate_check(asked, tree);
  EXPECT_EQ(missing.outcome, verdict::fail);
  EXPECT_NE(missing.message.find("not asked: dev"), std::string::npos) << missing.message;
  EXPECT_EQ(evaluate_check(check_of(check_kind::tool_called, "read_file"), tree).outcome, verdict::pass);
  EXPECT_EQ(evaluate_check(check_of(check_kind::tool_not_called, "read_file"), tree).outcome, verdict::fail);
  EXPECT_EQ(evaluate_check(check_of(check_kind::max_rounds, {}, 3), tree).outcome, verdict::pass);
  EXPECT_EQ(evaluate_check(check_of(check_kind::max_rounds, {}, 2), tree).outcome, verdict::fail);
  EXPECT_EQ(evaluate_check(check_of(check_kind::max_tokens, {}, 99), tree).outcome, verdict::fail);
}

TEST(EvalChecks, ACostOfUnpricedCallsCannotBeEvaluatedAndIsAnErrorNotAPass) {
  auto tree = answered("x");
  tree.total.unpriced_calls = 2;
  const auto result = evaluate_check(check_of(check_kind::max_cost, {}, 100), tree);
  EXPECT_EQ(result.outcome, verdict::error);
  EXPECT_NE(result.message.find("cannot be evaluated"), std::string::npos) << result.message;
  tree.total.unpriced_calls = 0;
  tree.total.cost_usd = 0.5;
  EXPECT_EQ(evaluate_check(check_of(check_kind::max_cost, {}, 1), tree).outcome, verdict::pass);
  EXPECT_EQ(evaluate_check(check_of(check_kind::max_cost, {}, 0.1), tree).outcome, verdict::fail);
}

TEST(EvalChecks, AJudgesVerdictIsRecordedWithItsReasonsAndNonsenseIsAJudgeError) {
  const auto judge = check_of(check_kind::judge);
  const auto passed = read_judge_verdict(judge, "```json\n{\"verdict\": \"pass\", \"reasons\": \"gives 864\"}\n```");
  EXPECT_EQ(passed.outcome, verdict::pass);
  EXPECT_EQ(passed.reasons, "gives 864");
  EXPECT_EQ(read_judge_verdict(judge, R"({"verdict": "fail", "reasons": "no hours"})").outcome, verdict::fail);
  for (const char* nonsense : {"Looks great to me!", R"({"verdict": "maybe", "reasons": "r"})",
                               R"({"verdict": "pass"})", R"({"verdict": "pass", "reasons": ""})", "{not json}"}) {
    const auto result = read_judge_verdict(judge, nonsense);
    EXPECT_EQ(result.outcome, verdict::error) << nonsense;
    EXPECT_EQ(result.message.rfind("judge error: ", 0), 0U) << result.message;
  }
}

}  // namespace
}  // namespace parley::eval
