#include "parley/engine/drive_control.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "parley/engine/resume_check.hpp"

namespace parley::engine {

namespace asio = boost::asio;

result<void> drive_control::stop(std::string_view dialog_id, std::string reason) {
  auto loaded = dialogs_.load(dialog_id);
  if (!loaded) return std::move(loaded).err();
  auto* generation = (*loaded)->generation();
  if (generation == nullptr) generation = (*loaded)->tools_run();  // a running command is killed
  if (generation == nullptr) {
    return make_error(errc::conflict, "dialog " + std::string(dialog_id) + " is not generating");
  }
  generation->stop(std::move(reason));
  return ok();
}

std::vector<std::string> drive_control::running_dialogs() const {
  std::vector<std::string> out;
  dialogs_.cache().for_each([&out](dialog_runtime& dialog) {
    if (dialog.generation() != nullptr || dialog.tools_run() != nullptr) out.push_back(dialog.id());
  });
  return out;
}

std::vector<std::string> drive_control::resumable_dialogs(bool search_store) {
  std::vector<std::string> out;
  const auto consider = [&](const dialog_runtime& dialog) {
    if (!dialog.poisoned && resume_reason_of(dialog)) out.push_back(dialog.id());
  };
  dialogs_.cache().for_each(consider);
  if (search_store) {
    // Those not in memory: a drive owed since a restart, or a drive that failed.
    for (const bool failed : {false, true}) {
      dialog_filter stored;
      stored.status = events::dialog_status::running;
      stored.needing_recovery = !failed;
      stored.failed = failed;
      auto rows = dialogs_.log().list_dialogs(stored);
      if (!rows) continue;
      for (const auto& row : *rows) {
        if (dialogs_.find(row.id) != nullptr) continue;
        if (auto loaded = dialogs_.load(row.id)) consider(**loaded);
      }
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

asio::awaitable<std::vector<std::string>> drive_control::resumable_dialogs_async() {
  std::vector<std::string> out;
  for (const bool failed : {false, true}) {
    dialog_filter stored;
    stored.status = events::dialog_status::running;
    stored.needing_recovery = !failed;
    stored.failed = failed;
    auto list = [&log = dialogs_.log(), stored] { return log.list_dialogs(stored); };
    auto rows = co_await read_off_loop(dialogs_.reads(), std::move(list));
    if (!rows) continue;
    for (const auto& row : *rows) {
      // Each is looked at as it comes: one read earlier may be unloaded meanwhile.
      auto loaded = co_await dialogs_.load_async(row.id);
      if (loaded && !(*loaded)->poisoned && resume_reason_of(**loaded)) out.push_back(row.id);
    }
  }
  // And those in memory, looked at last: nothing is awaited from here on.
  dialogs_.cache().for_each([&out](dialog_runtime& dialog) {
    if (!dialog.poisoned && resume_reason_of(dialog)) out.push_back(dialog.id());
  });
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  co_return out;
}

asio::awaitable<result<void>> drive_control::resume(std::string dialog_id) {
  auto loaded = co_await dialogs_.load_async(dialog_id);
  if (!loaded) co_return std::move(loaded).err();
  auto& dialog = **loaded;
  {
    auto guard = co_await dialog.lock().acquire();
    // Only a dialog whose drive ended before its work was done: driving an idle one again would
    // repeat its last answer and that answer's tool effects (resume_check.hpp).
    if (auto reason = resume_reason_of(dialog); !reason) co_return std::move(reason).err();
    if (auto staged = dialogs_.stage(dialog, events::drive_resumed{}); !staged) {
      co_return std::move(staged).err();
    }
    if (auto committed = co_await dialogs_.commit(dialog); !committed) co_return std::move(committed).err();
  }
  drives_.schedule_drive(dialog);
  co_return ok();
}

// Both waits look their dialog or tree up again after each wake: one that is at rest may have been
// unloaded meanwhile (unload_unused_dialogs).
asio::awaitable<void> drive_control::wait_until_idle(std::string dialog_id) {
  for (;;) {
    auto* dialog = dialogs_.find(dialog_id);
    if (dialog == nullptr || !dialog->drive_scheduled) co_return;
    co_await dialog->became_idle.wait();
  }
}

asio::awaitable<void> drive_control::wait_until_settled(std::string root_id) {
  for (;;) {
    auto* hierarchy = dialogs_.cache().find_tree(root_id);
    if (hierarchy == nullptr || hierarchy->active_drives == 0) co_return;
    co_await hierarchy->settled.wait();
  }
}

bool drive_control::schedule_if_owed(dialog_runtime& runtime) {
  if (runtime.row().dead) return false;
  // A dialog waiting for a subdialog or a human stays suspended; the rest continue.
  const bool interrupted = runtime.row().generating;
  if (interrupted || (runtime.can_drive() && runtime.row().needs_drive) || !runtime.unanswered_tool_calls().empty()) {
    drives_.schedule_drive(runtime);
    return true;
  }
  return false;
}

result<std::size_t> drive_control::recover_all(std::vector<std::string>* unreadable,
                                               std::vector<std::string>* replay_roots) {
  dialog_filter filter;
  filter.status = events::dialog_status::running;
  filter.needing_recovery = true;  // the rest are at rest: nothing to load for them
  auto rows = dialogs_.log().list_dialogs(filter);
  if (!rows) return std::move(rows).err();
  std::map<std::string, bool, std::less<>> claimed;  // root → this process may drive it
  std::set<std::string, std::less<>> scheduled_roots;
  std::size_t scheduled = 0;
  for (const auto& row : *rows) {
    auto mine = claimed.find(row.root_id);
    if (mine == claimed.end()) {
      auto claim = dialogs_.log().claim_tree(row.root_id);
      if (!claim) return std::move(claim).err();
      mine = claimed.emplace(row.root_id, *claim).first;
      // The root's events tell a replay (its replay_started): its tree is left to its own engine,
      // and stays claimed for it.
      if (*claim && replay_roots != nullptr && is_replay_tree(row.root_id)) {
        replay_roots->push_back(row.root_id);
        mine->second = false;  // not driven here, and not released below
      }
    }
    if (!mine->second) continue;
    auto dialog = dialogs_.load(row.id);
    if (!dialog && dialog.err().code == errc::corrupt) {
      if (unreadable != nullptr) unreadable->push_back(dialog.err().message);
      continue;
    }
    if (!dialog) return std::move(dialog).err();
    if (schedule_if_owed(**dialog)) {
      ++scheduled;
      scheduled_roots.insert(row.root_id);
    }
  }
  for (const auto& [root, mine] : claimed) {
    if (mine && !scheduled_roots.contains(root)) dialogs_.log().release_tree(root);
  }
  return scheduled;
}

bool drive_control::is_replay_tree(const std::string& root_id) {
  // An unreadable root is not known to be a replay: its dialogs are looked at as any others.
  return dialogs_.load(root_id).has_value() && dialogs_.cache().is_replay_root(root_id);
}

asio::awaitable<std::size_t> drive_control::recover_tree(std::string root_id) {
  dialog_filter filter;
  filter.status = events::dialog_status::running;
  filter.needing_recovery = true;
  filter.root_id = root_id;
  // Named, not a temporary inside the co_await: g++ 12 mishandles lambda captures that live in a
  // co_await expression (store/async_append.hpp), and this one's copy of the filter was lost.
  auto list_tree = [&log = dialogs_.log(), filter] { return log.list_dialogs(filter); };
  auto rows = co_await read_off_loop(dialogs_.reads(), std::move(list_tree));
  std::size_t scheduled = 0;
  if (!rows) co_return scheduled;
  for (const auto& row : *rows) {
    auto dialog = co_await dialogs_.load_async(row.id);
    if (dialog && schedule_if_owed(**dialog)) ++scheduled;
  }
  co_return scheduled;
}

asio::awaitable<std::size_t> drive_control::adopt_orphaned_trees() {
  store& log = dialogs_.log();
  auto claim_orphans = [&log]() -> result<std::vector<std::string>> {
    auto orphaned = log.orphaned_trees();
    if (!orphaned) return orphaned;
    std::vector<std::string> claimed;
    for (auto& root : *orphaned) {
      auto claim = log.claim_tree(root);
      if (claim && *claim) claimed.push_back(std::move(root));
    }
    return claimed;
  };
  auto roots = co_await read_off_loop(dialogs_.reads(), claim_orphans);
  if (!roots) co_return 0;
  std::size_t scheduled = 0;
  for (const auto& root : *roots) {
    dialogs_.cache().forget_tree(root);
    for (auto* observer : dialogs_.observers()) observer->on_tree_adopted(root);
    const std::size_t of_tree = co_await recover_tree(root);
    if (of_tree == 0) log.release_tree(root);
    scheduled += of_tree;
  }
  co_return scheduled;
}

}  // namespace parley::engine
