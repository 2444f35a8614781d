#include "parley/config/problem.hpp"

#include <algorithm>
#include <charconv>

namespace parley::config {
namespace {

// Reads a run of digits at `text[at]` followed by `:`; advances `at` past the colon.
bool read_position_number(std::string_view text, std::size_t& at, std::int64_t& out) {
  const std::size_t start = at;
  while (at < text.size() && text[at] >= '0' && text[at] <= '9') ++at;
  if (at == start || at >= text.size() || text[at] != ':') return false;
  std::from_chars(text.data() + start, text.data() + at, out);
  ++at;
  return true;
}

}  // namespace

std::string problem::text() const {
  std::string out;
  if (!file.empty()) {
    out = file;
    if (line > 0) out += ":" + std::to_string(line) + ":" + std::to_string(column);
    out += ": ";
  }
  if (!what.empty()) out += what + ": ";
  out += why;
  return out;
}

problem problem_from_message(std::string_view message, std::string member) {
  problem out;
  out.member = std::move(member);
  // "FILE:LINE:COLUMN: rest": the first ":digits:digits: " after a non-empty file.
  for (std::size_t colon = message.find(':'); colon != std::string_view::npos && colon > 0;
       colon = message.find(':', colon + 1)) {
    std::size_t at = colon + 1;
    std::int64_t line = 0;
    std::int64_t column = 0;
    if (!read_position_number(message, at, line) || !read_position_number(message, at, column)) continue;
    if (at >= message.size() || message[at] != ' ') continue;
    out.file = std::string(message.substr(0, colon));
    out.line = line;
    out.column = column;
    message.remove_prefix(at + 1);
    break;
  }
  // "path: why" when the first word before ": " is a key path (no spaces).
  const std::size_t sep = message.find(": ");
  if (sep != std::string_view::npos && sep > 0 && message.substr(0, sep).find(' ') == std::string_view::npos) {
    out.what = std::string(message.substr(0, sep));
    message.remove_prefix(sep + 2);
  }
  out.why = std::string(message);
  return out;
}

std::vector<std::string> problem_texts(const std::vector<problem>& problems) {
  std::vector<std::string> out;
  out.reserve(problems.size());
  for (const auto& p : problems) out.push_back(p.text());
  return out;
}

bool member_can_run(const std::vector<problem>& problems, std::string_view member_id) {
  return std::none_of(problems.begin(), problems.end(),
                      [&](const problem& p) { return p.blocks_member && p.member == member_id; });
}

}  // namespace parley::config
