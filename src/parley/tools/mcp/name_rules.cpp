#include "parley/tools/mcp/name_rules.hpp"

#include <cctype>

#include "parley/access/dir_glob.hpp"

namespace parley::tools::mcp {

namespace {

bool name_character(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-'; }

bool any_matches(std::string_view name, const std::vector<std::string>& patterns, std::string* which = nullptr) {
  for (const auto& pattern : patterns) {
    if (!matches_wildcard(name, pattern)) continue;
    if (which != nullptr) *which = pattern;
    return true;
  }
  return false;
}

std::string joined(const std::vector<std::string>& patterns) {
  std::string out;
  for (const auto& pattern : patterns) out += (out.empty() ? "" : ", ") + pattern;
  return out;
}

}  // namespace

bool is_valid_tool_name(std::string_view name) {
  if (name.empty() || name.size() > 64) return false;
  for (const char c : name) {
    if (!name_character(c)) return false;
  }
  return true;
}

// The same `*` matching as the access rules' folder patterns (one segment), so the two never differ.
bool matches_wildcard(std::string_view name, std::string_view pattern) {
  return access::segment_matches(pattern, name);
}

exposure decide_exposure(std::string_view name, const config::mcp_name_filter& filter) {
  if (filter.blacklist.empty()) {
    if (filter.whitelist.empty() || any_matches(name, filter.whitelist)) return {};
    return {false, "not in the whitelist (" + joined(filter.whitelist) + ")"};
  }
  if (any_matches(name, filter.whitelist)) return {};
  std::string pattern;
  if (any_matches(name, filter.blacklist, &pattern)) return {false, "blacklisted by '" + pattern + "'"};
  return {};
}

std::string apply_transforms(std::string_view name, const std::vector<config::mcp_name_transform>& transforms) {
  std::string out(name);
  for (const auto& step : transforms) {
    switch (step.what) {
      case config::mcp_name_transform::kind::prefix_add:
        out = step.add + out;
        break;
      case config::mcp_name_transform::kind::prefix_replace:
        if (out.starts_with(step.remove)) out.erase(0, step.remove.size());
        out = step.add + out;
        break;
      case config::mcp_name_transform::kind::suffix_add:
        out += step.add;
        break;
    }
  }
  return out;
}

const std::vector<config::mcp_name_transform>& transforms_for(const config::mcp_server_config& server,
                                                              const config::mcp_name_filter& kind) {
  return kind.transform ? *kind.transform : server.transform;
}

std::string stable_id(std::string_view value) {
  std::string out;
  bool in_run = false;
  for (const char c : value) {
    if (name_character(c)) {
      out += c;
      in_run = false;
    } else if (!in_run) {
      out += '_';
      in_run = true;
    }
  }
  const auto first = out.find_first_not_of('_');
  if (first == std::string::npos) return "resource";
  const auto last = out.find_last_not_of('_');
  return out.substr(first, last - first + 1);
}

}  // namespace parley::tools::mcp
