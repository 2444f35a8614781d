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

}  // namespace parley::cli
