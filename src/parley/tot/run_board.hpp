// The runs a server started (POST /api/tot) and what each has done so far: its root dialog, the
// thought tree as the explorer grows it (scores, pruned branches, the chosen path) and, once
// done, its final_solution. Each change is told to a run_listener as it happens (the server's
// PubChan packet tot_progress_evt). Runs this process did not start — before a restart, from
// `parley tot` or the tree_of_thoughts tool — are read from their log folders (durable_run.hpp),
// an unfinished one as interrupted. The board keeps the 64 most recent runs in memory.
// Everything runs on the engine's executor.
#pragma once

#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "parley/core/json.hpp"
#include "parley/engine/engine.hpp"
#include "parley/tot/run_progress.hpp"
#include "parley/tot/tot_run.hpp"

namespace parley::tot {

class run_board {
 public:
  // Indexes the run folders in `logs` by their roots. `listener` (may be null) must outlive the
  // board's runs.
  run_board(engine::engine& engine, run_logs logs, run_listener* listener = nullptr);

  struct started {
    std::string task_id;
    std::string root_dialog;
  };
  // Checks the request (errors name the field; nothing is started), starts the run in the
  // background and returns once its root dialog exists.
  boost::asio::awaitable<result<started>> start(tot_request request);
  // Runs a search to its end on the board (the tree_of_thoughts tool's runs): listed and reported
  // from its start like a started one; the outcome is the runner's.
  boost::asio::awaitable<result<tot_outcome>> run(tot_request request);
  // {taskId, rootDialog, status: running|solved|failed|interrupted, nodes: [...], bestPath,
  // finalSolution?}; nullopt for a run neither this board nor the log folders know.
  boost::asio::awaitable<std::optional<json::object>> view(std::string task_id);
  // The view of the run started on `root_dialog` (the web UI opens a run from its root); nullopt
  // when there is none. Ask only for roots a run holds (member tot-orchestrator): a root the
  // board does not know has the log folders indexed again.
  boost::asio::awaitable<std::optional<json::object>> view_of_root(std::string root_dialog);

 private:
  struct run_view;
  class tracker;
  static json::object view_json(const run_view& run);
  void keep(const std::shared_ptr<run_view>& view);
  void finish(run_view& view, result<tot_outcome>& outcome);
  void report(const run_view& view, progress_step step, const thought_node* node = nullptr) const;

  engine::engine& engine_;
  run_logs logs_;
  run_listener* listener_;
  std::map<std::string, std::shared_ptr<run_view>, std::less<>> runs_;
  std::deque<std::string> order_;
  std::map<std::string, std::string, std::less<>> task_of_root_;  // every run's roots, durable ones too
};

}  // namespace parley::tot
