// shell_cmd and readonly_shell: one command line run to completion (shell_command.hpp says how),
// and start_process, list_processes, read_process and stop_process for long-running ones
// (background_processes.hpp). Toolsets: "shell" (all of them) and "readonly_shell".
#pragma once

#include "parley/tools/tool.hpp"

namespace parley::tools {

void register_shell_tools(tool_registry& registry);

// The first words readonly_shell runs (git only with its reading subcommands).
const std::vector<std::string>& readonly_commands();
// Why readonly_shell refuses `command_line`, or "".
std::string readonly_refusal(std::string_view command_line);

// The tools that run arbitrary commands or processes: the "shell" toolset (Parley's `os`). Dominds'
// `shell_specialists` rule withholds these from the members it does not list — and, in a `.minds/`
// team, Dominds' stop_daemon and get_daemon_output with them (is_shell_tool), as Dominds does; its
// env tools and readonly_shell are not among them, as in Dominds, which offers readonly_shell to
// non-specialists for inspection.
const std::vector<std::string>& shell_tool_names();
bool is_shell_tool(std::string_view name);
// A shell tool or readonly_shell: every tool that runs a command line, which access rules bind
// (shell_sandbox.hpp).
bool runs_commands(std::string_view name);

}  // namespace parley::tools
