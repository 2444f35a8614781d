// A running engine takes a reloaded team (engine.hpp replace_team, member_roster.hpp replace).
//
// Why the old team is retired rather than destroyed: a drive holds its member's setup (persona,
// model, provider, tools) by pointer from its start to its end, across every await. Moving the
// old team and the roster's parts into retired holders keeps every element where it was (a moved
// vector or map keeps its elements' addresses), so a drive under way finishes with the member it
// started with, and the next drive of every dialog looks its member up in the new team.
#include <utility>

#include "parley/engine/engine.hpp"
#include "parley/engine/member_toolsets.hpp"
#include "parley/tools/dominds_tools.hpp"

namespace parley::engine {

result<void> member_roster::replace(provider_map providers, tools::tool_registry tools) {
  // The dialogs keep their Dominds daemons and env overlays across the reload.
  tools::keep_dominds_os_state(tools_, tools);
  auto old = std::make_unique<retired_parts>();
  old->providers = std::exchange(providers_, std::move(providers));
  old->tools = std::exchange(tools_, std::move(tools));
  old->dialog_specs = std::exchange(dialog_specs_, {});
  old->members = std::exchange(members_, {});
  old->member_lists = std::exchange(mcp_lists_, {});
  if (auto prepared = prepare(); !prepared) {
    providers_ = std::move(old->providers);
    tools_ = std::move(old->tools);
    dialog_specs_ = std::move(old->dialog_specs);
    members_ = std::move(old->members);
    mcp_lists_ = std::move(old->member_lists);
    return prepared;
  }
  retired_.push_back(std::move(old));
  return ok();
}

namespace {

// The problem GET /api/problems lists while a reload failed: where, and that the last good team runs.
config::problem reload_problem(const std::string& message) {
  auto found = config::problem_from_message(message);
  found.why += "; the team was not reloaded, the last good team runs";
  return found;
}

}  // namespace

result<void> engine::replace_team(const team_builder& build) {
  // Checked first on a roster of its own, with the checks create makes: a team the engine could
  // not run changes nothing.
  auto trial = build();
  if (!trial) {
    reload_failure_ = reload_problem(trial.err().message);
    return std::move(trial).err();
  }
  {
    member_roster check(trial->team, std::move(trial->providers), std::move(trial->tools));
    check.set_protected_dirs(&drives_.protected_dirs());
    if (auto prepared = check.prepare(); !prepared) {
      reload_failure_ = reload_problem(prepared.err().message);
      return prepared;
    }
  }
  auto next = build();
  if (!next) {
    reload_failure_ = reload_problem(next.err().message);
    return std::move(next).err();
  }
  auto old_team = std::make_unique<config::team_config>(std::move(team_));
  team_ = std::move(next->team);
  if (auto replaced = members_.replace(std::move(next->providers), std::move(next->tools)); !replaced) {
    team_ = std::move(*old_team);  // its elements go back where the roster's pointers expect them
    reload_failure_ = reload_problem(replaced.err().message);
    return replaced;
  }
  retired_teams_.push_back(std::move(old_team));
  reload_failure_.reset();
  // The MCP servers of the new team: unchanged ones keep running (mcp_servers.hpp replace).
  std::vector<std::string> notices;
  auto in_use = mcp_servers_in_use(team_.mcp, members_.registry(), &notices);
  for (const auto& notice : notices) tools::mcp::log_to_stderr(notice);
  mcp_->replace(in_use);
  return ok();
}

void engine::watch_team_files(std::vector<std::filesystem::path> watched, std::vector<std::filesystem::path> skip,
                              team_builder build, std::function<void(const result<void>& reloaded)> said,
                              std::chrono::milliseconds every) {
  if (team_watch_) return;
  auto reload = [this, build = std::move(build), said = std::move(said)] {
    const auto reloaded = replace_team(build);
    if (said) said(reloaded);
  };
  team_watch_ =
      std::make_unique<team_files_watcher>(executor_, std::move(watched), std::move(skip), std::move(reload), every);
}

std::vector<config::problem> engine::problems() const {
  std::vector<config::problem> all = team_.problems;
  if (reload_failure_) all.push_back(*reload_failure_);
  return all;
}

}  // namespace parley::engine
