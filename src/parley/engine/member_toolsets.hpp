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

// What a member's toolsets give it of the team's MCP servers (docs/mcp.md "Tools"). Servers start
// lazily, so their tools are found when the member's model is called, not here.
struct mcp_grant {
  std::vector<std::string> named;     // the server ids its toolsets name, in order
  bool every_server = false;          // `*`: every server configured at the time
  std::vector<std::string> excluded;  // `!id`
  bool any() const { return !named.empty() || every_server; }
  // Of `configured` (the servers that run now, in configuration order), those it is given.
  std::vector<std::string> servers(const std::vector<std::string>& configured) const;
};

struct member_toolsets {
  std::vector<std::string> tools;  // built-in tool names, in order, each once
  mcp_grant mcp;
};

// The tools the member's toolsets stand for: built-in ones by name (tools::tool_registry::
// resolve_toolsets) and MCP servers by id. A toolset naming a server of `mcp` gives that server's
// tools (a disabled one: none); naming a server whose entry was refused is an error with its
// problem line. `resources` is Dominds' list_resources and fetch_resource when `mcp` has servers,
// and in `*` then too. A server id that is also a built-in toolset's name names the built-in one
// (mcp_servers_in_use leaves such a server out).
result<member_toolsets> resolve_member_toolsets(const config::member_config& member,
                                                const tools::tool_registry& registry,
                                                const config::mcp_config& mcp = {});
// Every member's toolsets resolve; the first that does not is the error.
result<void> check_team_toolsets(const config::team_config& team, const tools::tool_registry& registry);

// The servers of `mcp` that run: those whose id is not a built-in toolset's name. Each left out is
// said in `notices` ("MCP server 'os' is left out: its id is the name of a built-in toolset").
config::mcp_config mcp_servers_in_use(const config::mcp_config& mcp, const tools::tool_registry& registry,
                                      std::vector<std::string>* notices = nullptr);

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
