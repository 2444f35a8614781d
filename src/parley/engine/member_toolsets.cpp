#include "parley/engine/member_toolsets.hpp"

#include <algorithm>

#include "parley/core/text.hpp"
#include "parley/tools/shell_sandbox.hpp"
#include "parley/tools/shell_tools.hpp"

namespace parley::engine {
namespace {

// Where the shell tools were asked for: `tools:` when it names one, else `toolsets:`.
std::string asked_at(const config::member_config& member, const config::team_config& team) {
  const bool by_tools = std::any_of(member.tools.begin(), member.tools.end(),
                                    [](const std::string& name) { return tools::is_shell_tool(name); });
  const std::string& at = by_tools ? member.tools_at : member.toolsets_at;
  if (!at.empty()) return at;
  return team.source.string() + ": members." + member.id;
}

}  // namespace

result<std::vector<std::string>> resolve_member_toolsets(const config::member_config& member,
                                                         const tools::tool_registry& registry) {
  auto resolved = registry.resolve_toolsets(member.toolsets);
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
    PARLEY_TRY(resolve_member_toolsets(member, registry));
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

std::vector<std::string> shell_tool_notices(const config::team_config& team, const tools::tool_registry& registry) {
  std::vector<std::string> notices;
  for (const auto& member : team.members) {
    auto wanted = registry.resolve_toolsets(member.toolsets);
    if (!wanted) continue;  // check_team_toolsets reports it
    wanted->insert(wanted->end(), member.tools.begin(), member.tools.end());
    const auto withheld = withheld_shell_tools(member, *wanted);
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
