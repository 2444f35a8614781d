// A member's `toolsets:` resolved against the tool registry, with errors that point at where the
// list was written (`FILE:LINE:COLUMN: members.dev.toolsets: ...`). The CLI checks the whole team
// before it opens the data directory, so a team with a toolset Parley lacks changes nothing on disk.
#pragma once

#include <string>
#include <vector>

#include "parley/config/team.hpp"
#include "parley/core/result.hpp"
#include "parley/tools/tool.hpp"

namespace parley::engine {

// The tool names the member's toolsets stand for (tools::tool_registry::resolve_toolsets).
result<std::vector<std::string>> resolve_member_toolsets(const config::member_config& member,
                                                         const tools::tool_registry& registry);
// Every member's toolsets resolve; the first that does not is the error.
result<void> check_team_toolsets(const config::team_config& team, const tools::tool_registry& registry);

// Of the tool names a member asked for (its `tools` and what its toolsets stand for), the shell
// tools it may not have: all of them when Dominds' `shell_specialists` does not list it, or when
// its access rules cannot be held by a shell here (tools::shell_confinement_problem).
std::vector<std::string> withheld_shell_tools(const config::member_config& member,
                                              const std::vector<std::string>& wanted);
// The refusal a member gets when it calls a shell tool it was not given: why, and whom to ask.
std::string shell_tool_refusal(const config::team_config& team, const config::member_config& member,
                               std::string_view tool_name);
// Said once when a team is loaded, like the loader's notices: each member whose shell tools are
// withheld and why, at the key that asked for them (`FILE:LINE:COLUMN: members.dev.toolsets: ...`).
std::vector<std::string> shell_tool_notices(const config::team_config& team, const tools::tool_registry& registry);

}  // namespace parley::engine
