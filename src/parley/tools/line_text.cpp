#include "parley/tools/line_text.hpp"

#include "parley/core/utf8.hpp"

namespace parley::tools {

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) {
      lines.emplace_back(text.substr(start));
      break;
    }
    lines.emplace_back(text.substr(start, end + 1 - start));
    start = end + 1;
  }
  return lines;
}

std::string join_lines(const std::vector<std::string>& lines) {
  std::size_t size = 0;
  for (const auto& line : lines) size += line.size();
  std::string out;
  out.reserve(size);
  for (const auto& line : lines) out += line;
  return out;
}

std::vector<std::string> lines_to_insert(std::string_view text, bool keep_unterminated) {
  auto lines = split_lines(text);
  if (!lines.empty() && !keep_unterminated && lines.back().back() != '\n') lines.back() += '\n';
  return lines;
}

std::string_view line_body(std::string_view line) {
  if (!line.empty() && line.back() == '\n') line.remove_suffix(1);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

std::string quoted_excerpt(std::string_view text) {
  constexpr std::size_t kQuotedLineBytes = 120;
  return "'" + utf8_excerpt(text, kQuotedLineBytes) + "'";
}

}  // namespace parley::tools
