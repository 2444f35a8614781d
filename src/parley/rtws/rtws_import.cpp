#include "parley/rtws/rtws_import.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <system_error>
#include <vector>

#include "parley/core/guarded.hpp"
#include "parley/rtws/folder_reader.hpp"
#include "parley/rtws/index_documents.hpp"
#include "parley/rtws/rtws_layout.hpp"

namespace parley::rtws {

namespace fs = std::filesystem;

namespace {

struct read_tree {
  read_dialog root;
  std::vector<read_dialog> subs;  // creation order
};

// The root first, then its subdialogs: the order they are appended in.
std::vector<const read_dialog*> dialogs_of(const read_tree& tree) {
  std::vector<const read_dialog*> out{&tree.root};
  for (const auto& sub : tree.subs) out.push_back(&sub);
  return out;
}

bool created_before(const read_dialog& a, const read_dialog& b) {
  const auto& x = a.replay.row();
  const auto& y = b.replay.row();
  return x.created_at_ms != y.created_at_ms ? x.created_at_ms < y.created_at_ms : x.id < y.id;
}

// The visible subfolders of `folder`, sorted by name; hidden ones are export's staging folders.
std::vector<fs::path> dialog_folders(const fs::path& folder, problem_list& problems) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().filename().string().starts_with(".")) continue;
    if (it->is_directory(ec)) out.push_back(it->path());
  }
  if (ec) problems.add(folder.string() + ": cannot list it: " + ec.message(), errc::io_error);
  std::sort(out.begin(), out.end());
  return out;
}

// Checks that only the tree itself can see: the folder it is filed under, the parents of its
// subdialogs, and its registry.
void check_tree(const read_tree& tree, std::string_view bucket, problem_list& problems, std::int64_t& files) {
  const dialog_row& root = tree.root.replay.row();
  if (const auto belongs = bucket_for_status(root.status); belongs != bucket) {
    problems.add(tree.root.folder.string() + ": its status is '" + std::string(events::to_wire(root.status)) +
                 "', so it belongs under " + std::string(belongs) + "/, not " + std::string(bucket) + "/");
  }
  std::set<std::string, std::less<>> members{root.id};
  for (const auto& sub : tree.subs) members.insert(sub.id);
  for (const auto& sub : tree.subs) {
    const std::string& parent = sub.replay.row().parent_id;
    if (!members.contains(parent)) {
      problems.add(sub.folder.string() + ": its parentId '" + parent + "' is not a dialog of root " + root.id);
    }
  }
  std::vector<const dialog_replay*> registered;
  for (const auto& sub : tree.subs) registered.push_back(&sub.replay);
  check_index_file(tree.root.folder / layout::registry_file, registry_document(registered), false, problems, files);
}

std::optional<read_tree> read_root_folder(const fs::path& folder, std::string_view bucket, problem_list& problems,
                                          std::int64_t& files) {
  const std::string root_id = folder.filename().string();
  auto root = read_dialog_folder(folder, root_id, root_id, true, problems, files);
  read_tree tree;
  const fs::path subs_folder = folder / layout::subdialogs_folder;
  std::error_code ec;
  if (fs::is_directory(subs_folder, ec)) {
    for (const fs::path& sub_folder : dialog_folders(subs_folder, problems)) {
      auto sub = read_dialog_folder(sub_folder, sub_folder.filename().string(), root_id, false, problems, files);
      if (sub) tree.subs.push_back(std::move(*sub));
    }
  }
  if (!root) return std::nullopt;
  tree.root = std::move(*root);
  std::sort(tree.subs.begin(), tree.subs.end(), created_before);
  check_tree(tree, bucket, problems, files);
  return tree;
}

// Appends each dialog as one batch and waits for all of them; every callback's outcome is checked.
result<void> append_all(store& log, const std::vector<read_tree>& trees) {
  struct outcomes {
    parley::mutex mutex;
    std::vector<std::pair<std::string, std::optional<error>>> failed PARLEY_GUARDED_BY(mutex);
    std::size_t reported PARLEY_GUARDED_BY(mutex) = 0;
  };
  auto shared = std::make_shared<outcomes>();
  std::size_t appended = 0;
  for (const auto& tree : trees) {
    for (const read_dialog* dialog : dialogs_of(tree)) {
      ++appended;
      log.append(dialog->events, [shared, id = dialog->id](result<void> outcome) {
        parley::lock_guard lock(shared->mutex);
        ++shared->reported;
        if (!outcome) shared->failed.emplace_back(id, std::move(outcome).err());
      });
    }
  }
  log.flush();
  parley::lock_guard lock(shared->mutex);
  if (shared->failed.empty() && shared->reported == appended) return ok();
  std::string message =
      "the store refused " + std::to_string(shared->failed.size()) + " of " + std::to_string(appended) + " dialogs";
  if (shared->reported != appended) {
    message += "; " + std::to_string(appended - shared->reported) + " appends never reported back";
  }
  for (const auto& [id, err] : shared->failed) message += "\n  dialog " + id + ": " + err->message;
  return make_error(errc::io_error, std::move(message));
}

}  // namespace

result<import_summary> import_rtws(store& log, const fs::path& rtws) {
  const fs::path dialogs = dialogs_path(rtws);
  std::error_code ec;
  if (!fs::is_directory(dialogs, ec)) {
    return make_error(errc::not_found, dialogs.string() + ": no such folder; nothing to import");
  }
  problem_list problems;
  import_summary summary;
  std::vector<read_tree> trees;
  for (const auto bucket : {layout::run_folder, layout::done_folder}) {
    if (!fs::is_directory(dialogs / bucket, ec)) continue;
    for (const fs::path& folder : dialog_folders(dialogs / bucket, problems)) {
      if (auto tree = read_root_folder(folder, bucket, problems, summary.files)) trees.push_back(std::move(*tree));
    }
  }

  // Ids are unique across the whole rtws and new to the target store.
  std::map<std::string, fs::path, std::less<>> seen;
  for (const auto& tree : trees) {
    for (const read_dialog* dialog : dialogs_of(tree)) {
      if (auto [it, inserted] = seen.emplace(dialog->id, dialog->folder); !inserted) {
        problems.add(dialog->folder.string() + ": dialog id " + dialog->id + " is also filed at " +
                     it->second.string());
      }
      auto existing = log.get_dialog(dialog->id);
      if (!existing) return std::move(existing).err();
      if (*existing) {
        problems.add(dialog->folder.string() + ": dialog " + dialog->id + " already exists in the target store",
                     errc::conflict);
      }
    }
  }
  if (!problems.empty()) return problems.to_error("cannot import " + dialogs.string());

  std::sort(trees.begin(), trees.end(),
            [](const read_tree& a, const read_tree& b) { return created_before(a.root, b.root); });
  PARLEY_TRY(append_all(log, trees));
  for (const auto& tree : trees) {
    for (const read_dialog* dialog : dialogs_of(tree)) {
      ++summary.dialogs;
      summary.events += static_cast<std::int64_t>(dialog->events.size());
    }
  }
  return summary;
}

}  // namespace parley::rtws
