// What a server's ToT run reports while it searches, as typed data: each thought as it is
// generated, evaluated or pruned, and the run's end with its best path and final_solution. The
// run board tells a run_listener (the server turns it into the PubChan's tot_progress_evt on the
// run's root). Folding a run's reports in order gives exactly the view GET /api/tot returns.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/json.hpp"
#include "parley/tot/protocol.hpp"

namespace parley::tot {

// interrupted: the log folder says running but no process runs it (a crash); `parley tot
// --resume` continues it.
enum class run_status { running, solved, failed, interrupted };
std::string_view name_of(run_status status);

// started: the root exists; generated, evaluated, pruned: a thought's news; updated: any other
// change of a thought (expanded, merged, terminal) as the search ends; finished: the run is over.
enum class progress_step { started, generated, evaluated, pruned, updated, finished };
std::string_view name_of(progress_step step);

struct run_progress {
  std::string task_id;
  std::string root_dialog;
  progress_step step = progress_step::started;
  run_status status = run_status::running;
  std::optional<thought_node> node;           // generated, evaluated, pruned, updated
  std::vector<std::string> best_path;         // finished
  std::optional<json::value> final_solution;  // finished: the final_solution payload
};

class run_listener {
 public:
  virtual ~run_listener() = default;
  virtual void on_progress(const run_progress& progress) = 0;
};

// What changed between a thought as last reported (`before`, null for a new one) and now.
progress_step step_between(const thought_node* before, const thought_node& now);

}  // namespace parley::tot
