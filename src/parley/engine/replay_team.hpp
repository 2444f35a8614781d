// The team a replay runs under (docs/fork.md "Replay"): the served team with the replay's change
// applied — every model member's model or provider, one member's persona, or another team file
// (refused if it changed since the replay started) — and the scratch copy of the workspace, so
// that the origin's team, persona and workspace stay as they were.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "parley/config/team.hpp"
#include "parley/core/result.hpp"
#include "parley/model/events/replay_events.hpp"
#include "parley/store/fork_plan.hpp"

namespace parley::engine {

// `base` changed as `spec` says; errors name what the team lacks (a provider, a member).
result<config::team_config> replay_team(config::team_config base, const events::replay_started& spec);

// Checks the change against `team` before anything is written: a provider or member it names
// must be in it.
result<void> check_replay_change(const config::team_config& team, const events::replay_started& spec);

// "model gpt-4o, tools recorded": what a replay changed, for `parley show` and the REST summary.
std::string replay_change_text(const events::replay_started& spec);

// A persona or team file read whole (at most 1 MiB); errors name `what` and the file.
result<std::string> read_replay_file(const std::filesystem::path& file, std::string_view what);

// Copies the team's workspace to `scratch` (made afresh), leaving out `skip` (the data directory
// when it is inside the workspace).
result<void> copy_replay_workspace(const std::filesystem::path& workspace, const std::filesystem::path& scratch,
                                   const std::filesystem::path& skip);

// The fork a replay drives: plan_fork's batch, with `spec` (its origin, cut and scratch workspace
// `replays_dir`/<fork id>/workspace filled in) as the fork root's replay_started right after its
// dialog_forked. Reads only: a refused point writes nothing.
result<fork_plan> plan_replay(store& log, std::string_view root_id, const fork_point& point,
                              events::replay_started& spec, const std::filesystem::path& replays_dir,
                              std::int64_t now_ms);

}  // namespace parley::engine
