// Reading YAML configuration files with precise errors. Every error is one line,
// `FILE:LINE:COLUMN: KEY.PATH: problem (expected ...)`, with 1-based positions. yaml-cpp throws;
// everything here catches and returns result<> instead.
#pragma once

#include <yaml-cpp/yaml.h>

#include <boost/json/object.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"

namespace parley::config::detail {

// `parent.key`, or `key` at the top level.
std::string join_path(std::string_view parent, std::string_view key);
// The single-line error format; an empty `path` is left out.
error yaml_error(std::string_view file, const YAML::Mark& mark, std::string_view path, std::string_view problem);
// "LINE:COLUMN", 1-based.
std::string format_position(const YAML::Mark& mark);
// "a, b or c" — for "(expected one of: ...)" lists.
std::string join_names(const std::vector<std::string>& names);

// Reads and parses a whole file; syntax errors carry yaml-cpp's position.
result<YAML::Node> load_yaml_file(const std::filesystem::path& file);
// The same checks for YAML already read from `file` (a Markdown file's frontmatter, say).
result<YAML::Node> parse_yaml_text(const std::filesystem::path& file, const std::string& text);
result<std::string> read_text_file(const std::filesystem::path& file);

// One YAML mapping being read. It remembers the file, the key path and the position of the key
// that introduced it, so that fields can be read with one call each and fail with a full location.
// A null node reads as an empty mapping: in these files `key:` with no value means "not given".
class map_reader {
 public:
  struct entry {
    std::string key;
    YAML::Node key_node;
    YAML::Node value;
  };

  // `anchor` is where "missing key" errors point: the key that introduced this mapping.
  static result<map_reader> open(std::string file, const YAML::Node& node, const YAML::Mark& anchor, std::string path);
  // The mapping stored under `key`, if present and not null.
  result<std::optional<map_reader>> child(std::string_view key) const;
  // The mapping stored in `value` of `item`, named `path`.
  result<map_reader> child_of(const entry& item, std::string path) const;

  const std::string& file() const noexcept { return file_; }
  const std::string& path() const noexcept { return path_; }
  const YAML::Mark& anchor() const noexcept { return anchor_; }
  const std::vector<entry>& entries() const noexcept { return entries_; }
  std::string path_of(std::string_view key) const { return join_path(path_, key); }

  // Present with a non-null value.
  const entry* find(std::string_view key) const;
  bool has(std::string_view key) const { return find(key) != nullptr; }

  // Unknown keys fail with a "did you mean" hint, repeated keys with the first one's position.
  result<void> check_keys(const std::vector<std::string>& allowed) const;
  // Repeated keys fail as "duplicate `what` 'x'" — for mappings keyed by ids.
  result<void> check_unique(std::string_view what) const;

  // Each reader leaves `out` untouched when the key is absent or null, so a default (or a value
  // from an outer layer such as Dominds' member_defaults) survives.
  result<void> read(std::string_view key, std::string& out) const;
  result<void> read_nonempty(std::string_view key, std::string& out) const;
  result<void> read(std::string_view key, bool& out) const;
  result<void> read_positive(std::string_view key, std::int64_t& out) const;
  // A number (integer or decimal) within [min, max]; `expected` describes the range in messages.
  result<void> read_number(std::string_view key, double& out, double min, double max, std::string_view expected) const;
  result<void> read(std::string_view key, std::vector<std::string>& out) const;
  // Dominds' routing cards (`gofor`, `nogo`): a string, a list of strings, or a mapping of label to
  // text, each entry read as "label: text". One item per string, in document order.
  result<void> read_text_items(std::string_view key, std::vector<std::string>& out) const;
  result<void> read(std::string_view key, boost::json::object& out) const;
  result<std::string> require_nonempty(std::string_view key, std::string_view hint = {}) const;

  // Errors located at this mapping, at a key, or at a key's value (the key when the value is null).
  error fail(std::string_view problem) const;
  error fail_at_key(const entry& item, std::string_view problem) const;
  error fail_at_value(const entry& item, std::string_view problem) const;
  error missing(std::string_view key, std::string_view expected) const;

 private:
  map_reader(std::string file, YAML::Mark anchor, std::string path);

  std::string file_;
  YAML::Mark anchor_;
  std::string path_;
  std::vector<entry> entries_;  // document order, repeats included
};

// "got X (expected Y)" for a value of the wrong type.
error type_error(const map_reader& map, const map_reader::entry& item, std::string_view expected);

}  // namespace parley::config::detail
