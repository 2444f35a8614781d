#include "parley/access/access_rules.hpp"

#include <algorithm>
#include <cctype>

namespace parley::access {
namespace {

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

std::string quoted_list(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += ", ";
    out += "'" + item + "'";
  }
  return out;
}

std::string quoted_list(const std::vector<dir_glob>& globs) {
  std::vector<std::string> texts;
  texts.reserve(globs.size());
  for (const auto& glob : globs) texts.push_back(glob.text());
  return quoted_list(texts);
}

verdict refused(std::string reason) { return verdict{false, std::move(reason)}; }

verdict check(const direction_rules& rules, std::string_view path, path_kind kind, std::string_view dirs_key,
              std::string_view exts_key) {
  if (auto reserved = reserved_reason(path); !reserved.empty()) return refused(std::move(reserved));
  const std::string key(dirs_key);
  for (const auto& glob : rules.deny_dirs) {
    if (glob.matches(path)) return refused("it is inside no_" + key + " '" + glob.text() + "'");
  }
  if (!rules.allow_dirs.empty() && std::none_of(rules.allow_dirs.begin(), rules.allow_dirs.end(),
                                                [&](const dir_glob& glob) { return glob.matches(path); })) {
    return refused("it is outside " + key + " (" + quoted_list(rules.allow_dirs) + ")");
  }
  // Extensions are file names' business; a folder called "v1.2" has none.
  if (kind == path_kind::directory) return {};
  const std::string ext = extension_of(path);
  if (ext.empty()) return {};
  const std::string ext_key(exts_key);
  if (std::find(rules.deny_exts.begin(), rules.deny_exts.end(), ext) != rules.deny_exts.end()) {
    return refused("its extension '" + ext + "' is in no_" + ext_key);
  }
  if (!rules.allow_exts.empty() &&
      std::find(rules.allow_exts.begin(), rules.allow_exts.end(), ext) == rules.allow_exts.end()) {
    return refused("its extension '" + ext + "' is not in " + ext_key + " (" + quoted_list(rules.allow_exts) + ")");
  }
  return {};
}

}  // namespace

bool is_taskdoc_package_name(std::string_view name) {
  constexpr std::string_view kSuffix = ".tsk";
  if (name.size() < kSuffix.size()) return false;
  const auto tail = name.substr(name.size() - kSuffix.size());
  return std::equal(tail.begin(), tail.end(), kSuffix.begin(), [](char a, char b) { return lower(a) == b; });
}

std::string reserved_reason(std::string_view relative_path) {
  const auto segments = path_segments(relative_path);
  if (segments.empty()) return {};
  if (segments.front() == ".minds") {
    return ".minds/ holds the team's configuration and memory, which no file tool opens";
  }
  if (segments.front() == ".dialogs") return ".dialogs/ holds Dominds' dialogs, which no file tool opens";
  for (const auto segment : segments) {
    if (is_taskdoc_package_name(segment)) return "Taskdoc packages (*.tsk) change only through change_mind";
  }
  return {};
}

bool names_reserved_place(const dir_glob& pattern) {
  const auto& segments = pattern.segments();
  if (!segments.empty() && (segments.front() == ".minds" || segments.front() == ".dialogs")) return true;
  return std::any_of(segments.begin(), segments.end(), [](const std::string& segment) {
    return segment.find('*') == std::string::npos && is_taskdoc_package_name(segment);
  });
}

std::string extension_of(std::string_view relative_path) {
  const auto segments = path_segments(relative_path);
  if (segments.empty()) return {};
  const std::string_view name = segments.back();
  const auto dot = name.rfind('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == name.size()) return {};
  std::string ext(name.substr(dot + 1));
  std::transform(ext.begin(), ext.end(), ext.begin(), lower);
  return ext;
}

result<std::string> normalize_extension(std::string_view written) {
  std::string_view text = written;
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  while (!text.empty() && text.front() == '.') text.remove_prefix(1);
  const std::string shown = "extension '" + std::string(written) + "' ";
  if (text.empty()) return make_error(errc::invalid_argument, shown + "is empty");
  if (text.find_first_of("/\\") != std::string_view::npos) {
    return make_error(errc::invalid_argument, shown + "contains a path separator; name an extension such as 'md'");
  }
  if (text.find_first_of("*?[]{}") != std::string_view::npos) {
    return make_error(errc::invalid_argument, shown + "has wildcards; extensions are compared exactly");
  }
  if (const auto dot = text.rfind('.'); dot != std::string_view::npos) {
    return make_error(errc::invalid_argument, shown +
                                                  "can never match: only the text after a file name's last dot "
                                                  "is compared; use '" +
                                                  std::string(text.substr(dot + 1)) + "'");
  }
  std::string ext(text);
  std::transform(ext.begin(), ext.end(), ext.begin(), lower);
  return ext;
}

verdict access_rules::check_read(std::string_view relative_path, path_kind kind) const {
  return check(read, relative_path, kind, "read_dirs", "read_file_ext_names");
}

verdict access_rules::check_write(std::string_view relative_path, path_kind kind) const {
  return check(write, relative_path, kind, "write_dirs", "write_file_ext_names");
}

bool access_rules::may_pass_through(std::string_view relative_path) const {
  if (!reserved_reason(relative_path).empty()) return false;
  for (const auto& glob : read.deny_dirs) {
    if (glob.matches(relative_path)) return false;
  }
  return std::any_of(read.allow_dirs.begin(), read.allow_dirs.end(),
                     [&](const dir_glob& glob) { return glob.may_match_below(relative_path); });
}

}  // namespace parley::access
