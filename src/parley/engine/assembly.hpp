// Turns a team configuration into the parts an engine runs with: one provider object per
// configured provider, and the registry of builtin tools.
#pragma once

#include <memory>
#include <string>

#include "parley/config/team.hpp"
#include "parley/core/result.hpp"
#include "parley/engine/engine.hpp"
#include "parley/llm/openai/openai_embeddings.hpp"
#include "parley/tools/tool.hpp"

namespace parley::engine {

result<provider_map> build_providers(const config::team_config& team);
// Parley's built-in tools under Parley's names (a team in Parley's own format).
tools::tool_registry build_builtin_tools();
// The built-in tools for `team`: under Dominds' names and argument names when it was loaded from
// `.minds/` (tools/dominds_tools.hpp), else Parley's.
tools::tool_registry build_builtin_tools(const config::team_config& team);
// The loaded team made ready to run, as every process that runs one builds it: its built-in tools,
// its problems settled (a Dominds workspace's missing tools and toolsets left out), its toolsets
// checked, its providers built. Errors name the member, toolset or provider.
result<team_parts> assemble_team(config::team_config team);
// Whether the team was read from a Dominds workspace's `.minds/team.yaml`.
bool is_dominds_team(const config::team_config& team);
// The embeddings client of team.yaml `records.embeddings` (its provider's base URL and key, as
// for chat), or null when none is configured.
std::unique_ptr<llm::embeddings_client> build_embeddings_client(const config::team_config& team);
// One line saying which model a member talks to, e.g. "scripted model (offline): script.yaml".
std::string describe_member_model(const config::team_config& team, const std::string& member_id);

}  // namespace parley::engine
