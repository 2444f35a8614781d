#include "parley/tot/tot_team.hpp"

#include "parley/tot/engine_channel.hpp"
#include "parley/tot/personas.hpp"

namespace parley::tot {

void add_tot_members(config::team_config& team, std::optional<task_type> type, const std::string& provider,
                     const std::string& model) {
  for (auto role : {agent_role::orchestrator, agent_role::decomposer, agent_role::explorer, agent_role::generator,
                    agent_role::evaluator, agent_role::synthesizer}) {
    const std::string id = member_id_of(role);
    if (team.find_member(id) != nullptr) continue;
    config::member_config member;
    member.id = id;
    member.name = "ToT " + id.substr(4);
    member.persona = type ? default_persona(role, *type) : general_persona(role);
    member.provider = provider;
    member.model = model;
    member.dialog_tools = std::vector<std::string>{};
    member.max_tool_rounds = 1;
    member.streaming = false;
    member.hidden = true;  // not in teammates' rosters: they are called by the explorer, never tellasked
    team.members.push_back(std::move(member));
  }
  if (team.default_member.empty()) team.default_member = member_id_of(agent_role::orchestrator);
}

}  // namespace parley::tot
