#include "parley/engine/member_toolsets.hpp"

namespace parley::engine {

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

}  // namespace parley::engine
