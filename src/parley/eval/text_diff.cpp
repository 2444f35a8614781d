#include "parley/eval/text_diff.hpp"

#include <algorithm>
#include <cstdint>

namespace parley::eval {
namespace {

std::vector<std::string_view> split_diff_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) {
      lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

}  // namespace

std::vector<diff_line> diff_lines(std::string_view a, std::string_view b) {
  const auto left = split_diff_lines(a);
  const auto right = split_diff_lines(b);
  const std::size_t n = left.size();
  const std::size_t m = right.size();
  std::vector<diff_line> out;
  if ((n + 1) * (m + 1) > kMaxDiffCells) {
    for (const auto line : left) out.push_back({diff_op::removed, std::string(line)});
    for (const auto line : right) out.push_back({diff_op::added, std::string(line)});
    return out;
  }
  // lcs[i][j]: the longest common subsequence of left[i..] and right[j..].
  std::vector<std::uint32_t> lcs((n + 1) * (m + 1), 0);
  const auto at = [m](std::size_t i, std::size_t j) { return i * (m + 1) + j; };
  for (std::size_t i = n; i-- > 0;) {
    for (std::size_t j = m; j-- > 0;) {
      lcs[at(i, j)] = left[i] == right[j] ? lcs[at(i + 1, j + 1)] + 1 : std::max(lcs[at(i + 1, j)], lcs[at(i, j + 1)]);
    }
  }
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < n && j < m) {
    if (left[i] == right[j]) {
      out.push_back({diff_op::same, std::string(left[i])});
      ++i;
      ++j;
    } else if (lcs[at(i + 1, j)] >= lcs[at(i, j + 1)]) {
      out.push_back({diff_op::removed, std::string(left[i++])});
    } else {
      out.push_back({diff_op::added, std::string(right[j++])});
    }
  }
  for (; i < n; ++i) out.push_back({diff_op::removed, std::string(left[i])});
  for (; j < m; ++j) out.push_back({diff_op::added, std::string(right[j])});
  return out;
}

char diff_mark(diff_op op) noexcept {
  switch (op) {
    case diff_op::same:
      return ' ';
    case diff_op::removed:
      return '-';
    case diff_op::added:
      return '+';
  }
  return ' ';
}

std::string format_diff(const std::vector<diff_line>& lines) {
  std::string text;
  for (const auto& line : lines) {
    text += diff_mark(line.op);
    text += ' ';
    text += line.text;
    text += '\n';
  }
  return text;
}

}  // namespace parley::eval
