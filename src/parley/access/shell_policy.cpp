#include "parley/access/shell_policy.hpp"
#include "parley/core/text.hpp"

namespace parley::access {
namespace {

bool unquoted_substitution(std::string_view command_line) {
  char quote = 0;
  for (std::size_t i = 0; i < command_line.size(); ++i) {
    const char c = command_line[i];
    if (c == '\\' && quote != '\'') {
      ++i;
    } else if (quote == '\'') {
      if (c == '\'') quote = 0;
    } else if (c == '`' || (c == '$' && i + 1 < command_line.size() && command_line[i + 1] == '(')) {
      return true;  // inside double quotes too: "$(...)" still runs
    } else if (quote == '"') {
      if (c == '"') quote = 0;
    } else if (c == '\'' || c == '"') {
      quote = c;
    }
  }
  return false;
}

}  // namespace

bool glob_matches(std::string_view pattern, std::string_view text) {
  std::size_t p = 0;
  std::size_t t = 0;
  std::size_t star = std::string_view::npos;
  std::size_t resume = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

std::vector<std::string> simple_commands(std::string_view command_line) {
  std::vector<std::string> parts;
  std::string current;
  char quote = 0;
  auto flush = [&] {
    const auto part = trim(current, " \t\r");
    if (!part.empty()) parts.emplace_back(part);
    current.clear();
  };
  for (std::size_t i = 0; i < command_line.size(); ++i) {
    const char c = command_line[i];
    if (quote != 0) {
      current += c;
      if (c == '\\' && quote == '"' && i + 1 < command_line.size())
        current += command_line[++i];
      else if (c == quote)
        quote = 0;
      continue;
    }
    if (c == '\\' && i + 1 < command_line.size()) {
      current += c;
      current += command_line[++i];
    } else if (c == '\'' || c == '"') {
      quote = c;
      current += c;
    } else if (c == ';' || c == '|' || c == '&' || c == '\n') {
      flush();
    } else {
      current += c;
    }
  }
  flush();
  return parts;
}

std::string shell_refusal(const shell_policy& policy, std::string_view command_line) {
  if (trim(command_line, " \t\r").empty()) return "the command is empty";
  if (!policy.allow.empty() && unquoted_substitution(command_line)) {
    return "command substitution ($(...) or backquotes) is not allowed: the allowlist cannot check what it runs";
  }
  for (const auto& part : simple_commands(command_line)) {
    for (const auto& pattern : policy.deny) {
      if (glob_matches(pattern, part)) return "'" + part + "' matches the deny pattern '" + pattern + "'";
    }
    if (policy.allow.empty()) continue;
    bool allowed = false;
    for (const auto& pattern : policy.allow) allowed = allowed || glob_matches(pattern, part);
    if (!allowed) {
      std::string list;
      for (const auto& pattern : policy.allow) list += (list.empty() ? "'" : ", '") + pattern + "'";
      return "'" + part + "' is outside your allowlist (" + list + ")";
    }
  }
  return {};
}

}  // namespace parley::access
