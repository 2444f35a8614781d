// Unified diffs (`diff -u`, `git diff`) parsed and applied to text, for apply_patch. Pure: no file
// access here. A hunk applies where its old lines (context and removals) match the file exactly —
// at the line its header names, shifted by what earlier hunks added or removed, or failing that at
// the nearest place below the previous hunk; it never overlaps an earlier hunk. A hunk that
// matches nowhere is rejected with the first line that differs at the place its header names.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"

namespace parley::tools {

struct diff_line {
  char kind = ' ';          // ' ' context, '-' removed, '+' added
  std::string text;         // without terminator
  bool no_newline = false;  // followed by "\ No newline at end of file"
};

struct diff_hunk {
  std::size_t old_start = 0;
  std::size_t old_count = 0;
  std::size_t new_start = 0;
  std::size_t new_count = 0;
  std::string header;  // "@@ -1,3 +1,4 @@" as written
  std::vector<diff_line> lines;
};

struct file_diff {
  std::string old_path;  // without "a/"; empty for /dev/null (a new file)
  std::string new_path;  // without "b/"; empty for /dev/null (a removed file)
  std::vector<diff_hunk> hunks;
  bool creates() const noexcept { return old_path.empty(); }
  bool removes() const noexcept { return new_path.empty(); }
};

// Errors (errc::invalid_argument) name the patch line and what was expected there.
result<std::vector<file_diff>> parse_unified_diff(std::string_view patch);

struct hunk_rejection {
  std::size_t number = 0;  // 1-based within its file
  std::string header;
  std::string why;
};

struct patched_text {
  std::string text;
  std::vector<hunk_rejection> rejected;
  std::size_t moved_hunks = 0;  // applied elsewhere than their header said
};

patched_text apply_hunks(std::string_view original, const std::vector<diff_hunk>& hunks);

}  // namespace parley::tools
