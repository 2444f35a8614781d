// Reading the access-rule keys (read_dirs, write_dirs, no_read_dirs, no_write_dirs and the four
// *_file_ext_names lists) in layers — Dominds' member_defaults or Parley's top-level `access`,
// then the member — with errors that name the file, line, column and key of the offending entry.
#pragma once

#include <yaml-cpp/yaml.h>

#include <array>
#include <string>
#include <vector>

#include "parley/access/access_rules.hpp"
#include "parley/config/yaml_reader.hpp"
#include "parley/core/result.hpp"

namespace parley::config::detail {

class access_reader {
 public:
  // The eight keys, as both formats spell them.
  static const std::vector<std::string>& keys();

  // Reads those of the keys that `map` gives; each replaces whatever an earlier layer gave for it
  // (whole, not merged, as Dominds' member_defaults). Refuses malformed patterns and extensions,
  // allow-list patterns that name a place no file tool opens, and an empty allow list that would
  // only look like a restriction.
  result<void> read(const map_reader& map);
  // The rules, once no allow-list entry is wholly covered by the deny list of the same direction
  // (it could never allow anything: an overlap the author did not mean).
  result<access::access_rules> finish() const;

 private:
  // Where one key's current value was written, for errors about its entries.
  struct source {
    std::string file;
    std::string path;               // "members.lead.write_dirs"
    std::vector<YAML::Mark> marks;  // of each entry
  };
  enum key : std::size_t {
    read_dirs,
    write_dirs,
    no_read_dirs,
    no_write_dirs,
    read_file_ext_names,
    write_file_ext_names,
    no_read_file_ext_names,
    no_write_file_ext_names,
    key_count
  };

  result<void> read_key(const map_reader& map, key which);
  std::vector<access::dir_glob>& globs(key which);
  std::vector<std::string>& extensions(key which);
  bool holds_entries(key which) const;
  result<void> check_direction(key allow_dirs, key deny_dirs, key allow_exts, key deny_exts,
                               const access::direction_rules& rules) const;

  std::array<source, key_count> sources_;
  access::access_rules rules_;
};

}  // namespace parley::config::detail
