#include "parley/config/access_reader.hpp"

#include <algorithm>

#include "parley/config/yaml_value.hpp"

namespace parley::config::detail {
namespace {

bool is_allow_list(std::size_t which) { return which == 0 || which == 1 || which == 4 || which == 5; }
bool is_dir_list(std::size_t which) { return which < 4; }

std::string element_path(const std::string& path, std::size_t index) {
  return path + "[" + std::to_string(index) + "]";
}

}  // namespace

const std::vector<std::string>& access_reader::keys() {
  static const std::vector<std::string> kKeys{
      "read_dirs",           "write_dirs",           "no_read_dirs",           "no_write_dirs",
      "read_file_ext_names", "write_file_ext_names", "no_read_file_ext_names", "no_write_file_ext_names"};
  return kKeys;
}

std::vector<access::dir_glob>& access_reader::globs(key which) {
  switch (which) {
    case read_dirs:
      return rules_.read.allow_dirs;
    case write_dirs:
      return rules_.write.allow_dirs;
    case no_read_dirs:
      return rules_.read.deny_dirs;
    default:
      return rules_.write.deny_dirs;
  }
}

std::vector<std::string>& access_reader::extensions(key which) {
  switch (which) {
    case read_file_ext_names:
      return rules_.read.allow_exts;
    case write_file_ext_names:
      return rules_.write.allow_exts;
    case no_read_file_ext_names:
      return rules_.read.deny_exts;
    default:
      return rules_.write.deny_exts;
  }
}

bool access_reader::holds_entries(key which) const { return !sources_[which].marks.empty(); }

result<void> access_reader::read(const map_reader& map) {
  for (std::size_t which = 0; which < key_count; ++which) PARLEY_TRY(read_key(map, static_cast<key>(which)));
  return ok();
}

result<void> access_reader::read_key(const map_reader& map, key which) {
  const std::string& name = keys()[which];
  const map_reader::entry* item = map.find(name);
  if (item == nullptr) return ok();
  const bool dirs = is_dir_list(which);
  if (!item->value.IsSequence()) {
    return type_error(map, *item, dirs ? "a list of directory patterns" : "a list of file extensions");
  }
  if (item->value.size() == 0 && is_allow_list(which) && !holds_entries(which)) {
    // Dominds reads an empty allow list as no restriction at all; written on its own, it almost
    // certainly meant the opposite. Emptying an inherited list stays possible.
    const std::string deny = "no_" + name;
    return map.fail_at_value(*item, "an empty list restricts nothing (every path is allowed, as if '" + name +
                                        "' were absent); leave the key out, or deny everything with " + deny +
                                        (dirs ? ": ['**']" : ""));
  }
  source from{map.file(), map.path_of(name), {}};
  std::vector<access::dir_glob> parsed_globs;
  std::vector<std::string> parsed_exts;
  for (std::size_t i = 0; i < item->value.size(); ++i) {
    const YAML::Node element = item->value[i];
    const std::string at = element_path(from.path, i);
    if (!element.IsScalar()) {
      return yaml_error(from.file, element.Mark(), at,
                        "got " + describe_node(element) +
                            (dirs ? " (expected a directory pattern)" : " (expected a file extension)"));
    }
    from.marks.push_back(element.Mark());
    if (!dirs) {
      auto ext = access::normalize_extension(element.Scalar());
      if (!ext) return yaml_error(from.file, element.Mark(), at, ext.err().message);
      parsed_exts.push_back(std::move(*ext));
      continue;
    }
    auto glob = access::dir_glob::parse(element.Scalar());
    if (!glob) return yaml_error(from.file, element.Mark(), at, glob.err().message);
    if (is_allow_list(which) && access::names_reserved_place(*glob)) {
      return yaml_error(from.file, element.Mark(), at,
                        "pattern '" + glob->text() +
                            "' names a place no file tool opens (.minds/ and .dialogs/ at the workspace root, "
                            "Taskdoc packages *.tsk); it cannot be allowed, remove it");
    }
    parsed_globs.push_back(std::move(*glob));
  }
  if (dirs) {
    globs(which) = std::move(parsed_globs);
  } else {
    extensions(which) = std::move(parsed_exts);
  }
  sources_[which] = std::move(from);
  return ok();
}

result<void> access_reader::check_direction(key allow_dirs, key deny_dirs, key allow_exts, key deny_exts,
                                            const access::direction_rules& rules) const {
  const auto describe = [&](key which, std::size_t index) {
    return element_path(sources_[which].path, index) + " at " + format_position(sources_[which].marks[index]);
  };
  for (std::size_t a = 0; a < rules.allow_dirs.size(); ++a) {
    for (std::size_t d = 0; d < rules.deny_dirs.size(); ++d) {
      if (!rules.allow_dirs[a].within(rules.deny_dirs[d])) continue;
      return yaml_error(
          sources_[allow_dirs].file, sources_[allow_dirs].marks[a], element_path(sources_[allow_dirs].path, a),
          "pattern '" + rules.allow_dirs[a].text() + "' lies wholly inside '" + rules.deny_dirs[d].text() + "' (" +
              describe(deny_dirs, d) + "), which is checked first, so it can never allow anything");
    }
  }
  for (std::size_t a = 0; a < rules.allow_exts.size(); ++a) {
    const auto denied = std::find(rules.deny_exts.begin(), rules.deny_exts.end(), rules.allow_exts[a]);
    if (denied == rules.deny_exts.end()) continue;
    const auto d = static_cast<std::size_t>(denied - rules.deny_exts.begin());
    return yaml_error(sources_[allow_exts].file, sources_[allow_exts].marks[a],
                      element_path(sources_[allow_exts].path, a),
                      "extension '" + rules.allow_exts[a] + "' is also denied (" + describe(deny_exts, d) +
                          "), which is checked first, so allowing it does nothing");
  }
  return ok();
}

result<access::access_rules> access_reader::finish() const {
  PARLEY_TRY(check_direction(read_dirs, no_read_dirs, read_file_ext_names, no_read_file_ext_names, rules_.read));
  PARLEY_TRY(check_direction(write_dirs, no_write_dirs, write_file_ext_names, no_write_file_ext_names, rules_.write));
  return rules_;
}

}  // namespace parley::config::detail
