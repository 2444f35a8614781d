// The six ToT roles as members of a team: `tot-orchestrator`, `tot-decomposer`, `tot-explorer`,
// `tot-generator`, `tot-evaluator`, `tot-synthesizer`. A team that declares one of them keeps it
// (its persona, model and provider override the defaults); the others are added with the role's
// default persona for the task type, on `provider`/`model`, with no tools and no dialog tools
// (they answer in the protocol and delegate nothing).
#pragma once

#include <optional>
#include <string>

#include "parley/config/team.hpp"
#include "parley/tot/protocol.hpp"

namespace parley::tot {

// `type` nullopt: personas that name no task type (members a tool uses for any task).
void add_tot_members(config::team_config& team, std::optional<task_type> type, const std::string& provider,
                     const std::string& model);

}  // namespace parley::tot
