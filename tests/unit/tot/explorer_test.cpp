#include <gtest/gtest.h>

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <chrono>
#include <set>

#include "parley/tot/explorer.hpp"
#include "parley/tot/game24/game24_task.hpp"
#include "parley/tot/game24/puzzles.hpp"
#include "parley/tot/task_defaults.hpp"
#include "run_sync.hpp"

namespace parley::tot {
namespace {

using game24::game24_task;
using game24::symbolic_evaluator;
using game24::symbolic_generator;
using testing::run_sync;

explorer_options math_options() {
  const auto& d = defaults_for(task_type::math_reasoning);
  explorer_options options;
  options.config = d.config;
  options.generation = d.generation;
  options.evaluation = d.evaluation;
  options.num_candidates = d.num_candidates;
  return options;
}

search_outcome solve(const std::string& puzzle, explorer_options options, thought_generator& generator,
                     thought_evaluator& evaluator) {
  game24_task task;
  explorer search(task, generator, evaluator, options);
  return run_sync(search.run("t", puzzle, task_type::math_reasoning));
}

// Records every state it is asked to value, and how many calls are in flight at once.
class recording_evaluator final : public thought_evaluator {
 public:
  boost::asio::awaitable<agent_answer<evaluation_results>> evaluate(const evaluate_thoughts& request) override {
    ++calls_;
    max_in_flight_ = std::max(max_in_flight_, ++in_flight_);
    boost::asio::steady_timer pause(co_await boost::asio::this_coro::executor, std::chrono::milliseconds(1));
    co_await pause.async_wait(boost::asio::use_awaitable);
    for (const auto& node : request.candidates) keys_.push_back(game24::state_of(node)->key());
    auto answer = co_await inner_.evaluate(request);
    --in_flight_;
    co_return answer;
  }
  std::int64_t model_calls() const override { return calls_; }
  std::vector<std::string> keys_;
  int max_in_flight_ = 0;

 private:
  symbolic_evaluator inner_;
  int in_flight_ = 0;
  std::int64_t calls_ = 0;
};

TEST(TotExplorer, TheSymbolicSearchSolvesRanks901To1000) {
  auto puzzles = game24::load_puzzles(PARLEY_SOURCE_DIR "/data/game24.csv", 901, 1000);
  ASSERT_TRUE(puzzles) << puzzles.err().message;
  ASSERT_EQ(puzzles->size(), 100u);
  int solved = 0;
  for (const auto& puzzle : *puzzles) {
    symbolic_generator generator;
    symbolic_evaluator evaluator;
    game24_task task;
    auto outcome = solve(puzzle.numbers, math_options(), generator, evaluator);
    const auto answer = task.synthesize(puzzle.numbers, outcome.complete.best_path);
    if (outcome.solved && answer && answer->verification.is_valid)
      ++solved;
    else
      ADD_FAILURE() << "rank " << puzzle.rank << " (" << puzzle.numbers << ") not solved";
  }
  EXPECT_EQ(solved, 100);
}

TEST(TotExplorer, DepthFirstSearchSolvesWithBacktracking) {
  explorer_options options = math_options();
  options.config.strategy = search_strategy::dfs;
  options.config.branching_factor = 3;
  options.num_candidates = 40;
  int solved = 0;
  for (const char* puzzle : {"4 5 6 10", "4 9 10 13", "1 1 4 6", "3 3 8 8"}) {
    symbolic_generator generator;
    symbolic_evaluator evaluator;
    auto outcome = solve(puzzle, options, generator, evaluator);
    solved += outcome.solved ? 1 : 0;
    EXPECT_EQ(outcome.complete.best_path.size(), 4u) << puzzle;
  }
  EXPECT_EQ(solved, 4);
}

// A generator whose best-looking first proposals lead nowhere, so DFS must come back up.
class misleading_generator final : public thought_generator {
 public:
  boost::asio::awaitable<agent_answer<generated_thoughts>> generate(const generate_thoughts& request) override {
    auto answer = co_await inner_.generate(request);
    auto& thoughts = std::get<generated_thoughts>(answer);
    std::reverse(thoughts.candidates.begin(), thoughts.candidates.end());  // unreachable ones first
    co_return answer;
  }

 private:
  symbolic_generator inner_;
};

class flat_evaluator final : public thought_evaluator {
 public:
  boost::asio::awaitable<agent_answer<evaluation_results>> evaluate(const evaluate_thoughts& request) override {
    evaluation_results out;
    for (const auto& node : request.candidates) out.evaluations.push_back({node.id, 6, 0.5, "unsure", {}});
    co_return out;
  }
};

TEST(TotExplorer, DepthFirstSearchCountsItsBacktracks) {
  explorer_options options = math_options();
  options.config.strategy = search_strategy::dfs;
  options.config.branching_factor = 40;
  options.num_candidates = 40;
  misleading_generator generator;
  flat_evaluator evaluator;
  auto outcome = solve("4 9 10 13", options, generator, evaluator);
  EXPECT_TRUE(outcome.solved);
  EXPECT_GT(outcome.complete.stats.total_backtracks, 0);
}

TEST(TotExplorer, NoStateIsValuedTwiceAndEqualCandidatesAreMerged) {
  explorer_options options = math_options();
  options.num_candidates = 40;  // every move: many reach the same numbers
  symbolic_generator generator;
  recording_evaluator evaluator;
  auto outcome = solve("1 1 4 6", options, generator, evaluator);
  std::set<std::string> unique(evaluator.keys_.begin(), evaluator.keys_.end());
  EXPECT_EQ(unique.size(), evaluator.keys_.size());
  std::int64_t merged = 0;
  for (const auto& [id, node] : outcome.complete.tree.nodes) merged += json_int_or(node.metadata, "merged");
  EXPECT_GT(merged, 0);
}

TEST(TotExplorer, OneStepsEvaluationsRunConcurrentlyWithinTheBound) {
  explorer_options options = math_options();
  options.num_candidates = 40;
  options.max_parallel = 3;
  symbolic_generator generator;
  recording_evaluator evaluator;
  solve("4 9 10 13", options, generator, evaluator);
  EXPECT_EQ(evaluator.max_in_flight_, 3);
}

TEST(TotExplorer, ThoughtsBelowTheThresholdAreMarkedPrunedAndWrongStepsAreKeptWithTheReason) {
  class sloppy_generator final : public thought_generator {
   public:
    boost::asio::awaitable<agent_answer<generated_thoughts>> generate(const generate_thoughts& request) override {
      auto answer = co_await inner_.generate(request);
      std::get<generated_thoughts>(answer).candidates.push_back({"wrong", "13 - 9 = 5 (left: 4 5 10)", "", {}});
      co_return answer;
    }
    symbolic_generator inner_;
  } generator;
  explorer_options options = math_options();
  options.num_candidates = 40;
  symbolic_evaluator evaluator;
  auto outcome = solve("4 9 10 13", options, generator, evaluator);
  EXPECT_TRUE(outcome.solved);
  int by_threshold = 0;
  int invalid = 0;
  for (const auto& [id, node] : outcome.complete.tree.nodes) {
    const auto by = json_string_or(node.metadata, "pruned_by");
    if (by == "threshold") {
      ++by_threshold;
      EXPECT_EQ(node.status, node_status::pruned);
      EXPECT_LT(node.evaluation->score, options.config.pruning_threshold);
    }
    if (by == "invalid" && node.depth == 1) {
      ++invalid;
      EXPECT_EQ(json_string_or(node.metadata, "problem"), "13 - 9 = 5: 13 - 9 is 4");
    }
  }
  EXPECT_GT(by_threshold, 0);
  EXPECT_EQ(invalid, 1);
}

class failing_generator final : public thought_generator {
 public:
  explicit failing_generator(protocol_error error) : error_(std::move(error)) {}
  boost::asio::awaitable<agent_answer<generated_thoughts>> generate(const generate_thoughts&) override {
    ++calls_;
    co_return error_;
  }
  std::int64_t model_calls() const override { return calls_; }
  std::int64_t calls_ = 0;

 private:
  protocol_error error_;
};

TEST(TotExplorer, AFailureThatIsNotRecoverableEndsTheSearchWithItsCode) {
  failing_generator generator({error_code::invalid_format, "prose instead of JSON", false});
  symbolic_evaluator evaluator;
  auto outcome = solve("4 9 10 13", math_options(), generator, evaluator);
  EXPECT_FALSE(outcome.solved);
  ASSERT_TRUE(outcome.failure);
  EXPECT_EQ(outcome.failure->code, error_code::invalid_format);
  EXPECT_EQ(generator.calls_, 1);
}

TEST(TotExplorer, ARecoverableFailureIsRetriedThenEndsTheSearch) {
  failing_generator generator({error_code::evaluation_timeout, "no answer within 1 s", true});
  symbolic_evaluator evaluator;
  explorer_options options = math_options();
  options.retries = 2;
  auto outcome = solve("4 9 10 13", options, generator, evaluator);
  ASSERT_TRUE(outcome.failure);
  EXPECT_EQ(outcome.failure->code, error_code::evaluation_timeout);
  EXPECT_EQ(generator.calls_, 3);
}

TEST(TotExplorer, ASpentBudgetEndsTheSearchAsExhausted) {
  explorer_options options = math_options();
  options.max_model_calls = 2;
  symbolic_generator generator;
  recording_evaluator evaluator;
  auto outcome = solve("4 9 10 13", options, generator, evaluator);
  EXPECT_FALSE(outcome.solved);
  ASSERT_TRUE(outcome.failure);
  EXPECT_EQ(outcome.failure->code, error_code::search_exhausted);
  EXPECT_LE(evaluator.model_calls(), 2 + static_cast<std::int64_t>(options.max_parallel));
}

TEST(TotExplorer, TheTaskTypeTableFollowsTheSeed) {
  EXPECT_EQ(defaults_for(task_type::math_reasoning).config.strategy, search_strategy::bfs);
  EXPECT_EQ(defaults_for(task_type::math_reasoning).evaluation, evaluation_strategy::independent_scoring);
  EXPECT_EQ(defaults_for(task_type::creative_writing).evaluation, evaluation_strategy::comparative_voting);
  EXPECT_EQ(defaults_for(task_type::planning).config.strategy, search_strategy::dfs);
  EXPECT_EQ(defaults_for(task_type::debugging).config.strategy, search_strategy::dfs);
  EXPECT_EQ(defaults_for(task_type::architecture_design).granularity, "component");
  EXPECT_EQ(defaults_for(task_type::architecture_design).config.pruning_threshold, 6.5);
}

}  // namespace
}  // namespace parley::tot
