// What a loaded team asks for that the tool registry cannot give, settled once before the engine
// is made. For a Dominds workspace (team_config::lenient) an unknown toolset, a Dominds toolset
// Parley has no tools for (team_mgmt, mcp_admin, memory ...), a toolset naming an MCP server that
// is not configured, and a tool name Parley lacks are left out of the member's lists, each a
// problem: the team runs with what it has, as in Dominds. Whether a name is known is the
// registry's answer alone, so a tool or toolset added to it later stops being a problem by itself.
// Parley's own team format stays strict (check_team_toolsets refuses it). Shell tools withheld
// from a member (shell_tool_notices) are problems too, for any team. Last, the problems cleared
// with team_mgmt_clear_problems are taken out (config/cleared_problems.hpp).
#pragma once

#include "parley/config/team.hpp"
#include "parley/tools/tool.hpp"

namespace parley::engine {

void settle_team_problems(config::team_config& team, const tools::tool_registry& registry);

}  // namespace parley::engine
