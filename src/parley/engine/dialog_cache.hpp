// The dialogs an engine holds in memory, and the trees they form. A dialog is loaded from the log
// once and kept while used; past the limit, the least recently used ones that nothing holds, in
// trees with no drive under way, are dropped between handlers and loaded again when next needed,
// so a long-running server does not keep every dialog it ever ran. A tree — seed 001's per-root
// registry of Type B subdialogs and the count of its drives — is rebuilt from the log (its
// registry from its subdialogs' rows) when first needed, and dropped with its last dialog.
//
// Runs on the engine's executor, like the engine. A miss read with `load_async` reads the log on the
// store's read thread (store_reads.hpp), so a dialog coming back does not stall the loop while the
// store catches up; `load` reads it right here, for start-up recovery and the CLI's one-shot verbs.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>

#include "parley/core/result.hpp"
#include "parley/engine/async_signal.hpp"
#include "parley/engine/dialog_runtime.hpp"
#include "parley/engine/store_reads.hpp"
#include "parley/store/store.hpp"

namespace parley::engine {

// One root and its subdialogs.
struct root_tree {
  std::map<std::string, std::string, std::less<>> registry;  // agentId!sessionSlug → subdialog id
  std::int64_t active_drives = 0;
  async_signal settled;
};

class dialog_cache {
 public:
  dialog_cache(boost::asio::any_io_executor executor, store& log) : executor_(std::move(executor)), log_(log) {}

  const dialog_runtime* find(std::string_view dialog_id) const;
  dialog_runtime* find(std::string_view dialog_id);
  // The loaded dialog, or the one read from the log now (a poisoned one is read again).
  result<dialog_runtime*> load(std::string_view dialog_id);
  // The same, reading a miss — the dialog's events, and its tree's registry when that is not held
  // either — on `reads` (null: right here) while the loop goes on.
  boost::asio::awaitable<result<dialog_runtime*>> load_async(std::string dialog_id, store_reads* reads);
  // A dialog this process made (a new root or subdialog), kept as loaded.
  dialog_runtime& add(std::unique_ptr<dialog_runtime> dialog);
  // Forgets a dialog whose creation the log refused, and a root's tree with it.
  void drop(const std::string& dialog_id);
  void drop_tree(const std::string& root_id);
  // Drops every loaded dialog of the root's tree that nothing uses, and the tree when nobody
  // waits on it, so that they are read from the log again: another process may have written them
  // (a tree this one takes over). Does nothing while a drive of the tree is under way.
  void forget_tree(const std::string& root_id);

  // The root's tree; one not held is rebuilt from the log right here (at start-up, or in a CLI
  // verb). A coroutine calls tree_async first: while one of its dialogs is loaded, the tree is held.
  root_tree& tree(const std::string& root_id);
  // The same, a rebuild's read of the subdialogs' rows on `reads` (null: right here). Another
  // coroutine may have built the tree meanwhile: theirs is kept, it may hold newer entries.
  boost::asio::awaitable<result<root_tree*>> tree_async(std::string root_id, store_reads* reads);
  // A new root's tree: empty and complete, nothing to read.
  void add_new_tree(const std::string& root_id);
  const root_tree* find_tree(const std::string& root_id) const;
  root_tree* find_tree(const std::string& root_id);

  // Marks a dialog as just used, and sees that the loaded dialogs stay within their limit.
  void note_use(dialog_runtime& dialog);
  // Each loaded dialog (the cache holds them; visiting does not change the cache).
  void for_each(const std::function<void(dialog_runtime&)>& visit) const;

  // Whether a root read from the log starts a replay (its replay_started; docs/fork.md "Replay"):
  // only an engine given that replay's record may drive its tree (drive_loop::set_replay).
  bool is_replay_root(std::string_view root_id) const { return replay_roots_.count(root_id) != 0; }

  void set_limit(std::size_t limit) noexcept { limit_ = limit == 0 ? 1 : limit; }
  std::size_t limit() const noexcept { return limit_; }
  std::size_t size() const noexcept { return dialogs_.size(); }

 private:
  void unload_unused();
  // The loaded dialog if it may be used as it is; a poisoned one is dropped, to be read again.
  dialog_runtime* usable(std::string_view dialog_id);
  // Builds a read dialog and keeps it.
  result<dialog_runtime*> install(std::string_view dialog_id, const std::vector<event>& events);
  static void add_to_registry(root_tree& hierarchy, const std::vector<dialog_row>& rows);

  boost::asio::any_io_executor executor_;
  store& log_;
  std::unordered_map<std::string, std::unique_ptr<dialog_runtime>> dialogs_;
  std::unordered_map<std::string, std::unique_ptr<root_tree>> trees_;
  std::size_t limit_ = 4096;
  std::uint64_t use_clock_ = 0;
  bool unload_posted_ = false;
  // Counts the dialogs and trees dropped: a read awaited off the loop is stale if this moved while
  // it ran (the dialog may have been loaded, changed and dropped meanwhile), and is read again.
  std::uint64_t drops_ = 0;
  std::set<std::string, std::less<>> replay_roots_;  // is_replay_root
};

}  // namespace parley::engine
