#include "parley/access/dir_glob.hpp"

#include <algorithm>

namespace parley::access {
namespace {

constexpr std::string_view kAnySegments = "**";

error refuse(std::string_view pattern, std::string_view problem) {
  return make_error(errc::invalid_argument, "pattern '" + std::string(pattern) + "' " + std::string(problem));
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

}  // namespace

std::vector<std::string_view> path_segments(std::string_view relative_path) {
  std::vector<std::string_view> segments;
  while (!relative_path.empty()) {
    const auto slash = relative_path.find('/');
    const std::string_view part = relative_path.substr(0, slash);
    if (!part.empty() && part != ".") segments.push_back(part);
    if (slash == std::string_view::npos) break;
    relative_path.remove_prefix(slash + 1);
  }
  return segments;
}

bool segment_matches(std::string_view pattern, std::string_view name) {
  // Greedy matching with backtracking to the last `*`: linear in practice, no recursion.
  std::size_t p = 0;
  std::size_t n = 0;
  std::size_t star = std::string_view::npos;
  std::size_t resume = 0;
  while (n < name.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = n;
    } else if (p < pattern.size() && pattern[p] == name[n]) {
      ++p;
      ++n;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      n = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

result<dir_glob> dir_glob::parse(std::string_view pattern) {
  if (pattern.empty()) return refuse(pattern, "is empty (use '.' or '**' for the whole workspace)");
  if (is_space(pattern.front()) || is_space(pattern.back())) {
    return refuse(pattern, "has leading or trailing white space");
  }
  for (const char c : pattern) {
    if (static_cast<unsigned char>(c) < 0x20) return refuse(pattern, "contains a control character");
  }
  std::string normal(pattern);
  std::replace(normal.begin(), normal.end(), '\\', '/');  // as Dominds does
  if (normal.front() == '/') {
    return refuse(pattern, "is absolute; patterns are relative to the workspace root");
  }
  if (normal.front() == '!') {
    return refuse(pattern, "starts with '!': negation is not supported; put the path in the no_* list instead");
  }
  if (const auto at = normal.find_first_of("?[]{}"); at != std::string::npos) {
    return refuse(pattern, "uses '" + std::string(1, normal[at]) + "': only '*' and '**' are supported");
  }
  dir_glob glob;
  glob.text_ = std::string(pattern);
  for (const auto part : path_segments(normal)) {
    if (part == "..") return refuse(pattern, "contains '..'; patterns cannot leave the workspace");
    if (part != kAnySegments && part.find(kAnySegments) != std::string_view::npos) {
      return refuse(pattern, "has '**' inside a segment ('" + std::string(part) +
                                 "'); '**' must be a whole segment, as in 'docs/**'");
    }
    // "**/**" is "**".
    if (part == kAnySegments && !glob.segments_.empty() && glob.segments_.back() == kAnySegments) continue;
    glob.segments_.emplace_back(part);
  }
  return glob;
}

std::vector<bool> dir_glob::run(const std::vector<std::string_view>& path, bool& matched_on_the_way) const {
  const std::size_t n = segments_.size();
  const auto close = [&](std::vector<bool>& states) {
    for (std::size_t i = 0; i < n; ++i) {
      if (states[i] && segments_[i] == kAnySegments) states[i + 1] = true;
    }
  };
  std::vector<bool> states(n + 1, false);
  states[0] = true;
  close(states);
  matched_on_the_way = states[n];
  for (const auto name : path) {
    std::vector<bool> next(n + 1, false);
    for (std::size_t i = 0; i < n; ++i) {
      if (!states[i]) continue;
      if (segments_[i] == kAnySegments) {
        next[i] = true;
      } else if (segment_matches(segments_[i], name)) {
        next[i + 1] = true;
      }
    }
    close(next);
    states = std::move(next);
    matched_on_the_way = matched_on_the_way || states[n];
    if (matched_on_the_way) break;  // a scope matches everything below it
  }
  return states;
}

bool dir_glob::matches(std::string_view relative_path) const {
  bool matched = false;
  (void)run(path_segments(relative_path), matched);
  return matched;
}

bool dir_glob::may_match_below(std::string_view relative_path) const {
  bool matched = false;
  const auto states = run(path_segments(relative_path), matched);
  return matched || std::find(states.begin(), states.end(), true) != states.end();
}

std::string dir_glob::literal_prefix() const {
  std::string prefix;
  for (const auto& part : segments_) {
    if (part.find('*') != std::string::npos) break;
    if (!prefix.empty()) prefix += '/';
    prefix += part;
  }
  return prefix;
}

bool dir_glob::within(const dir_glob& wider) const {
  // Everything this pattern matches lies at or below its literal prefix; a scope that matches the
  // prefix matches everything below it.
  return wider.matches(literal_prefix());
}

}  // namespace parley::access
