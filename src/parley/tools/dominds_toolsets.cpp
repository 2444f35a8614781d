#include "parley/tools/dominds_toolsets.hpp"

#include "parley/tools/shell_tools.hpp"

namespace parley::tools {

namespace {

void register_dominds_named_toolsets(tool_registry& registry) {
  for (const char* name :
       {"ws_read", "ws_mod", "os", "personal_memory", "team_memory", "codex_inspect_and_patch_tools", "team_mgmt"}) {
    registry.add_toolset(name, dominds_toolset_tools(name), true);
  }
}

}  // namespace

void register_dominds_toolsets(tool_registry& registry, tool_naming naming) {
  // Each maps to Parley's tools for the same job; the differences (tools of Dominds' set that have
  // no Parley counterpart, such as env_set) are in docs/team-yaml.md; Dominds' scratch pads are the
  // engine's dialog tools (engine/dominds_pads.hpp), listed in the Dominds-named ws_mod below.
  const bool in_wildcard = true;
  registry.add_toolset("ws_read", {"list_dir", "read_file", "search_files"}, in_wildcard);
  registry.add_toolset("ws_mod",
                       {"list_dir", "read_file", "search_files", "write_file", "edit_file", "replace_lines",
                        "insert_at_anchor", "apply_patch", "move_path", "remove_path", "make_dir"},
                       in_wildcard);
  registry.add_toolset("os", shell_tool_names(), in_wildcard);
  registry.add_toolset("personal_memory", {"add_memory", "replace_memory", "drop_memory", "clear_memory"}, in_wildcard);
  registry.add_toolset(
      "team_memory", {"add_team_memory", "replace_team_memory", "drop_team_memory", "clear_team_memory"}, in_wildcard);
  registry.add_toolset("codex_inspect_and_patch_tools", {"readonly_shell", "apply_patch"}, in_wildcard);
  // read_skill is the engine's (engine/skills.hpp): it reads the skills the team was loaded with.
  registry.add_toolset("skills", {"read_skill"}, in_wildcard);

  if (naming == tool_naming::dominds) register_dominds_named_toolsets(registry);
  if (naming == tool_naming::parley) {
    registry.add_unavailable_toolset(
        "team_mgmt",
        "its tools read and edit .minds/ (team.yaml, llm.yaml, minds files, mcp.yaml) from inside a dialog, and Parley "
        "lets no member change its team; edit .minds/ by hand (parley providers shows what llm.yaml gives)");
  }
  registry.add_unavailable_toolset(
      "fs_read",
      "it reads the machine's files outside the workspace, and Parley's file tools never leave the "
      "workspace; give ws_read and put what the member needs inside the workspace");
  registry.add_unavailable_toolset(
      "mcp_admin",
      "Parley has none of its tools (mcp_restart, mcp_release, mcp_disable, env_set): an MCP server is restarted "
      "on its own after a crash, one process per server serves every dialog so there is no lease to release, and a "
      "server is enabled or disabled by editing .minds/mcp.yaml, which a running Parley reloads (docs/mcp.md)");
  // Given instead by the engine when the team has MCP servers (tools/mcp/resource_tools.hpp).
  registry.add_unavailable_toolset("resources",
                                   "the team configures no MCP server (.minds/mcp.yaml, or the team file's mcp:), so "
                                   "there are no MCP resources to list or fetch");
  registry.add_unavailable_toolset(
      "control",
      "Dominds does not let team config assign it either: its reminder, Taskdoc, goal and clear_mind tools are "
      "given by the runtime; Parley offers them to every member by the dialog's place (narrowed by dialog_tools)");
}

}  // namespace parley::tools
