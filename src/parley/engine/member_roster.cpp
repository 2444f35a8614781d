#include "parley/engine/member_roster.hpp"

#include <algorithm>

#include "parley/core/text.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/dialog_tools.hpp"
#include "parley/engine/dominds_control.hpp"
#include "parley/engine/dominds_pads.hpp"
#include "parley/engine/member_toolsets.hpp"
#include "parley/engine/skills.hpp"
#include "parley/tools/mcp/resource_tools.hpp"
#include "parley/tools/mcp_sandbox.hpp"

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

// Whether two lists tell a model the same tools.
bool same_specs(const std::vector<llm::tool_spec>& a, const std::vector<llm::tool_spec>& b);

// The servers `member` is given now. A member with access rules that no sandbox can hold a process
// to gets no stdio server: it would read and write what the rules forbid (docs/mcp.md); a streamable
// HTTP server runs elsewhere and is given. Checked at every use, so a stdio server a reload adds is
// withheld too. Every other member's stdio servers run under its sandbox profile (member_setup).
std::vector<std::string> mcp_servers_granted(const tools::mcp::mcp_servers& pool, const member_setup& member) {
  auto ids = member.mcp.servers(pool.ids());
  if (!member.mcp_refused.empty()) {
    std::erase_if(ids, [&pool](const std::string& id) {
      const auto runtime = pool.runtime(id);
      return runtime == nullptr || runtime->config().transport == config::mcp_transport::stdio;
    });
  }
  return ids;
}

}  // namespace

result<void> member_roster::prepare() {
  if (team_.members.empty()) return make_error(errc::config_error, "the team has no members");
  dialog_specs_ = team_dialog_tool_specs(team_.member_ids());
  dominds_control_ = is_dominds_team(team_);
  // A `.minds/` team's reminder tools take Dominds' arguments (dominds_control.hpp).
  if (dominds_control_) {
    for (auto& dominds : dominds_reminder_specs()) {
      auto& spec = *std::find_if(dialog_specs_.begin(), dialog_specs_.end(),
                                 [&](const llm::tool_spec& mine) { return mine.name == dominds.name; });
      spec = std::move(dominds);
    }
  }
  tools_.add(make_read_skill_tool(team_.skills, team_.language));
  if (mcp_ != nullptr && (!team_.mcp.servers.empty() || !team_.mcp.disabled.empty())) {
    auto visible = [this](std::string_view member_id) { return mcp_servers_of(member_id); };
    auto sandbox = [this](std::string_view member_id) {
      const auto* member = find(member_id);
      return member == nullptr ? tools::mcp::sandbox_profile{} : member->mcp_sandbox;
    };
    tools_.add(tools::mcp::make_list_resources_tool(*mcp_, visible, sandbox));
    tools_.add(tools::mcp::make_fetch_resource_tool(*mcp_, visible, sandbox));
  }
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
    auto from_toolsets = resolve_member_toolsets(member, tools_, team_.mcp);
    if (!from_toolsets) return std::move(from_toolsets).err();
    setup.mcp = std::move(from_toolsets->mcp);
    auto sandbox = tools::mcp_sandbox_for(team_.workspace, member.access, member.shell, protected_dirs_);
    setup.mcp_sandbox = std::move(sandbox.profile);
    setup.mcp_refused = std::move(sandbox.refused);
    std::vector<std::string> wanted = member.tools;
    wanted.insert(wanted.end(), from_toolsets->tools.begin(), from_toolsets->tools.end());
    // A member Dominds' shell_specialists does not list, or whose access rules a shell could not be
    // held to, is neither told of shell tools nor able to call them (run_member_tool refuses, saying
    // why).
    setup.withheld_tools = withheld_shell_tools(member, wanted);
    std::erase_if(wanted, [&](const std::string& name) {
      return std::find(setup.withheld_tools.begin(), setup.withheld_tools.end(), name) != setup.withheld_tools.end();
    });
    // As Dominds, a member that sees a skill can read it.
    if (!skills_visible_to(team_.skills, member.id).empty()) wanted.emplace_back(kReadSkillTool);
    setup.pads = dominds_control_ && std::any_of(wanted.begin(), wanted.end(), is_pad_tool);
    for (const auto& name : wanted) {
      auto* found = tools_.find(name);
      // A dialog tool (add_reminder, clear_mind ... Dominds lists them in `tools:`) is offered by
      // the dialog's place, not by the member's list (dialog_tools.hpp).
      if (found == nullptr && is_dialog_tool(name)) continue;
      if (found == nullptr) {
        return make_error(errc::config_error, "member '" + member.id + "': unknown tool '" + name + "'" +
                                                  did_you_mean(name, tools_.names()));
      }
      if (std::find(setup.tools.begin(), setup.tools.end(), found) != setup.tools.end()) continue;
      setup.tools.push_back(found);
      setup.tool_specs.push_back(found->spec());
    }
    PARLEY_TRY(check_dialog_tools(member));
    setup.root_tool_specs = assemble(setup, dialog_place::root, {});
    setup.sub_tool_specs = assemble(setup, dialog_place::sub, {});
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

llm::tool_list member_roster::assemble(const member_setup& member, dialog_place place,
                                       const std::vector<llm::tool_spec>& extra) const {
  const auto& config = *member.config;
  auto specs = member.tool_specs;
  specs.insert(specs.end(), extra.begin(), extra.end());
  const bool text_syntax = config.tellask_syntax == config::tellask_syntax::text;
  for (const auto& spec : dialog_tool_specs(place, text_syntax, config.self_reflection)) {
    if (member.offers_dialog_tool(spec.name)) specs.push_back(*dialog_spec(spec.name));
  }
  if (dominds_control_) {
    for (const auto& spec : dominds_control_specs_for(place)) {
      if (member.offers_dialog_tool(spec.name)) specs.push_back(spec);
    }
  }
  if (member.pads && place != dialog_place::fbr) {
    for (const auto& spec : dominds_pad_specs()) {
      if (member.offers_dialog_tool(spec.name)) specs.push_back(spec);
    }
  }
  return std::make_shared<const std::vector<llm::tool_spec>>(std::move(specs));
}

namespace {

bool same_specs(const std::vector<llm::tool_spec>& a, const std::vector<llm::tool_spec>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const llm::tool_spec& x, const llm::tool_spec& y) {
    return x.name == y.name && x.description == y.description && x.parameters == y.parameters;
  });
}

}  // namespace

llm::tool_list member_roster::tools_for(const dialog_runtime& dialog, const member_setup& member) const {
  if (dialog.is_fbr()) return nullptr;  // Fresh Boots Reasoning thinks without tools
  if (mcp_ == nullptr || !member.mcp.any()) return dialog.is_sub() ? member.sub_tool_specs : member.root_tool_specs;
  auto& lists = mcp_lists_[member.config->id];
  if (lists.version != mcp_->version()) {
    auto extra = mcp_->tool_specs(mcp_servers_granted(*mcp_, member), member.mcp_sandbox.key);
    if (!lists.root || !same_specs(extra, lists.extra)) {
      lists.root = assemble(member, dialog_place::root, extra);
      lists.sub = assemble(member, dialog_place::sub, extra);
      lists.extra = std::move(extra);
    }
    lists.version = mcp_->version();
  }
  return dialog.is_sub() ? lists.sub : lists.root;
}

boost::asio::awaitable<void> member_roster::prepare_mcp(const member_setup& member) const {
  if (mcp_ == nullptr || !member.mcp.any()) co_return;
  co_await mcp_->prepare(mcp_servers_granted(*mcp_, member), member.mcp_sandbox);
}

std::shared_ptr<tools::tool> member_roster::find_mcp_tool(const member_setup& member, std::string_view name) const {
  if (mcp_ == nullptr || !member.mcp.any()) return nullptr;
  return mcp_->find_tool(mcp_servers_granted(*mcp_, member), name, member.mcp_sandbox.key);
}

std::string member_roster::mcp_problems(const member_setup& member) const {
  if (mcp_ == nullptr || !member.mcp.any()) return {};
  return mcp_->problems(mcp_servers_granted(*mcp_, member), member.mcp_sandbox.key);
}

std::vector<std::string> member_roster::mcp_servers_of(std::string_view member_id) const {
  const auto* member = find(member_id);
  if (mcp_ == nullptr || member == nullptr) return {};
  return mcp_servers_granted(*mcp_, *member);
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
