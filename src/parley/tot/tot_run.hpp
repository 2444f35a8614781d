// One Tree of Thoughts run, as the orchestrator of seed 003 conducts it: checks the request,
// opens the run's log folder and its root dialog (member tot-orchestrator), asks the decomposer,
// lets the explorer search (its generator and evaluator calls are subdialogs of the root), has
// the answer synthesized (by the task when it can write it, else by the synthesizer member), and
// always ends with a final_solution — one that says what failed when the search did not succeed.
#pragma once

#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "parley/engine/engine.hpp"
#include "parley/tot/explorer.hpp"
#include "parley/tot/protocol.hpp"
#include "parley/tot/run_log.hpp"
#include "parley/tot/run_logs.hpp"

namespace parley::tot {

struct tot_request {
  std::string problem;
  std::string task_type = "math_reasoning";  // checked: one of the seed's five
  std::optional<std::string> strategy;       // BFS | DFS
  std::optional<std::int64_t> depth;         // 1–10
  std::optional<std::int64_t> breadth;       // 1–20
  std::optional<double> threshold;           // 0–10
  std::optional<std::string> generation;     // independent_sampling | sequential_proposal
  std::optional<std::string> evaluation;     // independent_scoring | comparative_voting
  std::size_t max_parallel = 4;
  std::int64_t max_model_calls = 400;
  std::chrono::milliseconds call_timeout{std::chrono::seconds(120)};
};

// The request checked, with the task type's defaults filled in. Errors name the field.
struct checked_request {
  std::string problem;
  task_type type = task_type::math_reasoning;
  explorer_options options;
  std::chrono::milliseconds call_timeout{std::chrono::seconds(120)};
  // --depth given: it stands; otherwise the decomposer's depth_estimate sets max_depth (seed 003).
  bool depth_given = false;
};
result<checked_request> check_request(const tot_request& request);
// The request a run's 00-task-info.json records (problem, task type, search config), checked, with
// `limits` giving what the folder does not record.
result<checked_request> request_of_task_info(const json::object& info, tot_request limits);

struct tot_outcome {
  std::string task_id;
  std::string root_dialog;
  std::filesystem::path log_dir;
  final_solution solution;
  search_stats stats;
  bool solved = false;
  std::int64_t replayed_calls = 0;            // answered from the log on --resume
  std::vector<std::string> best_path;         // node ids from the root
  std::map<std::string, thought_node> nodes;  // the tree as the search left it (empty: no search)
  std::optional<thought_tree> tree;           // the ThoughtTree (nodes, search_state), when a search ran
  std::optional<protocol_error> error;        // the seed's error that ended the run, if one did
};

// Told of the run as it goes (the CLI prints, the server publishes on the PubChan).
class tot_progress {
 public:
  virtual ~tot_progress() = default;
  virtual void on_started(const std::string& /*task_id*/, const std::string& /*root_dialog*/) {}
  virtual void on_node(const thought_node& /*node*/) {}
  virtual void on_log(std::string_view /*level*/, const std::string& /*msg*/) {}
};

class tot_runner {
 public:
  tot_runner(engine::engine& engine, run_logs logs, tot_progress* progress = nullptr);
  boost::asio::awaitable<result<tot_outcome>> run(tot_request request);
  // Continues the run `task_id` from its log folder.
  boost::asio::awaitable<result<tot_outcome>> resume(std::string task_id, tot_request limits);

 private:
  result<run_folder> open_folder(const std::string& task_id) const;
  boost::asio::awaitable<result<tot_outcome>> run_checked(checked_request request,
                                                          std::optional<std::string> resume_id);
  engine::engine& engine_;
  run_logs logs_;
  tot_progress* progress_;
};

}  // namespace parley::tot
