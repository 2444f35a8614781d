// Dominds' rules for the names an MCP server's tools, prompts and resources get in a team
// (dominds@1.29.0 dist/mcp/tool-names.js and resources.js), so that a `.minds/mcp.yaml` selects and
// renames the same tools in Parley as in Dominds:
//   - a tool name must match ^[a-zA-Z0-9_-]{1,64}$ (what OpenAI and Anthropic both accept), before
//     and after the transforms; an invalid one is refused, never renamed;
//   - whitelist and blacklist hold patterns where `*` matches any run of characters, matched
//     against the server's own name: with no blacklist, a non-empty whitelist admits only what it
//     matches; with a blacklist, what it matches is left out unless the whitelist also matches it;
//   - transforms apply in order (prefix add, prefix replace, suffix add); a kind's own `transform`
//     replaces the server's, it does not add to it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "parley/config/mcp_config.hpp"

namespace parley::tools::mcp {

bool is_valid_tool_name(std::string_view name);

// `*` matches any run of characters (also none); every other character matches itself.
bool matches_wildcard(std::string_view name, std::string_view pattern);

struct exposure {
  bool accepted = true;
  std::string why;  // when refused: "not in the whitelist (a*, b)" or "blacklisted by 'x*'"
};
exposure decide_exposure(std::string_view name, const config::mcp_name_filter& filter);

std::string apply_transforms(std::string_view name, const std::vector<config::mcp_name_transform>& transforms);

// The transforms of one kind of name: the kind's own when set, else the server's.
const std::vector<config::mcp_name_transform>& transforms_for(const config::mcp_server_config& server,
                                                              const config::mcp_name_filter& kind);

// Dominds' resource id: every run of characters outside [A-Za-z0-9_-] becomes '_', and '_' at
// either end is trimmed ("resource" when nothing is left).
std::string stable_id(std::string_view value);

}  // namespace parley::tools::mcp
