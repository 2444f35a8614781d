#include "parley/engine/dialog_cache.hpp"

#include <boost/asio/post.hpp>

#include <algorithm>
#include <unordered_set>
#include <utility>
#include <vector>

#include "parley/store/fork_history.hpp"

namespace parley::engine {

const dialog_runtime* dialog_cache::find(std::string_view dialog_id) const {
  const auto it = dialogs_.find(std::string(dialog_id));
  return it == dialogs_.end() ? nullptr : it->second.get();
}

dialog_runtime* dialog_cache::find(std::string_view dialog_id) {
  const auto it = dialogs_.find(std::string(dialog_id));
  return it == dialogs_.end() ? nullptr : it->second.get();
}

dialog_runtime* dialog_cache::usable(std::string_view dialog_id) {
  const auto it = dialogs_.find(std::string(dialog_id));
  if (it == dialogs_.end()) return nullptr;
  if (!it->second->poisoned || it->second->drive_scheduled) {
    note_use(*it->second);
    return it->second.get();
  }
  dialogs_.erase(it);
  ++drops_;
  return nullptr;
}

result<dialog_runtime*> dialog_cache::install(std::string_view dialog_id, const std::vector<event>& events) {
  if (events.empty()) return make_error(errc::not_found, "no dialog with id '" + std::string(dialog_id) + "'");
  auto runtime = dialog_runtime::replay(events);
  if (!runtime) return std::move(runtime).err();
  for (const auto& ev : events) {
    if (ev.is<events::replay_started>()) replay_roots_.insert(ev.root_id);
  }
  return &add(std::move(*runtime));
}

result<dialog_runtime*> dialog_cache::load(std::string_view dialog_id) {
  if (auto* loaded = usable(dialog_id)) return loaded;
  // A fork's history is its origin's shared events, then its own (store/fork_history.hpp).
  auto events = read_dialog_history(log_, dialog_id);
  if (!events) return std::move(events).err();
  return install(dialog_id, *events);
}

boost::asio::awaitable<result<dialog_runtime*>> dialog_cache::load_async(std::string dialog_id, store_reads* reads) {
  // A few tries at most: each one that comes back stale saw a drop, which is rare and posted.
  for (int attempt = 0;; ++attempt) {
    if (auto* loaded = usable(dialog_id)) co_return loaded;
    const auto drops_before = drops_;
    auto read_events = [&log = log_, id = dialog_id] { return read_dialog_history(log, id); };
    auto events = co_await read_off_loop(reads, std::move(read_events));
    // Someone else loaded it meanwhile: theirs may hold staged events that the log does not.
    if (auto* loaded = usable(dialog_id)) co_return loaded;
    if (drops_ != drops_before && attempt < 3) continue;
    if (!events) co_return std::move(events).err();
    if (events->empty() || find_tree(events->front().root_id) != nullptr) co_return install(dialog_id, *events);
    // Its tree's registry, read off the loop too: tree() would read it here when next needed.
    const std::string root_id = events->front().root_id;
    auto read_rows = [&log = log_, root_id] {
      dialog_filter filter;
      filter.root_id = root_id;
      return log.list_dialogs(filter);
    };
    auto rows = co_await read_off_loop(reads, std::move(read_rows));
    if (auto* loaded = usable(dialog_id)) co_return loaded;
    if (drops_ != drops_before && attempt < 3) continue;
    auto installed = install(dialog_id, *events);
    if (installed && rows && find_tree(root_id) == nullptr) {
      auto [it, created] = trees_.try_emplace(root_id, std::make_unique<root_tree>());
      add_to_registry(*it->second, *rows);
    }
    co_return installed;
  }
}

void dialog_cache::add_to_registry(root_tree& hierarchy, const std::vector<dialog_row>& rows) {
  for (const auto& row : rows) {
    if (row.kind == events::dialog_kind::sub && !row.dead && !row.session_slug.empty()) {
      hierarchy.registry[row.member_id + "!" + row.session_slug] = row.id;
    }
  }
}

dialog_runtime& dialog_cache::add(std::unique_ptr<dialog_runtime> dialog) {
  auto& added = *dialog;
  dialogs_.insert_or_assign(added.id(), std::move(dialog));
  note_use(added);
  return added;
}

void dialog_cache::drop(const std::string& dialog_id) {
  dialogs_.erase(dialog_id);
  ++drops_;
}

void dialog_cache::drop_tree(const std::string& root_id) {
  trees_.erase(root_id);
  ++drops_;
}

root_tree& dialog_cache::tree(const std::string& root_id) {
  auto [it, created] = trees_.try_emplace(root_id);
  if (!created) return *it->second;
  it->second = std::make_unique<root_tree>();
  // A root from an earlier run: its registry is rebuilt from its subdialogs (seed 001: "rebuilt on
  // root load"). Every one of them was committed before this process started.
  dialog_filter filter;
  filter.root_id = root_id;
  if (auto rows = log_.list_dialogs(filter)) add_to_registry(*it->second, *rows);
  return *it->second;
}

boost::asio::awaitable<result<root_tree*>> dialog_cache::tree_async(std::string root_id, store_reads* reads) {
  if (auto* held = find_tree(root_id)) co_return held;
  auto read_rows = [&log = log_, root_id] {
    dialog_filter filter;
    filter.root_id = root_id;
    return log.list_dialogs(filter);
  };
  auto rows = co_await read_off_loop(reads, std::move(read_rows));
  if (auto* held = find_tree(root_id)) co_return held;
  if (!rows) co_return std::move(rows).err();
  auto [it, created] = trees_.try_emplace(root_id, std::make_unique<root_tree>());
  add_to_registry(*it->second, *rows);
  co_return it->second.get();
}

void dialog_cache::add_new_tree(const std::string& root_id) { trees_.emplace(root_id, std::make_unique<root_tree>()); }

const root_tree* dialog_cache::find_tree(const std::string& root_id) const {
  const auto it = trees_.find(root_id);
  return it == trees_.end() ? nullptr : it->second.get();
}

root_tree* dialog_cache::find_tree(const std::string& root_id) {
  const auto it = trees_.find(root_id);
  return it == trees_.end() ? nullptr : it->second.get();
}

void dialog_cache::note_use(dialog_runtime& dialog) {
  dialog.last_used = ++use_clock_;
  if (dialogs_.size() <= limit_ || unload_posted_) return;
  // Not now: whoever loaded or drives `dialog` goes on using it; the pass runs between handlers,
  // when every coroutine that holds a dialog across an await has marked it (unused()).
  unload_posted_ = true;
  boost::asio::post(executor_, [this] { unload_unused(); });
}

void dialog_cache::forget_tree(const std::string& root_id) {
  const auto* hierarchy = find_tree(root_id);
  if (hierarchy != nullptr && hierarchy->active_drives != 0) return;
  bool any_left = false;
  for (auto it = dialogs_.begin(); it != dialogs_.end();) {
    if (it->second->row().root_id != root_id) {
      ++it;
    } else if (it->second->unused()) {
      it = dialogs_.erase(it);
    } else {
      any_left = true;
      ++it;
    }
  }
  ++drops_;
  // As unload_unused: the tree goes only with its last loaded dialog, and never while awaited.
  if (hierarchy != nullptr && !any_left && !hierarchy->settled.has_waiters()) trees_.erase(root_id);
}

void dialog_cache::for_each(const std::function<void(dialog_runtime&)>& visit) const {
  for (const auto& [id, dialog] : dialogs_) visit(*dialog);
}

void dialog_cache::unload_unused() {
  unload_posted_ = false;
  if (dialogs_.size() <= limit_) return;
  auto tree_at_rest = [this](const std::string& root_id) {
    const auto* hierarchy = find_tree(root_id);
    return hierarchy == nullptr || hierarchy->active_drives == 0;
  };
  std::vector<std::pair<std::uint64_t, std::string>> candidates;
  for (const auto& [id, dialog] : dialogs_) {
    if (dialog->unused() && tree_at_rest(dialog->row().root_id)) candidates.emplace_back(dialog->last_used, id);
  }
  // Down to three quarters of the limit, so a pass is not needed again at the very next load.
  const std::size_t keep = limit_ - limit_ / 4;
  const std::size_t drop_count = std::min(candidates.size(), dialogs_.size() - std::min(keep, dialogs_.size()));
  std::nth_element(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(drop_count), candidates.end());
  for (std::size_t i = 0; i < drop_count; ++i) dialogs_.erase(candidates[i].second);
  ++drops_;
  // A tree none of whose dialogs is loaded, with no drive and nobody waiting for it, is rebuilt
  // from the log when next needed.
  std::unordered_set<std::string> loaded_roots;
  for (const auto& [id, dialog] : dialogs_) loaded_roots.insert(dialog->row().root_id);
  std::erase_if(trees_, [&](const auto& entry) {
    const root_tree& hierarchy = *entry.second;
    return hierarchy.active_drives == 0 && !hierarchy.settled.has_waiters() && loaded_roots.count(entry.first) == 0;
  });
}

}  // namespace parley::engine
