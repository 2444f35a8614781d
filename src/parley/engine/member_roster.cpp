#include "parley/engine/member_roster.hpp"

#include <algorithm>

#include "parley/core/text.hpp"
#include "parley/engine/dialog_tools.hpp"
#include "parley/engine/member_toolsets.hpp"
#include "parley/engine/skills.hpp"

namespace parley::engine {

namespace {

// team.yaml `dialog_tools` names dialog tools only, and selfReflect only for a member that may reflect.
result<void> check_dialog_tools(const config::member_config& member) {
  if (!member.dialog_tools) return ok();
  for (const auto& name : *member.dialog_tools) {
    const std::string where = "member '" + member.id + "': dialog_tools: ";
    if (!is_dialog_tool(name)) {
      return make_error(errc::config_error,
                        where + "unknown dialog tool '" + name + "'" + did_you_mean(name, dialog_tool_names()));
    }
    if (name == dialog_tool::self_reflect && !member.self_reflection) {
      return make_error(errc::config_error, where + "selfReflect is offered only with self_reflection: true");
    }
  }
  return ok();
}

}  // namespace

result<void> member_roster::prepare() {
  if (team_.members.empty()) return make_error(errc::config_error, "the team has no members");
  dialog_specs_ = team_dialog_tool_specs(team_.member_ids());
  tools_.add(make_read_skill_tool(team_.skills, team_.language));
  for (const auto& member : team_.members) {
    member_setup setup;
    setup.config = &member;
    setup.model = team_.find_model(member);
    setup.memories = memory_folders::of(team_.workspace, member.id);
    const auto provider = providers_.find(member.provider);
    if (provider == providers_.end()) {
      return make_error(errc::config_error,
                        "member '" + member.id + "' uses provider '" + member.provider + "', which is not configured");
    }
    setup.provider = provider->second.get();
    auto from_toolsets = resolve_member_toolsets(member, tools_);
    if (!from_toolsets) return std::move(from_toolsets).err();
    std::vector<std::string> wanted = member.tools;
    wanted.insert(wanted.end(), from_toolsets->begin(), from_toolsets->end());
    // A member Dominds' shell_specialists does not list, or whose access rules a shell could not be
    // held to, is neither told of shell tools nor able to call them (run_member_tool refuses, saying
    // why).
    setup.withheld_tools = withheld_shell_tools(member, wanted);
    std::erase_if(wanted, [&](const std::string& name) {
      return std::find(setup.withheld_tools.begin(), setup.withheld_tools.end(), name) != setup.withheld_tools.end();
    });
    // As Dominds, a member that sees a skill can read it.
    if (!skills_visible_to(team_.skills, member.id).empty()) wanted.emplace_back(kReadSkillTool);
    for (const auto& name : wanted) {
      auto* found = tools_.find(name);
      if (found == nullptr) {
        return make_error(errc::config_error, "member '" + member.id + "': unknown tool '" + name + "'" +
                                                  did_you_mean(name, tools_.names()));
      }
      if (std::find(setup.tools.begin(), setup.tools.end(), found) != setup.tools.end()) continue;
      setup.tools.push_back(found);
      setup.tool_specs.push_back(found->spec());
    }
    PARLEY_TRY(check_dialog_tools(member));
    const bool text_syntax = member.tellask_syntax == config::tellask_syntax::text;
    auto with_dialog_tools = [&](dialog_place place) {
      auto specs = setup.tool_specs;
      for (const auto& spec : dialog_tool_specs(place, text_syntax, member.self_reflection)) {
        if (setup.offers_dialog_tool(spec.name)) specs.push_back(*dialog_spec(spec.name));
      }
      return std::make_shared<const std::vector<llm::tool_spec>>(std::move(specs));
    };
    setup.root_tool_specs = with_dialog_tools(dialog_place::root);
    setup.sub_tool_specs = with_dialog_tools(dialog_place::sub);
    members_.emplace(member.id, std::move(setup));
  }
  return ok();
}

const member_setup* member_roster::find(std::string_view member_id) const {
  const auto it = members_.find(member_id);
  return it == members_.end() ? nullptr : &it->second;
}

const llm::tool_spec* member_roster::dialog_spec(std::string_view name) const {
  const auto it = std::find_if(dialog_specs_.begin(), dialog_specs_.end(),
                               [&](const llm::tool_spec& spec) { return spec.name == name; });
  return it == dialog_specs_.end() ? nullptr : &*it;
}

bool member_setup::offers_dialog_tool(std::string_view name) const {
  const auto& listed = config->dialog_tools;
  return !listed || std::find(listed->begin(), listed->end(), name) != listed->end();
}

llm::tool_list member_roster::tools_for(const dialog_runtime& dialog, const member_setup& member) const {
  if (dialog.is_fbr()) return nullptr;  // Fresh Boots Reasoning thinks without tools
  return dialog.is_sub() ? member.sub_tool_specs : member.root_tool_specs;
}

llm::provider* member_roster::provider_of(std::string_view member_id) const {
  const auto* member = find(member_id);
  return member == nullptr ? nullptr : member->provider;
}

std::string_view member_roster::provider_kind_of(std::string_view member_id) const {
  const auto* member = find(member_id);
  return member == nullptr ? std::string_view{} : member->provider->kind();
}

llm::model_request member_roster::request_for(const dialog_runtime& dialog, const member_setup& member,
                                              std::int64_t round) const {
  const prompt_setting setting{team_.language,
                               &team_,
                               &team_.workspace,
                               &member.memories,
                               dialog.row().task_doc_path,
                               team_.limits.critical_context_rounds,
                               &read_attachment_};
  return build_model_request(dialog, *member.config, tools_for(dialog, member), round, setting);
}

result<llm::model_request> member_roster::model_request_for(const dialog_runtime& dialog, std::int64_t round) const {
  const auto* member = find(dialog.speaking_member());
  if (member == nullptr) {
    return make_error(errc::not_found, "no member '" + dialog.speaking_member() + "' in the team");
  }
  return request_for(dialog, *member, round);
}

}  // namespace parley::engine
