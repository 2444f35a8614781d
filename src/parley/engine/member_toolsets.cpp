#include "parley/engine/member_toolsets.hpp"

#include <algorithm>
#include <optional>

#include "parley/core/text.hpp"
#include "parley/tools/mcp/resource_tools.hpp"
#include "parley/tools/shell_sandbox.hpp"
#include "parley/tools/shell_tools.hpp"

namespace parley::engine {
namespace {

constexpr std::string_view kResourcesToolset = "resources";
using tools::mcp::kFetchResourceTool;
using tools::mcp::kListResourcesTool;

// Where the shell tools were asked for: `tools:` when it names one, else `toolsets:`.
std::string asked_at(const config::member_config& member, const config::team_config& team) {
  const bool by_tools = std::any_of(member.tools.begin(), member.tools.end(),
                                    [](const std::string& name) { return tools::is_shell_tool(name); });
  const std::string& at = by_tools ? member.tools_at : member.toolsets_at;
  if (!at.empty()) return at;
  return team.source.string() + ": members." + member.id;
}

}  // namespace

std::vector<std::string> mcp_grant::servers(const std::vector<std::string>& configured) const {
  std::vector<std::string> out;
  for (const auto& id : configured) {
    const bool listed = std::find(named.begin(), named.end(), id) != named.end();
    const bool left_out = std::find(excluded.begin(), excluded.end(), id) != excluded.end();
    if (listed || (every_server && !left_out)) out.push_back(id);
  }
  return out;
}

config::mcp_config mcp_servers_in_use(const config::mcp_config& mcp, const tools::tool_registry& registry,
                                      std::vector<std::string>* notices) {
  config::mcp_config out = mcp;
  std::erase_if(out.servers, [&](const config::mcp_server_config& server) {
    const bool taken = server.id == kResourcesToolset || registry.toolset(server.id) != nullptr ||
                       registry.unavailable_toolset(server.id) != nullptr;
    if (taken && notices != nullptr) {
      notices->push_back(
          (server.source.empty() ? std::string() : server.source.string() + ":" + std::to_string(server.line) + ": ") +
          "MCP server '" + server.id + "' is left out: its id is the name of a built-in toolset");
    }
    return taken;
  });
  return out;
}

namespace {

// The member's toolsets, those of MCP servers taken out.
result<member_toolsets> split_toolsets(const config::member_config& member, const tools::tool_registry& registry,
                                       const config::mcp_config& mcp) {
  const auto in_use = mcp_servers_in_use(mcp, registry);
  const bool has_mcp = !in_use.servers.empty() || !mcp.disabled.empty();
  auto is_builtin = [&](const std::string& name) {
    return registry.toolset(name) != nullptr || registry.unavailable_toolset(name) != nullptr;
  };
  auto is_server = [&](const std::string& name) { return !is_builtin(name) && in_use.find(name) != nullptr; };
  auto is_disabled = [&](const std::string& name) {
    return !is_builtin(name) && std::find(mcp.disabled.begin(), mcp.disabled.end(), name) != mcp.disabled.end();
  };
  member_toolsets out;
  std::vector<std::string> builtin;
  bool resources = false;
  bool resources_excluded = false;
  for (const auto& name : member.toolsets) {
    if (name.size() > 1 && name.front() == '!') {
      const std::string left_out = name.substr(1);
      if (left_out == kResourcesToolset && has_mcp) {
        resources_excluded = true;
      } else if (is_server(left_out) || is_disabled(left_out)) {
        out.mcp.excluded.push_back(left_out);
      } else {
        builtin.push_back(name);
      }
      continue;
    }
    if (name == "*") {
      out.mcp.every_server = true;
      resources = resources || has_mcp;
      builtin.push_back(name);
    } else if (name == kResourcesToolset && has_mcp) {
      resources = true;
    } else if (is_server(name)) {
      if (std::find(out.mcp.named.begin(), out.mcp.named.end(), name) == out.mcp.named.end()) {
        out.mcp.named.push_back(name);
      }
    } else if (is_disabled(name)) {
      continue;  // enabled: false, as in Dominds: a toolset of no tools
    } else if (const auto refused = std::find_if(mcp.refused.begin(), mcp.refused.end(),
                                                 [&](const auto& server) { return server.id == name; });
               refused != mcp.refused.end() && !is_builtin(name)) {
      return make_error(errc::config_error,
                        "toolset '" + name + "' is an MCP server whose entry was refused: " + refused->problem);
    } else {
      builtin.push_back(name);
    }
  }
  auto tools = registry.resolve_toolsets(builtin);
  if (!tools) return std::move(tools).err();
  out.tools = std::move(*tools);
  if (resources && !resources_excluded) {
    for (const char* tool : {kListResourcesTool, kFetchResourceTool}) {
      if (std::find(out.tools.begin(), out.tools.end(), tool) == out.tools.end()) out.tools.emplace_back(tool);
    }
  }
  return out;
}

}  // namespace

result<member_toolsets> resolve_member_toolsets(const config::member_config& member,
                                                const tools::tool_registry& registry, const config::mcp_config& mcp) {
  auto resolved = split_toolsets(member, registry, mcp);
  if (resolved) return resolved;
  const std::string& problem = resolved.err().message;
  if (member.toolsets_at.empty()) return make_error(errc::config_error, "member '" + member.id + "': " + problem);
  // Inherited from member_defaults, the position alone would not say whose list it is.
  const bool own = member.toolsets_at.find("." + member.id + ".toolsets") != std::string::npos;
  return make_error(errc::config_error,
                    member.toolsets_at + ": " + problem + (own ? "" : " (member '" + member.id + "')"));
}

result<void> check_team_toolsets(const config::team_config& team, const tools::tool_registry& registry) {
  for (const auto& member : team.members) {
    PARLEY_TRY(resolve_member_toolsets(member, registry, team.mcp));
  }
  return ok();
}

std::vector<std::string> withheld_shell_tools(const config::member_config& member,
                                              const std::vector<std::string>& wanted) {
  std::vector<std::string> withheld;
  const bool unconfined = !tools::shell_confinement_problem(member.access, member.shell).empty();
  if (member.shell_specialist && !unconfined) return withheld;
  for (const auto& name : wanted) {
    const bool withhold = unconfined ? tools::runs_commands(name) : tools::is_shell_tool(name);
    if (withhold && std::find(withheld.begin(), withheld.end(), name) == withheld.end()) {
      withheld.push_back(name);
    }
  }
  return withheld;
}

std::string shell_tool_refusal(const config::team_config& team, const config::member_config& member,
                               std::string_view tool_name) {
  const std::string refused = "refused: '" + std::string(tool_name) + "' is a shell tool, and ";
  if (const std::string problem = tools::shell_confinement_problem(member.access, member.shell); !problem.empty()) {
    return refused + problem;
  }
  const std::string who = team.shell_specialists.empty()
                              ? "this team has no shell specialists, so no member runs commands"
                              : "ask a shell specialist (" + join(team.shell_specialists, ", ") +
                                    ") to run it with tellask, saying the command and why";
  return refused + "only the members listed in shell_specialists (.minds/team.yaml) may use it; " + who;
}

namespace {

// A member with access rules that no sandbox can hold a process to is given no stdio MCP server
// (member_roster withholds them): the server's process would not run under the rules. Said once,
// naming the servers its toolsets gave and why.
std::optional<std::string> stdio_mcp_withheld_notice(const config::team_config& team,
                                                     const config::member_config& member, const mcp_grant& grant,
                                                     const tools::tool_registry& registry) {
  const std::string problem = tools::shell_confinement_problem(member.access, member.shell);
  if (problem.empty() || !grant.any()) return std::nullopt;
  const auto in_use = mcp_servers_in_use(team.mcp, registry);
  std::vector<std::string> configured;
  for (const auto& server : in_use.servers) configured.push_back(server.id);
  std::vector<std::string> withheld;
  for (const auto& id : grant.servers(configured)) {
    const auto server = std::find_if(in_use.servers.begin(), in_use.servers.end(),
                                     [&](const config::mcp_server_config& s) { return s.id == id; });
    if (server->transport == config::mcp_transport::stdio) withheld.push_back(id);
  }
  if (withheld.empty()) return std::nullopt;
  // The problem names the rules and what is missing (the sandbox, or a rule no mount expresses).
  return asked_at(member, team) + ": stdio MCP servers withheld from '" + member.id + "' (" + join(withheld, ", ") +
         "): like a shell, a server's process is held to the member's access rules by its sandbox, and " + problem;
}

}  // namespace

std::vector<std::string> shell_tool_notices(const config::team_config& team, const tools::tool_registry& registry) {
  std::vector<std::string> notices;
  for (const auto& member : team.members) {
    auto resolved = resolve_member_toolsets(member, registry, team.mcp);
    if (!resolved) continue;  // check_team_toolsets reports it
    if (auto notice = stdio_mcp_withheld_notice(team, member, resolved->mcp, registry)) notices.push_back(*notice);
    auto wanted = std::move(resolved->tools);
    wanted.insert(wanted.end(), member.tools.begin(), member.tools.end());
    const auto withheld = withheld_shell_tools(member, wanted);
    if (withheld.empty()) continue;
    const std::string withheld_from =
        asked_at(member, team) + ": shell tools withheld from '" + member.id + "' (" + join(withheld, ", ") + "): ";
    if (const std::string problem = tools::shell_confinement_problem(member.access, member.shell); !problem.empty()) {
      notices.push_back(withheld_from + problem);
      continue;
    }
    const std::string listed = team.shell_specialists.empty()
                                   ? "shell_specialists lists no member"
                                   : "shell_specialists lists " + join(team.shell_specialists, ", ");
    notices.push_back(withheld_from + listed + ", and as in Dominds only those members keep shell tools; add '" +
                      member.id + "' to shell_specialists or remove the shell tools from it");
  }
  return notices;
}

}  // namespace parley::engine
