// The runs a server started (POST /api/tot) and what each has done so far: its root dialog, the
// thought tree as the explorer grows it (scores, pruned branches, the chosen path) and, once
// done, its final_solution. GET /api/tot/{id} reads it; the web UI draws the tree from it. The
// board keeps the 64 most recent runs. Everything runs on the engine's executor.
#pragma once

#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "parley/core/json.hpp"
#include "parley/engine/engine.hpp"
#include "parley/tot/tot_run.hpp"

namespace parley::tot {

class run_board {
 public:
  run_board(engine::engine& engine, std::filesystem::path data_dir);

  struct started {
    std::string task_id;
    std::string root_dialog;
  };
  // Checks the request (errors name the field; nothing is started), starts the run in the
  // background and returns once its root dialog exists.
  boost::asio::awaitable<result<started>> start(tot_request request);
  // {taskId, rootDialog, status: running|solved|failed, nodes: [...], bestPath, finalSolution?};
  // nullopt for a run this board does not know.
  std::optional<json::object> view(std::string_view task_id) const;
  std::optional<std::string> root_of(std::string_view task_id) const;
  // The run whose root dialog is `root_dialog` (the web UI opens a run from its root); nullopt
  // when this board started none there.
  std::optional<std::string> task_of_root(std::string_view root_dialog) const;

 private:
  struct run_view;
  class tracker;
  engine::engine& engine_;
  std::filesystem::path data_dir_;
  std::map<std::string, std::shared_ptr<run_view>, std::less<>> runs_;
  std::deque<std::string> order_;
};

}  // namespace parley::tot
