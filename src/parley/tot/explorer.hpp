// The explorer: seed 003's search in code. BFS keeps the best `branching_factor` states per
// level; DFS follows the best child first and backtracks. Each step's candidates are generated and
// evaluated concurrently (bounded), candidates that reach an equivalent state are merged, values
// are cached per equivalent state (no state is valued twice in a run), thoughts below the pruning
// threshold are pruned, and the run stops at the first solution, at max_depth, or when its budget
// of model calls is spent — it never runs unbounded.
#pragma once

#include <boost/asio/awaitable.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "parley/core/json.hpp"
#include "parley/tot/agents.hpp"
#include "parley/tot/protocol.hpp"

namespace parley::tot {

struct explorer_options {
  search_config config;
  generation_strategy generation = generation_strategy::sequential_proposal;
  evaluation_strategy evaluation = evaluation_strategy::independent_scoring;
  std::int64_t num_candidates = 5;
  std::size_t max_parallel = 4;        // model calls in flight for one step
  std::int64_t max_model_calls = 400;  // the run's budget; reaching it ends the search
  std::int64_t max_nodes = 2000;
  int retries = 1;  // of a recoverable failure, per call
  // The decomposer's `constraints`: sent, before the task's own, in every generate_thoughts
  // request's context (seed 003: context.constraints).
  std::vector<std::string> constraints;
  std::string language = "en";  // of the log lines: the team's (log_text.hpp)
};

// Told what the explorer does as it does it (the run's log, the live tree view).
class search_observer {
 public:
  virtual ~search_observer() = default;
  // level: info | progress | warning | error, as seed 003's log entries.
  virtual void on_log(std::string_view /*level*/, std::string /*msg*/, json::object /*data*/) {}
  virtual void on_node(const thought_node& /*node*/) {}
  // A round begins: one expansion (a BFS level, or a DFS node's children). The calls it makes
  // until the next round are the seed's `generator-roundN` / `evaluator-roundN`.
  virtual void on_round(std::int64_t /*round*/) {}
};

struct search_outcome {
  search_complete complete;
  bool solved = false;
  double best_score = 0;
  std::optional<protocol_error> failure;  // what ended the search early, or SEARCH_EXHAUSTED
};

class explorer {
 public:
  explorer(task_plugin& task, thought_generator& generator, thought_evaluator& evaluator, explorer_options options,
           search_observer* observer = nullptr);

  // By value: a coroutine keeps its own copies of what it is given.
  boost::asio::awaitable<search_outcome> run(std::string task_id,
                                             std::string problem,  // NOLINT(performance-unnecessary-value-param)
                                             task_type type);

 private:
  struct step_result {
    std::vector<std::string> children;  // valued, kept or pruned by threshold, best first
  };
  boost::asio::awaitable<void> run_bfs();
  boost::asio::awaitable<bool> run_dfs(const std::string& node_id);
  // Generates, checks, merges and values the children of `parents`; returns those above the
  // threshold, best first.
  boost::asio::awaitable<std::vector<std::string>> expand(const std::vector<std::string>& parents);
  boost::asio::awaitable<std::vector<thought_candidate>> generate_for(const std::string& parent_id);
  generate_thoughts generation_request(const thought_node& parent) const;
  void note_ranking(const std::vector<std::string>& ranking, const std::vector<std::string>& batch);
  boost::asio::awaitable<void> evaluate(const std::vector<std::string>& node_ids);
  boost::asio::awaitable<std::optional<generated_thoughts>> call_generator(const generate_thoughts& request);
  boost::asio::awaitable<std::optional<evaluation_results>> call_evaluator(const evaluate_thoughts& request);
  void add_candidate(const std::string& parent_id, const thought_candidate& candidate,
                     std::map<std::string, std::string>& seen_keys);
  void apply_evaluation(const std::string& node_id, const node_evaluation& evaluation);
  std::vector<std::string> path_to(const std::string& node_id) const;
  bool out_of_budget() const;
  void log(std::string_view level, std::string msg, json::object data = {});
  void fail(protocol_error error);
  std::int64_t model_calls() const;

  task_plugin& task_;
  thought_generator& generator_;
  thought_evaluator& evaluator_;
  explorer_options options_;
  search_observer* observer_;

  thought_tree tree_;
  std::map<std::string, node_evaluation> value_cache_;  // state key → its value
  std::map<std::string, std::string> state_key_of_;     // node id → state key
  std::map<std::string, std::size_t> rank_of_;          // node id → its place in the evaluator's ranking
  std::int64_t rounds_ = 0;
  std::map<std::int64_t, std::int64_t> ids_per_depth_;
  std::optional<std::string> solution_;
  std::optional<protocol_error> failure_;
  std::int64_t backtracks_ = 0;
  std::int64_t cache_hits_ = 0;
  std::int64_t merged_ = 0;
};

}  // namespace parley::tot
