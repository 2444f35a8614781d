// A line-based diff of two texts by longest common subsequence: the lines both keep, in order, and
// those only one has. Written here because the answers of two trees are short and the output is
// ours to shape (unified-diff-like marks); nothing linked does it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace parley::eval {

enum class diff_op { same, removed, added };  // removed: only in A; added: only in B

struct diff_line {
  diff_op op = diff_op::same;
  std::string text;
  bool operator==(const diff_line&) const = default;
};

// Above this many line pairs (A's lines × B's) the table is not built: A's lines are all removed
// and B's all added, so memory stays bounded for any input.
inline constexpr std::size_t kMaxDiffCells = 4'000'000;

// Lines split on '\n' (a final newline makes no empty last line). Among the longest common
// subsequences the one found is deterministic: on a tie a removal comes before an addition.
std::vector<diff_line> diff_lines(std::string_view a, std::string_view b);
// "  same", "- removed", "+ added", one per line.
std::string format_diff(const std::vector<diff_line>& lines);
char diff_mark(diff_op op) noexcept;

}  // namespace parley::eval
