// Run control: what a human or the server does to drives rather than to dialogs — stop a running
// generation, see which dialogs run and which a resume would drive, resume one whose drive ended
// before its work was done, wait until a dialog or a tree is at rest, and, at start-up, recover
// every dialog that owes a drive.
//
// Owns no state of its own: it looks at the loaded dialogs (and the log, for those not in memory)
// and asks the drive loop to drive. Runs on the engine's executor.
#pragma once

#include <boost/asio/awaitable.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/engine/dialog_host.hpp"
#include "parley/engine/drive_loop.hpp"

namespace parley::engine {

class drive_control {
 public:
  // Keeps references to both; they outlive it (the engine owns them all).
  drive_control(dialog_host& dialogs, drive_loop& drives) : dialogs_(dialogs), drives_(drives) {}

  // Stops the running generation (or tool run) of a dialog; its partial output is kept, marked
  // interrupted, with `reason` (who or what stopped it) in the log. A dialog not in memory is
  // read, only to tell an unknown id (not found) from an idle dialog (a conflict).
  result<void> stop(std::string_view dialog_id, std::string reason = {});
  // The dialogs generating or running tools now, and those `resume` would drive, sorted by id — in
  // memory, and with `search_store` also those the store holds as owing a drive or failed (a scan:
  // for resume all, not for a status poll).
  std::vector<std::string> running_dialogs() const;
  std::vector<std::string> resumable_dialogs(bool search_store);
  // resumable_dialogs(true) for a coroutine: the scan of the store and the dialogs it loads are
  // read on the read thread.
  boost::asio::awaitable<std::vector<std::string>> resumable_dialogs_async();
  // Drives again a dialog whose drive ended before its work was done (stopped, failed, tool calls
  // without results, unread input; resume_check.hpp). Anything else is a conflict: an idle dialog
  // has "nothing to resume", one that waits for a subdialog or a human says what it waits for.
  boost::asio::awaitable<result<void>> resume(std::string dialog_id);
  // Suspends until the dialog has no drive queued or running.
  boost::asio::awaitable<void> wait_until_idle(std::string dialog_id);
  // Suspends until no dialog of the root's hierarchy has a drive queued or running: the tree is
  // done, or waits for a human.
  boost::asio::awaitable<void> wait_until_settled(std::string root_id);
  // Loads every running dialog and schedules a drive for those with pending work. Reads the store
  // right here: it runs at start-up, before the server serves. A dialog whose log cannot be read
  // is left alone, so that one damaged dialog never keeps the others from running; each is named
  // in `unreadable` (if given) with why.
  // In a store several processes share, only the trees this process can claim (store::claim_tree)
  // are recovered; the others are being driven elsewhere.
  // With `replay_roots` given, a replay's tree (one whose root has replay_started) is not driven
  // here — this engine lacks its change and record — but claimed and named there, once, for the
  // caller to recover with the replay's own engine (recover_tree).
  result<std::size_t> recover_all(std::vector<std::string>* unreadable = nullptr,
                                  std::vector<std::string>* replay_roots = nullptr);
  // Schedules what recover_all would of one tree, read on the read thread: the tree of a replay,
  // given to the replay's engine. How many drives it scheduled.
  boost::asio::awaitable<std::size_t> recover_tree(std::string root_id);
  // Takes up trees that owe work and that no live process holds (store::orphaned_trees): claims
  // each, drops what this process had loaded of it (another may have written it since), and
  // schedules what recover_all would. Reads on the read thread. How many drives it scheduled.
  boost::asio::awaitable<std::size_t> adopt_orphaned_trees();

 private:
  // Schedules the dialog's drive if it owes one (recover_all's rule); true when it did.
  bool schedule_if_owed(dialog_runtime& dialog);
  // Whether the root's tree is a replay's; loads the root (recover_all, at start-up).
  bool is_replay_tree(const std::string& root_id);

  dialog_host& dialogs_;
  drive_loop& drives_;
};

}  // namespace parley::engine
