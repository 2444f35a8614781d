// Seed 003's ToT communication protocol as C++ types: the thought tree, the five request/response
// pairs between the six agents, and the `error` every message may carry. Names follow the seed
// exactly; JSON appears only in protocol_json.hpp.
#pragma once

#include <boost/json/object.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace parley::tot {

enum class task_type { math_reasoning, creative_writing, planning, debugging, architecture_design };
enum class search_strategy { bfs, dfs };
enum class generation_strategy { independent_sampling, sequential_proposal };
enum class evaluation_strategy { independent_scoring, comparative_voting };
enum class node_status { pending, expanded, pruned, terminal };
enum class agent_role { orchestrator, decomposer, generator, evaluator, explorer, synthesizer };
enum class error_code { invalid_format, generation_failed, evaluation_timeout, search_exhausted };

struct node_evaluation {
  double score = 0;       // 0–10
  double confidence = 0;  // 0–1
  std::string reasoning;
};

struct thought_node {
  std::string id;
  std::optional<std::string> parent_id;  // nullopt: the root
  std::vector<std::string> children_ids;
  std::int64_t depth = 0;
  std::string content;
  std::string action_type;
  std::optional<node_evaluation> evaluation;
  node_status status = node_status::pending;
  boost::json::object metadata;  // task-specific (Game of 24: the numbers left)
};

struct search_config {
  search_strategy strategy = search_strategy::bfs;
  std::int64_t max_depth = 3;
  std::int64_t branching_factor = 5;
  double pruning_threshold = 5.0;
};

struct search_state {
  std::int64_t current_depth = 0;
  std::vector<std::string> frontier;
  std::vector<std::string> best_path;
};

struct thought_tree {
  std::string task_id;
  std::string problem;
  tot::task_type task_type = tot::task_type::math_reasoning;
  tot::search_config search_config;
  std::map<std::string, thought_node> nodes;
  std::string root_id;
  tot::search_state search_state;
};

// --- Orchestrator ↔ Decomposer
struct decompose_task {
  std::string problem;
  tot::task_type task_type = tot::task_type::math_reasoning;
};
struct decomposition_result {
  std::string thought_granularity;
  std::vector<std::string> intermediate_steps;
  std::int64_t depth_estimate = 0;
  std::vector<std::string> constraints;
  std::string success_criteria;
};

// --- Explorer ↔ Generator
struct generation_context {
  std::string problem;
  std::string goal;
  std::vector<std::string> constraints;
};
struct generate_thoughts {
  thought_node parent_node;
  tot::generation_strategy generation_strategy = tot::generation_strategy::sequential_proposal;
  std::int64_t num_candidates = 1;
  generation_context context;
};
struct thought_candidate {
  std::string temp_id;
  std::string content;
  std::string action_type;
  boost::json::object metadata;
};
struct generated_thoughts {
  std::vector<thought_candidate> candidates;
};

// --- Explorer ↔ Evaluator
struct evaluation_context {
  std::string problem;
  std::string goal;
  std::int64_t current_depth = 0;
  std::int64_t max_depth = 0;
};
struct evaluate_thoughts {
  std::vector<thought_node> candidates;
  tot::evaluation_strategy evaluation_strategy = tot::evaluation_strategy::independent_scoring;
  std::vector<std::string> evaluation_criteria;
  evaluation_context context;
};
struct thought_evaluation {
  std::string node_id;
  double score = 0;       // 0–10
  double confidence = 0;  // 0–1
  std::string reasoning;
  std::map<std::string, double> dimension_scores;  // correctness, progress, feasibility ... each 0–10
};
struct evaluation_results {
  std::vector<thought_evaluation> evaluations;
  std::vector<std::string> ranking;
  std::vector<std::string> pruning_suggestions;
};

// --- Orchestrator ↔ Explorer
struct initialize_search {
  std::string problem;
  tot::task_type task_type = tot::task_type::math_reasoning;
  tot::search_config search_config;
  boost::json::object decomposition_result;  // the decomposer's result, passed on as it came
};
struct search_stats {
  std::int64_t total_nodes = 0;
  std::int64_t total_backtracks = 0;
  std::int64_t llm_calls = 0;
};
struct search_complete {
  std::vector<thought_node> best_path;
  thought_tree tree;
  search_stats stats;
};

// --- Explorer ↔ Synthesizer
struct synthesize_solution {
  std::vector<thought_node> best_path;
  std::string problem;
  tot::task_type task_type = tot::task_type::math_reasoning;
};
struct solution_verification {
  bool is_valid = false;
  std::vector<std::string> validation_errors;
};
struct final_solution {
  std::string answer;
  std::vector<std::string> reasoning_trace;
  double confidence = 0;  // 0–1
  solution_verification verification;
  std::vector<std::string> alternative_solutions;
};

struct protocol_error {
  error_code code = error_code::invalid_format;
  std::string message;
  bool recoverable = false;
};

using message_payload =
    std::variant<decompose_task, decomposition_result, generate_thoughts, generated_thoughts, evaluate_thoughts,
                 evaluation_results, initialize_search, search_complete, synthesize_solution, final_solution>;

// The seed's envelope {from, to, type, payload, task_id} with its optional `error`. `type` is
// implied by the payload's alternative.
struct message {
  agent_role from = agent_role::orchestrator;
  std::string to;
  message_payload payload;
  std::string task_id;
  std::optional<protocol_error> error;
};

}  // namespace parley::tot
