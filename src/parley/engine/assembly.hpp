// Turns a team configuration into the parts an engine runs with: one provider object per
// configured provider, and the registry of builtin tools.
#pragma once

#include <string>

#include "parley/config/team.hpp"
#include "parley/core/result.hpp"
#include "parley/engine/engine.hpp"
#include "parley/tools/tool.hpp"

namespace parley::engine {

result<provider_map> build_providers(const config::team_config& team);
tools::tool_registry build_builtin_tools();
// One line saying which model a member talks to, e.g. "scripted model (offline): script.yaml".
std::string describe_member_model(const config::team_config& team, const std::string& member_id);

}  // namespace parley::engine
