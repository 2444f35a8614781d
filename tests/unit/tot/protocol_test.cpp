#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

#include <string>

#include "parley/tot/protocol_json.hpp"
#include "parley/tot/protocol_names.hpp"

namespace parley::tot {
namespace {

constexpr const char* kEvaluationReply = R"({"type":"evaluation_results","payload":{
  "evaluations":[{"node_id":"node_1_1","score":7.5,"confidence":0.8,"reasoning":"r",
                  "dimension_scores":{"correctness":10,"progress":5}}],
  "ranking":["node_1_1"],"pruning_suggestions":[]}})";

TEST(TotProtocol, TheSeedsEvaluationExampleReadsAndWritesBackUnchanged) {
  auto read = parse_reply<evaluation_results>(kEvaluationReply);
  ASSERT_TRUE(read) << read.err().message;
  ASSERT_EQ(read->evaluations.size(), 1u);
  EXPECT_DOUBLE_EQ(read->evaluations[0].score, 7.5);
  EXPECT_DOUBLE_EQ(read->evaluations[0].dimension_scores.at("progress"), 5);
  const message wrapped{agent_role::evaluator, "explorer", *read, "t1", std::nullopt};
  auto again = parse_message(to_text(wrapped));
  ASSERT_TRUE(again) << again.err().message;
  EXPECT_EQ(to_text(*again), to_text(wrapped));
}

TEST(TotProtocol, EveryMessageTypeRoundTrips) {
  thought_node root{"root", std::nullopt, {"node_1"}, 0, "4 9 10 13", "", std::nullopt, node_status::expanded, {}};
  thought_node child{"node_1",
                     "root",
                     {},
                     1,
                     "13 - 9 = 4 (left: 4 4 10)",
                     "subtraction",
                     node_evaluation{7, 0.8, "r"},
                     node_status::pending,
                     {{"left", "4 4 10"}}};
  thought_tree tree{"t",
                    "4 9 10 13",
                    task_type::math_reasoning,
                    {},
                    {{"root", root}, {"node_1", child}},
                    "root",
                    {1, {"node_1"}, {"root", "node_1"}}};
  std::vector<message_payload> payloads{
      decompose_task{"p", task_type::planning},
      decomposition_result{"equation", {"s1"}, 3, {"c"}, "= 24"},
      generate_thoughts{root, generation_strategy::sequential_proposal, 5, {"p", "24", {"once"}}},
      generated_thoughts{{{"cand_1", "13 - 9 = 4", "subtraction", {}}}},
      evaluate_thoughts{{child}, evaluation_strategy::comparative_voting, {"progress"}, {"p", "24", 1, 3}},
      evaluation_results{{{"node_1", 7, 0.5, "ok", {}}}, {"node_1"}, {}},
      initialize_search{"p", task_type::debugging, {search_strategy::dfs, 4, 3, 5.5}, {}},
      search_complete{{root, child}, tree, {2, 0, 3}},
      synthesize_solution{{root, child}, "p", task_type::math_reasoning},
      final_solution{"(10 - (13 - 9)) * 4", {"a"}, 1.0, {true, {}}, {}},
  };
  for (const auto& payload : payloads) {
    const message sent{agent_role::explorer, "generator", payload, "t",
                       protocol_error{error_code::search_exhausted, "m", false}};
    auto read = parse_message(to_text(sent));
    ASSERT_TRUE(read) << type_name_of(payload) << ": " << read.err().message;
    EXPECT_EQ(read->payload.index(), payload.index());
    EXPECT_EQ(to_text(*read), to_text(sent)) << type_name_of(payload);
  }
}

struct refusal_case {
  const char* name;
  const char* text;
  const char* expected;  // a part of the error message
};

class refusals : public ::testing::TestWithParam<refusal_case> {};
using TotProtocolRefusals = refusals;

TEST_P(TotProtocolRefusals, NameTheField) {
  const auto& c = GetParam();
  auto read = parse_message(c.text);
  ASSERT_FALSE(read) << c.name;
  EXPECT_EQ(read.err().code, errc::invalid_argument);
  EXPECT_NE(read.err().message.find(c.expected), std::string::npos) << c.name << ": " << read.err().message;
}

const refusal_case kRefusals[] = {
    {"prose", "I think 4 + 4 = 8 is a good start.", "invalid JSON"},
    {"unknown_top_field", R"({"type":"decompose_task","payload":{"problem":"p","task_type":"planning"},"extra":1})",
     "extra: is not a field"},
    {"unknown_payload_field", R"({"type":"decompose_task","payload":{"problem":"p","task_type":"planning","x":1}})",
     "payload.x: is not a field"},
    {"unknown_type", R"({"type":"hello","payload":{}})", "type: 'hello' is not a message type"},
    {"unknown_task_type", R"({"type":"decompose_task","payload":{"problem":"p","task_type":"poetry"}})",
     "payload.task_type: 'poetry' is not one of math_reasoning"},
    {"empty_problem", R"({"type":"decompose_task","payload":{"problem":"","task_type":"planning"}})",
     "payload.problem: must not be empty"},
    {"wrong_type", R"({"type":"decompose_task","payload":{"problem":7,"task_type":"planning"}})",
     "payload.problem: must be a string, got the number 7"},
    {"missing_field", R"({"type":"decompose_task","payload":{"task_type":"planning"}})",
     "payload.problem: is required"},
    {"score_above_10",
     R"({"type":"evaluation_results","payload":{"evaluations":[{"node_id":"a","score":11,"confidence":0.5}]}})",
     "payload.evaluations[0].score: 11 is outside 0–10"},
    {"score_below_0",
     R"({"type":"evaluation_results","payload":{"evaluations":[{"node_id":"a","score":-1,"confidence":0.5}]}})",
     "payload.evaluations[0].score: -1 is outside 0–10"},
    {"score_as_text",
     R"({"type":"evaluation_results","payload":{"evaluations":[{"node_id":"a","score":"high","confidence":0.5}]}})",
     "payload.evaluations[0].score: must be a number, got the string \"high\""},
    {"confidence_above_1",
     R"({"type":"evaluation_results","payload":{"evaluations":[{"node_id":"a","score":1,"confidence":2}]}})",
     "payload.evaluations[0].confidence: 2 is outside 0–1"},
    {"dimension_out_of_range",
     R"({"type":"evaluation_results","payload":{"evaluations":[{"node_id":"a","score":1,"confidence":1,"dimension_scores":{"progress":12}}]}})",
     "payload.evaluations[0].dimension_scores.progress: 12 is outside 0–10"},
    {"duplicate_evaluations",
     R"({"type":"evaluation_results","payload":{"evaluations":[{"node_id":"a","score":1,"confidence":1},{"node_id":"a","score":2,"confidence":1}]}})",
     "payload.evaluations[1]: duplicate id 'a'"},
    {"ranking_unknown_node",
     R"({"type":"evaluation_results","payload":{"evaluations":[{"node_id":"a","score":1,"confidence":1}],"ranking":["b"]}})",
     "payload.ranking: 'b' is not an evaluated node"},
    {"duplicate_candidates",
     R"({"type":"generated_thoughts","payload":{"candidates":[{"temp_id":"c","content":"x"},{"temp_id":"c","content":"y"}]}})",
     "payload.candidates[1]: duplicate id 'c'"},
    {"breadth_out_of_range",
     R"({"type":"initialize_search","payload":{"problem":"p","task_type":"planning","search_config":{"strategy":"BFS","max_depth":3,"branching_factor":0,"pruning_threshold":5}}})",
     "payload.search_config.branching_factor: 0 is outside 1–20"},
    {"depth_out_of_range",
     R"({"type":"initialize_search","payload":{"problem":"p","task_type":"planning","search_config":{"strategy":"BFS","max_depth":99,"branching_factor":3,"pruning_threshold":5}}})",
     "payload.search_config.max_depth: 99 is outside 1–10"},
    {"threshold_out_of_range",
     R"({"type":"initialize_search","payload":{"problem":"p","task_type":"planning","search_config":{"strategy":"BFS","max_depth":3,"branching_factor":3,"pruning_threshold":10.5}}})",
     "payload.search_config.pruning_threshold: 10.5 is outside 0–10"},
    {"unknown_strategy",
     R"({"type":"initialize_search","payload":{"problem":"p","task_type":"planning","search_config":{"strategy":"A*","max_depth":3,"branching_factor":3,"pruning_threshold":5}}})",
     "payload.search_config.strategy: 'A*' is not one of BFS, DFS"},
    {"depth_not_integer",
     R"({"type":"initialize_search","payload":{"problem":"p","task_type":"planning","search_config":{"strategy":"BFS","max_depth":2.5,"branching_factor":3,"pruning_threshold":5}}})",
     "payload.search_config.max_depth: must be an integer, got the number 2.5"},
    {"unknown_error_code",
     R"({"type":"decompose_task","payload":{"problem":"p","task_type":"planning"},"error":{"code":"OOPS","message":"m","recoverable":true}})",
     "error.code: 'OOPS' is not one of INVALID_FORMAT"},
    {"unknown_role", R"({"from":"critic","type":"decompose_task","payload":{"problem":"p","task_type":"planning"}})",
     "from: 'critic' is not one of orchestrator"},
};

INSTANTIATE_TEST_SUITE_P(Table, TotProtocolRefusals, ::testing::ValuesIn(kRefusals),
                         [](const auto& info) { return std::string(info.param.name); });

std::string tree_with(const std::string& nodes, const std::string& root = "root") {
  return R"({"type":"search_complete","payload":{"best_path":[],"stats":{"total_nodes":1,"total_backtracks":0,"llm_calls":0},
    "tree":{"task_id":"t","problem":"p","task_type":"math_reasoning",
      "search_config":{"strategy":"BFS","max_depth":3,"branching_factor":5,"pruning_threshold":5},
      "root_id":")" +
         root + R"(","nodes":{)" + nodes + "}}}}";
}

TEST(TotProtocol, ATreeWhoseParentDoesNotExistIsRefused) {
  auto read = parse_message(tree_with(
      R"("root":{"id":"root","parent_id":null,"depth":0,"content":"p"},
         "n1":{"id":"n1","parent_id":"ghost","depth":1,"content":"x"})"));
  ASSERT_FALSE(read);
  EXPECT_EQ(read.err().message, "payload.tree.nodes.n1.parent_id: 'ghost' is not a node");
}

TEST(TotProtocol, ATreeWhoseNodeIdDiffersFromItsKeyIsRefused) {
  auto read = parse_message(tree_with(R"("root":{"id":"other","parent_id":null,"depth":0,"content":"p"})"));
  ASSERT_FALSE(read);
  EXPECT_EQ(read.err().message, "payload.tree.nodes.root.id: 'other' differs from its key 'root'");
}

TEST(TotProtocol, ATreeWithoutItsRootIsRefused) {
  auto read = parse_message(tree_with(R"("a":{"id":"a","parent_id":null,"depth":0,"content":"p"})", "root"));
  ASSERT_FALSE(read);
  EXPECT_EQ(read.err().message, "payload.tree.root_id: 'root' is not a node");
}

TEST(TotProtocol, AReplyOfAnotherTypeIsRefusedNamingBoth) {
  auto read = parse_reply<generated_thoughts>(kEvaluationReply);
  ASSERT_FALSE(read);
  EXPECT_EQ(read.err().message, "type: expected 'generated_thoughts', got 'evaluation_results'");
}

TEST(TotProtocol, AReplyInsideAFenceIsRead) {
  auto read = parse_reply<evaluation_results>(std::string("Here it is:\n```json\n") + kEvaluationReply + "\n```\n");
  EXPECT_TRUE(read) << read.err().message;
}

TEST(TotProtocol, ProblemsThatAreEmptyOrOversizedAreRefused) {
  EXPECT_EQ(check_problem("  \n").err().message, "problem: must not be empty");
  EXPECT_NE(check_problem(std::string(kMaxProblemBytes + 1, 'x')).err().message.find("problem: 8193 bytes is more"),
            std::string::npos);
  EXPECT_EQ(check_problem("ab\xFF").err().message, "problem: is not UTF-8");
  EXPECT_TRUE(check_problem("4 9 10 13"));
}

}  // namespace
}  // namespace parley::tot
