#include "parley/rtws/rtws_layout.hpp"

#include <cstdio>

namespace parley::rtws {

namespace fs = std::filesystem;

fs::path dialogs_path(const fs::path& rtws) { return rtws / layout::dialogs_folder; }

std::string_view bucket_for_status(events::dialog_status status) {
  return status == events::dialog_status::running ? layout::run_folder : layout::done_folder;
}

fs::path root_path(const fs::path& rtws, std::string_view bucket, std::string_view root_id) {
  return dialogs_path(rtws) / bucket / root_id;
}

fs::path subdialog_path(const fs::path& root_folder, std::string_view sub_id) {
  return root_folder / layout::subdialogs_folder / sub_id;
}

std::string course_file_name(std::int64_t course) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "course-%03lld.jsonl", static_cast<long long>(course));
  return buf;
}

std::optional<std::int64_t> course_of_file_name(std::string_view name) {
  constexpr std::string_view prefix = "course-";
  constexpr std::string_view suffix = ".jsonl";
  if (name.size() <= prefix.size() + suffix.size() || !name.starts_with(prefix) || !name.ends_with(suffix)) {
    return std::nullopt;
  }
  const std::string_view digits = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
  if (digits.size() > 15) return std::nullopt;  // far beyond any real course, and no overflow below
  std::int64_t course = 0;
  for (const char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    course = course * 10 + (c - '0');
  }
  // Only the canonical spelling: "course-1.jsonl" or "course-0001.jsonl" are not course files.
  if (course < 1 || course_file_name(course) != name) return std::nullopt;
  return course;
}

result<void> check_folder_name(std::string_view dialog_id) {
  if (dialog_id.empty()) return make_error(errc::invalid_argument, "a dialog id is empty");
  if (dialog_id.front() == '.') {
    return make_error(errc::invalid_argument,
                      "dialog id '" + std::string(dialog_id) + "' starts with '.', which cannot be a dialog folder");
  }
  for (const char c : dialog_id) {
    if (c == '/' || c == '\\' || c == '\0') {
      return make_error(errc::invalid_argument,
                        "dialog id '" + std::string(dialog_id) + "' contains a path separator or NUL");
    }
  }
  return ok();
}

}  // namespace parley::rtws
