// Dominds' `team_mgmt` toolset: the tools through which a member reads and edits `.minds/` (which
// every other file tool refuses: workspace_access.hpp). Paths are relative to `.minds/` ('team.yaml'
// and '.minds/team.yaml' name the same file) and never leave it. Every change (write, move, removal)
// is made on a copy of `.minds/` first (team_mgmt_support.hpp): the copy must load as a team
// (config::load_dominds_workspace) with every member that could run still able to, else the change
// is refused with the loader's FILE:LINE:COLUMN error and nothing is touched. Not tried on a copy,
// as they cannot leave a team that does not load: team_mgmt_unlink_skill (removes a link to a
// pooled skill) and team_mgmt_clear_problems (writes only `.minds/problems-cleared.yaml`, which
// hides problems and is never a reason a load fails: config/cleared_problems.hpp).
// An accepted edit reaches a running `parley serve` through its watch of `.minds/`
// (engine/team_watch.hpp): the team is loaded again within about two seconds, and the next drive
// of every dialog uses it.
#pragma once

#include <string>
#include <vector>

#include "parley/tools/tool.hpp"

namespace parley::tools {

void register_team_mgmt_tools(tool_registry& registry);
// The team_mgmt tools Parley offers, in Dominds' order: every one of Dominds 1.29's 34.
const std::vector<std::string>& team_mgmt_tool_names();

}  // namespace parley::tools
