// Dominds' tool names (dominds@1.29.0) for a team loaded from `.minds/`: each is a Parley tool whose
// name, description and parameter schema are Dominds' (data/dominds_tool_specs.json) and whose body
// is Parley's operation for the same job — the workspace file operations under the member's access
// rules, ripgrep search, the shell tools, the memory stores — with the arguments renamed and the
// answer in Dominds' shape (a fenced YAML block with status, mode and summary; Markdown for reads).
// The Dominds tools Parley leaves out are registered as unavailable with why (docs/tools.md
// "Dominds tool names" has the table). Parley's own team format keeps Parley's names.
#pragma once

#include <string>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/tools/tool.hpp"

namespace parley::tools {

// Which names the built-in tools and toolsets go by: Parley's, or Dominds' for a `.minds/` team.
enum class tool_naming { parley, dominds };

// Call after Parley's workspace, shell and memory tools are registered: Dominds' tools that share a
// name with Parley's (list_dir, read_file, shell_cmd, readonly_shell) replace them, wrapping them.
void register_dominds_tools(tool_registry& registry);

// Kills every command Dominds' shell_cmd of `registry` still runs — its daemons and a command a
// call still waits for — as the process that serves the team ends (engine::stop_mcp): their
// output readers would keep the event loop busy, so `parley drive` could not end while a daemon
// ran. Does nothing for a registry without Dominds' shell_cmd; a later shell_cmd works again.
void end_dominds_daemons(const tool_registry& registry);
// A team reload builds a new registry: this gives its Dominds os tools (shell_cmd, the daemon and
// env tools) the state of `from`'s, so each dialog keeps its daemons and its env overlay. Does
// nothing unless both registries have Dominds' shell_cmd.
void keep_dominds_os_state(const tool_registry& from, tool_registry& to);

// Dominds' spec of a tool it defines (its description and parameter schema, from the package's
// compiled definitions); an error when Parley's table lacks it. The engine offers Dominds' control
// tools with these (engine/dominds_control.hpp).
result<tool_spec> dominds_tool_spec(std::string_view name);

// The Dominds tool names of each toolset (ws_read, ws_mod, os, personal_memory, team_memory,
// codex_inspect_and_patch_tools, team_mgmt), as Parley offers them: those it leaves out are not there.
std::vector<std::string> dominds_toolset_tools(std::string_view toolset);

}  // namespace parley::tools
