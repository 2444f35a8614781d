#include "parley/engine/team_problems.hpp"

#include <algorithm>
#include <string_view>

#include "parley/config/cleared_problems.hpp"
#include "parley/engine/dialog_tools.hpp"
#include "parley/engine/member_toolsets.hpp"
#include "parley/engine/skills.hpp"
#include "parley/tools/mcp/resource_tools.hpp"

namespace parley::engine {
namespace {

// Tools the member roster adds beside the registry's (engine/member_roster.cpp): known names.
bool is_roster_tool(std::string_view name) {
  return name == kReadSkillTool || name == tools::mcp::kListResourcesTool || name == tools::mcp::kFetchResourceTool;
}

// Each toolset of the member is resolved alone; one that does not resolve is left out, said at the
// key that listed it.
void settle_member_toolsets(config::member_config& member, const config::team_config& team,
                            const tools::tool_registry& registry, std::vector<config::problem>& problems) {
  std::vector<std::string> kept;
  for (const auto& name : member.toolsets) {
    config::member_config alone = member;
    alone.toolsets = {name};
    auto resolved = resolve_member_toolsets(alone, registry, team.mcp);
    if (resolved) {
      kept.push_back(name);
      continue;
    }
    auto found = config::problem_from_message(resolved.err().message, member.id);
    if (found.why.starts_with("unknown toolset '" + name + "'")) {
      found.why += " (nor an MCP server configured in .minds/mcp.yaml)";
    }
    found.why += "; left out, member '" + member.id + "' runs without it";
    problems.push_back(std::move(found));
  }
  member.toolsets = std::move(kept);
}

void settle_member_tools(config::member_config& member, const tools::tool_registry& registry,
                         std::vector<config::problem>& problems) {
  std::vector<std::string> kept;
  for (const auto& name : member.tools) {
    // A dialog tool (add_reminder, do_mind ...) is offered by the dialog's place (dialog_tools.hpp).
    if (registry.find(name) != nullptr || is_roster_tool(name) || is_dialog_tool(name)) {
      kept.push_back(name);
      continue;
    }
    const std::string at = member.tools_at.empty() ? "members." + member.id + ".tools" : member.tools_at;
    auto found = config::problem_from_message(
        at + ": tool '" + name + "' is not a Parley tool; left out, member '" + member.id + "' runs without it",
        member.id);
    problems.push_back(std::move(found));
  }
  member.tools = std::move(kept);
}

}  // namespace

void settle_team_problems(config::team_config& team, const tools::tool_registry& registry) {
  if (team.lenient) {
    for (auto& member : team.members) {
      settle_member_toolsets(member, team, registry, team.problems);
      settle_member_tools(member, registry, team.problems);
    }
  }
  for (const auto& notice : shell_tool_notices(team, registry)) {
    const auto at = std::find_if(team.members.begin(), team.members.end(), [&](const config::member_config& m) {
      return notice.find("withheld from '" + m.id + "'") != std::string::npos;
    });
    team.problems.push_back(config::problem_from_message(notice, at == team.members.end() ? "" : at->id));
  }
  // Those a team manager acknowledged with team_mgmt_clear_problems are not listed again while
  // they stay the same (config/cleared_problems.hpp).
  if (team.lenient) config::hide_cleared_problems(team.problems, team.workspace);
}

}  // namespace parley::engine
