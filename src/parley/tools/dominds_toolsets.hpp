// Dominds' built-in toolset names (dominds@1.29.0, dist/tools/builtins.js) as Parley toolsets, so a
// `.minds/team.yaml` written for Dominds gets tools of the same meaning: `ws_read`, `ws_mod`, `os`,
// `personal_memory`, `team_memory`, `codex_inspect_and_patch_tools`, `skills`. The names Parley
// has no tools for (`team_mgmt`, `fs_read`, `mcp_admin`, `resources`, and `control`, which Dominds
// itself refuses in team config) are registered as unavailable with what is missing, so naming one
// is an error that says so. docs/team-yaml.md "Dominds toolsets" has the table.
// With tool_naming::dominds (a team from `.minds/`) the toolsets list Dominds' tool names
// (dominds_tools.hpp) and team_mgmt is one of them; with Parley's they list Parley's tools.
// Call after the tools they name are registered (engine/assembly.cpp build_builtin_tools).
#pragma once

#include "parley/tools/dominds_tools.hpp"
#include "parley/tools/tool.hpp"

namespace parley::tools {

void register_dominds_toolsets(tool_registry& registry, tool_naming naming = tool_naming::parley);

}  // namespace parley::tools
