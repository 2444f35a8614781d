// Directory-scope patterns of the access rules (read_dirs, no_write_dirs, ...), as Dominds defines
// them: a pattern names a scope, and matches a path when it matches the path itself or one of the
// folders above it ("docs" and "docs/**" both match "docs/a/b.md"). Within a segment `*` matches
// any run of characters; a whole segment `**` matches any number of segments, none included.
// Paths are workspace-relative with '/' separators; "" and "." are the workspace root.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"

namespace parley::access {

// The segments of a workspace-relative path; empty and "." segments are dropped.
std::vector<std::string_view> path_segments(std::string_view relative_path);

class dir_glob {
 public:
  // Refuses, with errc::invalid_argument and a message that says why (the caller adds where):
  // an empty pattern, an absolute one, `..`, `**` inside a segment, and the glob syntax other
  // dialects have but this one does not (`?`, `[...]`, `{...}`, a leading `!`).
  static result<dir_glob> parse(std::string_view pattern);

  const std::string& text() const noexcept { return text_; }
  // The pattern matches the path or a folder above it.
  bool matches(std::string_view relative_path) const;
  // Some path strictly below `relative_path` may match (the path leads towards the scope).
  bool may_match_below(std::string_view relative_path) const;
  // Every path this pattern matches is matched by `wider` too. Conservative: false when unsure.
  bool within(const dir_glob& wider) const;
  // The segments before the first one with a wildcard, joined with '/'; "" when it starts with one.
  std::string literal_prefix() const;
  const std::vector<std::string>& segments() const noexcept { return segments_; }

 private:
  dir_glob() = default;
  // Positions in segments_ reachable after consuming `path`; segments_.size() means "all matched".
  std::vector<bool> run(const std::vector<std::string_view>& path, bool& matched_on_the_way) const;

  std::string text_;
  std::vector<std::string> segments_;  // "**" stands for any number of segments
};

// `*` matching within one segment; everything else literal.
bool segment_matches(std::string_view pattern, std::string_view name);

}  // namespace parley::access
