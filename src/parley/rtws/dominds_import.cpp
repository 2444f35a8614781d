#include "parley/rtws/dominds_import.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <system_error>

#include "parley/core/guarded.hpp"
#include "parley/rtws/dominds_dialog.hpp"
#include "parley/rtws/dominds_layout.hpp"
#include "parley/rtws/rtws_layout.hpp"

namespace parley::rtws::dominds {

namespace fs = std::filesystem;

namespace {

// Dominds ids have three segments; a few more are allowed, a deeper folder is not a dialog.
constexpr std::size_t kDomindsMaxIdSegments = 8;
// Trees appended between two waits for durability: bounds the store's queue, and so memory.
constexpr std::int64_t kDomindsTreesPerFlush = 64;

using folder_visitor = std::function<void(const fs::path& folder, const std::string& dominds_id)>;

// Every folder under `base` holding a dialog.yaml, by the path of its id (listDialogs,
// listSideDialogIdsUnderRoot); a dialog's own folder is not searched further. Sorted per level.
void visit_dialog_folders(const fs::path& base, const std::string& prefix, std::size_t depth,
                          const folder_visitor& visit) {
  std::vector<fs::path> children;
  std::error_code ec;
  for (fs::directory_iterator it(base, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().filename().string().starts_with(".")) continue;
    if (it->is_directory(ec)) children.push_back(it->path());
  }
  std::sort(children.begin(), children.end());
  for (const fs::path& child : children) {
    const std::string id = prefix.empty() ? child.filename().string() : prefix + "/" + child.filename().string();
    if (fs::exists(child / layout::dialog_file, ec)) {
      visit(child, id);
    } else if (depth + 1 < kDomindsMaxIdSegments) {
      visit_dialog_folders(child, id, depth + 1, visit);
    }
  }
}

struct append_outcomes {
  parley::mutex mutex;
  std::vector<std::string> failed PARLEY_GUARDED_BY(mutex);
};

struct read_tree {
  std::vector<std::vector<event>> logs;  // root first, then side dialogs by creation
  std::int64_t files = 0;
};

// The root and its side dialogs as logs, each side dialog placed under the dialog that asked it.
result<read_tree> read_whole_tree(const dialog_info& root, events::dialog_status status) {
  std::vector<dialog_info> sides;
  std::optional<error> problem;
  visit_dialog_folders(root.folder / side_dialogs_folder, "", 0, [&](const fs::path& folder, const std::string& id) {
    if (problem) return;
    auto info = read_dialog_info(folder, id, true);
    if (!info)
      problem = std::move(info).err();
    else
      sides.push_back(std::move(*info));
  });
  if (problem) return *problem;
  std::sort(sides.begin(), sides.end(), [](const dialog_info& a, const dialog_info& b) {
    return a.created_ms != b.created_ms ? a.created_ms < b.created_ms : a.parley_id < b.parley_id;
  });
  read_tree tree;
  std::map<std::string, std::int64_t, std::less<>> depths{{root.parley_id, 0}};
  auto root_log = read_dialog_events(root, {root.parley_id, "", 0, status}, tree.files);
  if (!root_log) return std::move(root_log).err();
  tree.logs.push_back(std::move(*root_log));
  for (const dialog_info& side : sides) {
    const auto parent = depths.find(side.asker_parley_id);
    if (parent == depths.end()) {
      return make_error(errc::invalid_argument, (side.folder / asker_stack_file).string() + ": its asker '" +
                                                    side.asker_parley_id + "' is not an earlier dialog of this tree");
    }
    const std::int64_t depth = parent->second + 1;
    auto log = read_dialog_events(side, {root.parley_id, side.asker_parley_id, depth, status}, tree.files);
    if (!log) return std::move(log).err();
    depths.emplace(side.parley_id, depth);
    tree.logs.push_back(std::move(*log));
  }
  return tree;
}

bool any_known(const read_tree& tree, const std::set<std::string, std::less<>>& known) {
  return std::any_of(tree.logs.begin(), tree.logs.end(),
                     [&](const std::vector<event>& log) { return known.contains(log.front().dialog_id); });
}

result<void> wait_for_appends(store& log, const std::shared_ptr<append_outcomes>& outcomes) {
  log.flush();
  parley::lock_guard lock(outcomes->mutex);
  if (outcomes->failed.empty()) return ok();
  std::string message = "the store refused " + std::to_string(outcomes->failed.size()) + " dialogs";
  for (const auto& failure : outcomes->failed) message += "\n  " + failure;
  return make_error(errc::io_error, std::move(message));
}

}  // namespace

result<import_summary> import_rtws(store& log, const fs::path& rtws) {
  const fs::path dialogs = dialogs_path(rtws);
  std::error_code ec;
  if (!fs::is_directory(dialogs, ec)) {
    return make_error(errc::not_found, dialogs.string() + ": no such folder; nothing to import");
  }
  // The ids the store holds, read once (a read per tree would wait for the writer every time); the
  // ids imported now are not added, so memory stays flat — a folder that files one id twice has
  // the second refused by the store.
  auto rows = log.list_dialogs({});
  if (!rows) return std::move(rows).err();
  std::set<std::string, std::less<>> known;
  for (const dialog_row& row : *rows) known.insert(row.id);
  rows->clear();

  import_summary summary;
  auto outcomes = std::make_shared<append_outcomes>();
  std::int64_t pending = 0;
  std::optional<error> failure;
  const auto take_root = [&](const fs::path& folder, const std::string& id, events::dialog_status status) {
    if (failure) return;
    auto root = read_dialog_info(folder, id, false);
    auto tree = root ? read_whole_tree(*root, status) : result<read_tree>(root.err());
    if (!tree) {
      summary.quarantined.push_back({id, folder, tree.err().message});
      return;
    }
    summary.files += tree->files + 1;
    if (any_known(*tree, known)) {
      ++summary.already_imported;
      return;
    }
    ++summary.roots;
    for (auto& events : tree->logs) {
      ++summary.dialogs;
      summary.events += static_cast<std::int64_t>(events.size());
      log.append(std::move(events), [outcomes, dialog = id](result<void> outcome) {
        if (outcome) return;
        parley::lock_guard lock(outcomes->mutex);
        outcomes->failed.push_back("tree " + dialog + ": " + outcome.err().message);
      });
    }
    if (++pending >= kDomindsTreesPerFlush) {
      pending = 0;
      if (auto waited = wait_for_appends(log, outcomes); !waited) failure = std::move(waited).err();
    }
  };
  const std::pair<std::string_view, events::dialog_status> buckets[] = {
      {layout::run_folder, events::dialog_status::running},
      {layout::done_folder, events::dialog_status::completed},
      {archive_folder, events::dialog_status::archived}};
  for (const auto& bucket : buckets) {
    const events::dialog_status status = bucket.second;
    visit_dialog_folders(dialogs / bucket.first, "", 0,
                         [&](const fs::path& folder, const std::string& id) { take_root(folder, id, status); });
  }
  if (failure) return *failure;
  PARLEY_TRY(wait_for_appends(log, outcomes));
  return summary;
}

}  // namespace parley::rtws::dominds
