#include "parley/engine/dialog_title.hpp"

#include <vector>

namespace parley::engine {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

// The first line that is more than whitespace and Markdown markers, with those markers dropped.
std::string_view first_line_with_words(std::string_view text) {
  while (!text.empty()) {
    const auto end = text.find('\n');
    std::string_view line = text.substr(0, end);
    std::size_t start = 0;
    while (start < line.size()) {
      const char c = line[start];
      // Headings and quotes; a list bullet only before a space (`**bold**` keeps its stars).
      const bool bullet = (c == '-' || c == '*' || c == '+') && start + 1 < line.size() && is_space(line[start + 1]);
      if (!is_space(c) && c != '#' && c != '>' && !bullet) break;
      ++start;
    }
    line.remove_prefix(start);
    if (!line.empty()) return line;
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return {};
}

// Byte offsets where each code point starts (the input is valid UTF-8: the log refuses anything else).
std::vector<std::size_t> code_point_starts(std::string_view text) {
  std::vector<std::size_t> starts;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0U) != 0x80U) starts.push_back(i);
  }
  return starts;
}

}  // namespace

std::string title_from_message(std::string_view message) {
  std::string line;
  for (const char c : first_line_with_words(message)) {
    if (is_space(c)) {
      if (!line.empty() && line.back() != ' ') line.push_back(' ');
    } else {
      line.push_back(c);
    }
  }
  while (!line.empty() && line.back() == ' ') line.pop_back();
  const auto starts = code_point_starts(line);
  if (starts.size() <= kTitleMaxChars) return line;
  std::size_t cut = starts[kTitleMaxChars - 1];  // room for the "…"
  const auto space = line.rfind(' ', cut);
  if (space != std::string::npos && space > cut / 2) cut = space;
  line.resize(cut);
  while (!line.empty() && line.back() == ' ') line.pop_back();
  return line + "…";
}

}  // namespace parley::engine
