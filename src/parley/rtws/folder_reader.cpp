#include "parley/rtws/folder_reader.hpp"

#include <map>
#include <string_view>
#include <system_error>

#include "parley/rtws/index_documents.hpp"
#include "parley/rtws/index_text.hpp"
#include "parley/rtws/rtws_layout.hpp"

namespace parley::rtws {

namespace fs = std::filesystem;
namespace json = boost::json;

namespace {

constexpr std::size_t kMaxListedProblems = 40;

// The course files of a folder by course number; other entries are reported when they would be
// lost silently (a nested subdialogs folder, a registry.yaml outside a root), else ignored.
std::map<std::int64_t, fs::path> course_files(const fs::path& folder, bool is_root, problem_list& problems) {
  std::map<std::int64_t, fs::path> out;
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (const auto course = course_of_file_name(name)) {
      out.emplace(*course, it->path());
    } else if (!is_root && name == layout::subdialogs_folder) {
      problems.add(it->path().string() +
                   ": nested subdialogs folder; every subdialog belongs flat under its root's subdialogs/");
    } else if (!is_root && name == layout::registry_file) {
      problems.add(it->path().string() + ": a registry belongs to root dialogs only");
    }
  }
  if (ec) problems.add(folder.string() + ": cannot list it: " + ec.message(), errc::io_error);
  return out;
}

std::string at_line(const fs::path& file, std::size_t line) { return file.string() + ":" + std::to_string(line); }

// Reads one course file into `dialog`; false on the first problem (later lines would only echo it).
bool read_course_file(const fs::path& file, std::int64_t course, const std::string& root_id, read_dialog& dialog,
                      problem_list& problems) {
  auto text = read_whole_file(file);
  if (!text) {
    problems.add(text.err().message, errc::io_error);
    return false;
  }
  std::string_view rest = *text;
  for (std::size_t number = 1; !rest.empty(); ++number) {
    const std::size_t end = rest.find('\n');
    std::string_view line = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const std::string where = at_line(file, number);
    if (line.empty()) {
      problems.add(where + ": empty line; every line is one event");
      return false;
    }
    std::size_t column = 0;
    auto value = parse_json_with_position(line, column);
    if (!value) {
      problems.add(where + ":" + std::to_string(column) + ": " + value.err().message);
      return false;
    }
    auto ev = event_from_line(*value);
    if (!ev) {
      problems.add(where + ": " + ev.err().message);
      return false;
    }
    if (ev->dialog_id != dialog.id) {
      problems.add(where + ": event dialogId '" + ev->dialog_id + "' does not match its folder '" + dialog.id + "'");
      return false;
    }
    if (ev->root_id != root_id) {
      problems.add(where + ": event rootId '" + ev->root_id + "' is not the root it is filed under ('" + root_id +
                   "')");
      return false;
    }
    const std::int64_t expected_seq = dialog.replay.row().last_seq + 1;
    if (ev->seq != expected_seq) {
      problems.add(where + ": seq " + std::to_string(ev->seq) +
                   (ev->seq > expected_seq ? " leaves a seq gap: the next event must be seq "
                                           : " is out of order: the next event must be seq ") +
                   std::to_string(expected_seq));
      return false;
    }
    auto event_course = dialog.replay.apply(*ev);
    if (!event_course) {
      problems.add(where + ": " + event_course.err().message);
      return false;
    }
    if (*event_course != course) {
      problems.add(where + ": event seq " + std::to_string(ev->seq) + " belongs to course " +
                   std::to_string(*event_course) + ", not to " + file.filename().string());
      return false;
    }
    dialog.events.push_back(std::move(*ev));
  }
  return true;
}

}  // namespace

void problem_list::add(std::string problem, errc code) {
  ++total_;
  if (code != errc::conflict) only_conflicts_ = false;
  if (items_.size() < kMaxListedProblems) items_.push_back(std::move(problem));
}

error problem_list::to_error(const std::string& headline) const {
  std::string message =
      headline + " (" + std::to_string(total_) + (total_ == 1 ? " problem" : " problems") + "; nothing was imported):";
  for (const auto& item : items_) message += "\n  " + item;
  if (total_ > items_.size()) message += "\n  ... and " + std::to_string(total_ - items_.size()) + " more";
  return make_error(only_conflicts_ ? errc::conflict : errc::invalid_argument, std::move(message));
}

void check_index_file(const fs::path& file, const json::value& expected, bool optional_when_empty,
                      problem_list& problems, std::int64_t& files) {
  std::error_code ec;
  if (!fs::exists(file, ec)) {
    const bool empty = (expected.is_array() && expected.get_array().empty()) ||
                       (expected.is_object() && expected.get_object().empty());
    if (!(optional_when_empty && empty)) problems.add(file.string() + ": missing; the events imply it");
    return;
  }
  ++files;
  auto actual = file.extension() == ".json" ? load_json_file(file) : load_yaml_tree(file);
  if (!actual) {
    problems.add(actual.err().message);
    return;
  }
  const json::value actual_text = file.extension() == ".json" ? as_text_tree(*actual) : std::move(*actual);
  for (const auto& difference : tree_differences(as_text_tree(expected), actual_text)) {
    problems.add(file.string() + ": " + difference);
  }
}

std::optional<read_dialog> read_dialog_folder(const fs::path& folder, const std::string& id, const std::string& root_id,
                                              bool is_root, problem_list& problems, std::int64_t& files) {
  if (auto name = check_folder_name(id); !name) {
    problems.add(folder.string() + ": " + name.err().message);
    return std::nullopt;
  }
  read_dialog dialog;
  dialog.id = id;
  dialog.folder = folder;
  const auto courses = course_files(folder, is_root, problems);
  if (courses.empty()) {
    problems.add(folder.string() + ": no course files (" + course_file_name(1) + "): there is no log to import");
    return std::nullopt;
  }
  for (const auto& [course, file] : courses) {
    ++files;
    if (!read_course_file(file, course, root_id, dialog, problems)) return std::nullopt;
  }
  if (dialog.events.empty()) {
    problems.add(folder.string() + ": its course files hold no events: there is no log to import");
    return std::nullopt;
  }

  const dialog_row& row = dialog.replay.row();
  const auto expected_kind = is_root ? events::dialog_kind::root : events::dialog_kind::sub;
  if (row.kind != expected_kind) {
    problems.add(folder.string() + ": dialog " + id + " is filed as a " + (is_root ? "root" : "subdialog") +
                 " but its dialog_created event makes it kind '" + std::string(events::to_wire(row.kind)) + "'");
  }
  check_index_file(folder / layout::dialog_file, dialog_document(row), false, problems, files);
  check_index_file(folder / layout::latest_file, latest_document(row), false, problems, files);
  check_index_file(folder / layout::reminders_file, reminders_document(dialog.replay.state()), false, problems, files);
  check_index_file(folder / layout::q4h_file, q4h_document(dialog.replay.state()), true, problems, files);
  return dialog;
}

}  // namespace parley::rtws
