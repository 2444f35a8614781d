// Seed 003's rules checked below a whole run: which constraints contradict each other, and how the
// evaluator's `ranking` orders thoughts of equal score.
#include <gtest/gtest.h>

#include "parley/tot/decomposition_check.hpp"
#include "parley/tot/explorer.hpp"
#include "parley/tot/game24/game24_task.hpp"
#include "run_sync.hpp"

namespace parley::tot {
namespace {

// 'constraints: ["string"] // 任务约束': two that negate each other cannot both be kept.
TEST(TotDecomposition, ContradictionsAreANegatedPairNotMerelyDifferentConstraints) {
  EXPECT_TRUE(contradictory_constraints({"must use each number once", "must not use each number once"}));
  EXPECT_TRUE(contradictory_constraints({"必须使用所有数字", "不能使用所有数字"}));
  EXPECT_TRUE(contradictory_constraints({"Be concise", "never be concise"}));
  EXPECT_FALSE(contradictory_constraints({"use each number once", "only + - * /"}));
  EXPECT_FALSE(contradictory_constraints({"no division", "normal division"}));
  EXPECT_FALSE(contradictory_constraints({"use each number once", "use each number once"}));
}

// '"ranking": ["string"] // 按分数排序的 node_id' — equal scores keep the evaluator's order.
class ranking_evaluator final : public thought_evaluator {
 public:
  boost::asio::awaitable<agent_answer<evaluation_results>> evaluate(const evaluate_thoughts& request) override {
    evaluation_results out;
    for (const auto& node : request.candidates) out.evaluations.push_back({node.id, 6, 1, "equal", {}});
    for (auto it = request.candidates.rbegin(); it != request.candidates.rend(); ++it) out.ranking.push_back(it->id);
    ranking = out.ranking;
    co_return out;
  }
  std::vector<std::string> ranking;
};

TEST(TotRanking, EqualScoresAreKeptInTheEvaluatorsRankingOrder) {
  game24::game24_task task;
  game24::symbolic_generator generator;
  ranking_evaluator evaluator;
  explorer_options options;
  options.config = {search_strategy::bfs, 1, 2, 5.0};
  options.evaluation = evaluation_strategy::comparative_voting;
  options.num_candidates = 5;
  explorer search(task, generator, evaluator, options);
  auto outcome = testing::run_sync(search.run("t", "4 9 10 13", task_type::math_reasoning));
  ASSERT_GE(evaluator.ranking.size(), 3u);
  const auto& frontier = outcome.complete.tree.search_state.frontier;
  ASSERT_EQ(frontier.size(), 2u);
  EXPECT_EQ(frontier[0], evaluator.ranking[0]);
  EXPECT_EQ(frontier[1], evaluator.ranking[1]);
  EXPECT_EQ(outcome.complete.tree.nodes.at(evaluator.ranking[2]).status, node_status::pruned);
}

}  // namespace
}  // namespace parley::tot
