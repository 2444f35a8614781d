// Driving a replay from a one-shot verb (replay_setup.hpp).
#include "replay_setup.hpp"

#include <system_error>

#include "parley/engine/assembly.hpp"
#include "parley/engine/member_toolsets.hpp"
#include "parley/engine/replay_team.hpp"
#include "parley/engine/team_problems.hpp"

namespace parley::cli {

namespace fs = std::filesystem;

std::filesystem::path replays_dir_of(const std::filesystem::path& data_dir) { return data_dir / "replays"; }

engine_hooks replay_setup::hooks() {
  return engine_hooks{[this](engine_inputs& inputs) { return prepare(inputs); },
                      [this](engine::engine& eng) {
                        if (oracle_) eng.drives().set_replay(&*oracle_);
                      }};
}

result<void> replay_setup::prepare(engine_inputs& inputs) {
  auto row = inputs.log->get_dialog(dialog_id_);
  if (!row) return std::move(row).err();
  if (!*row) return ok();
  PARLEY_TRY_ASSIGN(oracle_, engine::replay_oracle::load(*inputs.log, (*row)->root_id));
  if (!oracle_) return ok();
  const auto& spec = oracle_->spec();
  // The scratch copy is made when the replay starts; one removed since is made again.
  std::error_code ec;
  if (!fs::exists(spec.workspace, ec)) {
    PARLEY_TRY(engine::copy_replay_workspace(inputs.team.workspace, spec.workspace, data_dir_));
  }
  config::team_config team;
  PARLEY_TRY_ASSIGN(team, engine::replay_team(inputs.team, spec));
  if (spec.team_file) {
    const auto builtin = engine::build_builtin_tools(team);
    engine::settle_team_problems(team, builtin);
    PARLEY_TRY(engine::check_team_toolsets(team, builtin));
  }
  PARLEY_TRY_ASSIGN(inputs.providers, engine::build_providers(team));
  inputs.team = std::move(team);
  // The workspace is inside the data directory: every file tool would refuse it. What is
  // protected instead is the rest of the data directory (the store, the uploads, other replays).
  std::vector<tools::protected_dir> protect;
  for (const auto& entry : fs::directory_iterator(data_dir_, ec)) {
    if (entry.path().filename() != "replays") protect.push_back({entry.path(), "Parley's data directory"});
  }
  for (const auto& entry : fs::directory_iterator(replays_dir_of(data_dir_), ec)) {
    if (entry.path().filename() != oracle_->root_id()) protect.push_back({entry.path(), "another replay's workspace"});
  }
  inputs.protected_dirs = std::move(protect);
  return ok();
}

}  // namespace parley::cli
