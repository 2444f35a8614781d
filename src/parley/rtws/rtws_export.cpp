#include "parley/rtws/rtws_export.hpp"

#include <boost/json/serialize.hpp>

#include <map>
#include <string>
#include <system_error>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

#include "parley/core/file_io.hpp"
#include "parley/core/ids.hpp"
#include "parley/rtws/dialog_replay.hpp"
#include "parley/rtws/index_documents.hpp"
#include "parley/rtws/index_text.hpp"
#include "parley/rtws/rtws_layout.hpp"

namespace parley::rtws {

namespace fs = std::filesystem;
namespace json = boost::json;

namespace {

// A root and its subdialogs (every depth), in creation order.
struct tree_plan {
  dialog_row root;
  std::vector<dialog_row> subs;
  fs::path target;
};

struct loaded_dialog {
  std::vector<event> events;
  std::vector<std::int64_t> courses;  // the course of each event
  dialog_replay replay;
};

error io_error_at(const fs::path& path, const std::string& what, const std::error_code& ec) {
  return make_error(errc::io_error, path.string() + ": " + what + ": " + ec.message());
}

// New directory entries are durable once their folder is flushed (as in write_file_atomically).
void sync_folder(const fs::path& folder) {
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  (void)::fsync(fd);
  ::close(fd);
}

result<void> make_folder(const fs::path& folder) {
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec) return io_error_at(folder, "cannot create the folder", ec);
  return ok();
}

result<void> write_file(const fs::path& file, std::string_view content, std::int64_t& files) {
  auto written = write_file_atomically(file, content);
  if (!written) return make_error(written.err().code, file.string() + ": " + written.err().message);
  ++files;
  return ok();
}

result<loaded_dialog> load_dialog(store& log, const dialog_row& row) {
  auto events = log.read_events(row.id);
  if (!events) return std::move(events).err();
  loaded_dialog out;
  out.events = std::move(*events);
  out.courses.reserve(out.events.size());
  for (const event& ev : out.events) {
    auto course = out.replay.apply(ev);
    if (!course)
      return make_error(errc::corrupt, "the log of dialog " + row.id + " does not replay: " + course.err().message);
    out.courses.push_back(*course);
  }
  return out;
}

// The files every dialog folder has; registry.yaml is added by the caller for roots.
result<void> write_dialog_files(const fs::path& folder, const loaded_dialog& dialog, std::int64_t& files) {
  PARLEY_TRY(make_folder(folder));
  std::map<std::int64_t, std::string> courses;
  for (std::size_t i = 0; i < dialog.events.size(); ++i) {
    courses[dialog.courses[i]] += json::serialize(event_line(dialog.events[i])) + "\n";
  }
  for (const auto& [course, text] : courses) PARLEY_TRY(write_file(folder / course_file_name(course), text, files));
  const dialog_row& row = dialog.replay.row();
  const dialog_state& state = dialog.replay.state();
  PARLEY_TRY(write_file(folder / layout::dialog_file, to_yaml_text(dialog_document(row)), files));
  PARLEY_TRY(write_file(folder / layout::latest_file, to_yaml_text(latest_document(row)), files));
  PARLEY_TRY(write_file(folder / layout::reminders_file, to_json_file_text(reminders_document(state)), files));
  // q4h.yaml is the open-question index: no open question, no file (clear_mind removes it too).
  if (const auto questions = q4h_document(state); !questions.empty()) {
    PARLEY_TRY(write_file(folder / layout::q4h_file, to_yaml_text(questions), files));
  }
  return ok();
}

result<void> write_tree(store& log, const tree_plan& plan, const fs::path& staging, export_summary& summary) {
  auto root = load_dialog(log, plan.root);
  if (!root) return std::move(root).err();
  PARLEY_TRY(write_dialog_files(staging, *root, summary.files));
  std::vector<loaded_dialog> subs;
  subs.reserve(plan.subs.size());
  for (const dialog_row& row : plan.subs) {
    auto sub = load_dialog(log, row);
    if (!sub) return std::move(sub).err();
    PARLEY_TRY(write_dialog_files(subdialog_path(staging, row.id), *sub, summary.files));
    subs.push_back(std::move(*sub));
  }
  std::vector<const dialog_replay*> registered;
  for (const auto& sub : subs) registered.push_back(&sub.replay);
  PARLEY_TRY(write_file(staging / layout::registry_file, to_yaml_text(registry_document(registered)), summary.files));
  if (!subs.empty()) sync_folder(staging / layout::subdialogs_folder);
  sync_folder(staging);

  summary.dialogs += 1 + static_cast<std::int64_t>(subs.size());
  summary.events += static_cast<std::int64_t>(root->events.size());
  for (const auto& sub : subs) summary.events += static_cast<std::int64_t>(sub.events.size());
  return ok();
}

// Writes one root into a hidden staging folder beside its target, then swaps it in.
result<void> export_tree(store& log, const fs::path& rtws, const tree_plan& plan, bool force, export_summary& summary) {
  const fs::path bucket = plan.target.parent_path();
  PARLEY_TRY(make_folder(bucket));
  const fs::path staging = bucket / ("." + plan.root.id + ".parley-export-" + new_uuid());
  auto discard_staging = [&staging] {
    std::error_code ignored;
    fs::remove_all(staging, ignored);
  };
  if (auto written = write_tree(log, plan, staging, summary); !written) {
    discard_staging();
    return written;
  }
  std::error_code ec;
  if (force) {
    // The root may have moved between run/ and done/ since the last export: drop both copies.
    for (const auto name : {layout::run_folder, layout::done_folder}) {
      const fs::path old = root_path(rtws, name, plan.root.id);
      fs::remove_all(old, ec);
      if (ec) {
        discard_staging();
        return io_error_at(old, "cannot remove the earlier export", ec);
      }
    }
  }
  fs::rename(staging, plan.target, ec);
  if (ec) {
    discard_staging();
    return io_error_at(plan.target, "cannot move the exported dialog into place", ec);
  }
  sync_folder(bucket);
  return ok();
}

result<std::vector<tree_plan>> plan_trees(store& log, const fs::path& rtws) {
  auto rows = log.list_dialogs({});
  if (!rows) return std::move(rows).err();
  std::vector<tree_plan> plans;
  std::map<std::string, std::size_t, std::less<>> index;
  for (const dialog_row& row : *rows) {
    PARLEY_TRY(check_folder_name(row.id));
    if (row.root_id != row.id) continue;
    index.emplace(row.id, plans.size());
    plans.push_back({row, {}, root_path(rtws, bucket_for_status(row.status), row.id)});
  }
  for (const dialog_row& row : *rows) {
    if (row.root_id == row.id) continue;
    const auto found = index.find(row.root_id);
    if (found == index.end()) {
      return make_error(errc::corrupt, "subdialog " + row.id + " belongs to root " + row.root_id +
                                           ", which is not in the store: it has no folder to go to");
    }
    plans[found->second].subs.push_back(row);
  }
  return plans;
}

}  // namespace

result<export_summary> export_rtws(store& log, const fs::path& rtws, bool force) {
  auto plans = plan_trees(log, rtws);
  if (!plans) return std::move(plans).err();
  // Every conflict is found before the first file is written.
  if (!force) {
    std::vector<fs::path> existing;
    std::error_code ec;
    for (const auto& plan : *plans) {
      for (const auto name : {layout::run_folder, layout::done_folder}) {
        const fs::path folder = root_path(rtws, name, plan.root.id);
        if (fs::exists(fs::symlink_status(folder, ec))) existing.push_back(folder);
      }
    }
    if (!existing.empty()) {
      std::string message = existing.front().string() + " already exists: the export would overwrite that dialog";
      if (existing.size() > 1) message += " (and " + std::to_string(existing.size() - 1) + " more)";
      return make_error(errc::conflict, message + "; pass --force to replace them");
    }
  }
  export_summary summary;
  for (const auto& plan : *plans) PARLEY_TRY(export_tree(log, rtws, plan, force, summary));
  // run/ and done/ (and .dialogs itself) may be new: their own entries become durable too.
  sync_folder(dialogs_path(rtws));
  sync_folder(rtws);
  return summary;
}

}  // namespace parley::rtws
