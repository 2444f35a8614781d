// The default personas of the six ToT roles, per task type: what each member is told it is and how
// it must answer (one protocol message as JSON). A team overrides them with members whose ids are
// `tot-<role>` in team.yaml (their persona replaces the default; see engine_channel.hpp).
#pragma once

#include <string>

#include "parley/tot/protocol.hpp"

namespace parley::tot {

std::string default_persona(agent_role role, task_type type);
// The same without a task type: the request's task_type says it.
std::string general_persona(agent_role role);

}  // namespace parley::tot
