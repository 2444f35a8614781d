// Seed 001's persisted status of a root dialog: running → completed ("mark done"), running or
// completed → archived, and — Parley's addition, so a finished task can be taken up again —
// reopen back to running. The status is an event of the root (status_changed); the `.dialogs/`
// export files a completed or archived root, with its subdialogs and registry, under `done/`.
//
// Owns no state of its own: the status is the root's, in the log. Works on the dialogs through
// the dialog host. Runs on the engine's executor.
#pragma once

#include <boost/asio/awaitable.hpp>

#include <string>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/engine/dialog_host.hpp"

namespace parley::engine {

class root_lifecycle {
 public:
  explicit root_lifecycle(dialog_host& dialogs) : dialogs_(dialogs) {}

  // A running root changes only at rest: with work in flight in its tree the call is a conflict
  // naming the work, and nothing changes.
  boost::asio::awaitable<result<void>> set_root_status(std::string root_id, events::dialog_status to);
  // What still runs in a root's tree: drives, open questions, awaited subdialogs ("" parts none).
  std::vector<std::string> work_in_flight(const dialog_runtime& root) const;
  // New input is taken only while the dialog's root is running (a completed or archived root is
  // reopened first). A subdialog's root is loaded first (dialog_host::load_root).
  result<void> check_tree_running(dialog_runtime& dialog);

 private:
  result<void> check_root_transition(const dialog_runtime& root, events::dialog_status to) const;

  dialog_host& dialogs_;
};

}  // namespace parley::engine
