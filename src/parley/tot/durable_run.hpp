// A ToT run as its log folder alone tells it, for a server that did not start it (it restarted,
// or the run came from `parley tot` or the tree_of_thoughts tool). 00-task-info.json names the
// run's roots and whether it ended; the thought tree is rebuilt by running the explorer again
// against the replies the call files hold — the search is deterministic given its replies, as
// `--resume` relies on — with a channel that answers from the log only and writes nothing. A run
// whose folder still says running was cut off (a crash): it is shown as interrupted, with the
// thoughts its logged calls produced, and `parley tot --resume RUN` continues it.
#pragma once

#include <boost/asio/awaitable.hpp>

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "parley/core/json.hpp"
#include "parley/core/result.hpp"
#include "parley/tot/protocol.hpp"
#include "parley/tot/run_logs.hpp"
#include "parley/tot/run_progress.hpp"

namespace parley::tot {

struct durable_run {
  std::string task_id;
  std::vector<std::string> root_dialogs;  // first to last: each resume opens a new root
  run_status status = run_status::interrupted;
  std::map<std::string, thought_node> nodes;
  std::vector<std::string> best_path;
  std::optional<json::value> final_solution;  // the final_solution payload, once it ended
};

// Every run folder's roots in `logs`' folders: root dialog → task id. Folders that do not read
// are skipped (a run that crashed before naming its root has no root to be found by).
std::map<std::string, std::string> index_run_roots(const run_logs& logs);

// The run `task_id` rebuilt from its folder; `ended` in the folder decides solved/failed,
// otherwise it is interrupted.
boost::asio::awaitable<result<durable_run>> read_durable_run(run_logs logs, std::string task_id);

}  // namespace parley::tot
