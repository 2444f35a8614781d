// Small helpers for what the CLI prints: counts with their plural ("1 question", "2 questions")
// and multi-line text indented under a heading line.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace parley::cli {

template <typename Count>
std::string counted(Count n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

// Every line of `text` after `indent`, each ended with a newline (an empty text gives none).
inline std::string indented(std::string_view text, std::string_view indent) {
  std::string out;
  while (!text.empty()) {
    const auto end = text.find('\n');
    out += indent;
    out += text.substr(0, end);
    out += '\n';
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return out;
}

// Columns a text takes on a terminal: CJK and full-width characters take two, others one (a
// heading in Chinese lines up with its column).
inline std::size_t display_width(std::string_view text) {
  std::size_t width = 0;
  for (std::size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    const std::size_t length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    std::uint32_t point = length == 1 ? lead : lead & (0x3F >> (length - 1));
    for (std::size_t k = 1; k < length && i + k < text.size(); ++k) {
      point = (point << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
    }
    width += point >= 0x2E80 && point <= 0xFFEF ? 2 : 1;
    i += length;
  }
  return width;
}

// `text` filled with spaces to `width` columns, on the right (`left_aligned`) or on the left.
inline std::string padded(std::string_view text, std::size_t width, bool left_aligned) {
  const std::size_t used = display_width(text);
  const std::string fill(used < width ? width - used : 0, ' ');
  return left_aligned ? std::string(text) + fill : fill + std::string(text);
}

}  // namespace parley::cli
