// The team and workspace of a replay (replay_team.hpp).
#include "parley/engine/replay_team.hpp"

#include <system_error>

#include "parley/core/file_io.hpp"
#include "parley/core/text.hpp"
#include "parley/engine/taskdoc.hpp"

namespace parley::engine {

result<std::string> read_replay_file(const std::filesystem::path& file, std::string_view what) {
  constexpr std::uintmax_t kMaxBytes = 1 << 20;
  auto text = read_file_prefix(file, kMaxBytes);
  if (!text)
    return make_error(errc::invalid_argument, std::string(what) + " " + file.string() + ": " + text.err().message);
  if (text->size > kMaxBytes) {
    return make_error(errc::invalid_argument, std::string(what) + " " + file.string() + " is over 1 MiB");
  }
  return std::move(text->bytes);
}

result<void> check_replay_change(const config::team_config& team, const events::replay_started& spec) {
  if (spec.provider && team.find_provider(*spec.provider) == nullptr) {
    std::vector<std::string> known;
    for (const auto& provider : team.providers) known.push_back(provider.id);
    return make_error(errc::invalid_argument, "provider: the team has no provider '" + *spec.provider +
                                                  "'; its providers are " + join(known, ", "));
  }
  for (const auto& persona : spec.personas) {
    const auto* member = team.find_member(persona.member_id);
    if (member == nullptr || member->kind != config::member_kind::llm) {
      std::vector<std::string> known;
      for (const auto& m : team.members) {
        if (m.kind == config::member_kind::llm) known.push_back(m.id);
      }
      return make_error(errc::invalid_argument, "member-persona: the team has no model member '" + persona.member_id +
                                                    "'; its members are " + join(known, ", "));
    }
  }
  return ok();
}

result<config::team_config> replay_team(config::team_config base, const events::replay_started& spec) {
  config::team_config team = std::move(base);
  if (spec.team_file) {
    auto text = read_replay_file(*spec.team_file, "team file");
    if (!text) return std::move(text).err();
    if (spec.team_hash && content_hash(*text) != *spec.team_hash) {
      return make_error(errc::conflict, "team file " + *spec.team_file +
                                            " changed since the replay started; a replay runs under the team it began "
                                            "with (start another replay with the file as it is now)");
    }
    PARLEY_TRY_ASSIGN(team, config::load_team_file(*spec.team_file));
  }
  PARLEY_TRY(check_replay_change(team, spec));
  for (auto& member : team.members) {
    if (member.kind != config::member_kind::llm) continue;
    if (spec.provider) member.provider = *spec.provider;
    if (spec.model) member.model = *spec.model;
  }
  for (const auto& persona : spec.personas) {
    for (auto& member : team.members) {
      if (member.id == persona.member_id) member.persona = persona.persona;
    }
  }
  team.workspace = spec.workspace;
  return team;
}

std::string replay_change_text(const events::replay_started& spec) {
  std::vector<std::string> parts;
  if (spec.team_file) parts.push_back("team " + *spec.team_file);
  if (spec.provider) parts.push_back("provider " + *spec.provider);
  if (spec.model) parts.push_back("model " + *spec.model);
  for (const auto& persona : spec.personas) parts.push_back("a new persona for " + persona.member_id);
  if (parts.empty()) parts.push_back("no change");
  parts.push_back(spec.tools == events::replay_tools::recorded ? "recorded tools only"
                                                               : "live tools in a scratch workspace");
  return join(parts, ", ");
}

result<void> copy_replay_workspace(const std::filesystem::path& workspace, const std::filesystem::path& scratch,
                                   const std::filesystem::path& skip) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::remove_all(scratch, ec);
  fs::create_directories(scratch, ec);
  if (ec)
    return make_error(errc::io_error, "cannot make the replay's workspace " + scratch.string() + ": " + ec.message());
  const fs::path skipped = skip.empty() ? fs::path() : fs::weakly_canonical(skip, ec);
  for (const auto& entry : fs::directory_iterator(workspace, ec)) {
    if (!skipped.empty() && fs::weakly_canonical(entry.path(), ec) == skipped) continue;
    fs::copy(entry.path(), scratch / entry.path().filename(),
             fs::copy_options::recursive | fs::copy_options::copy_symlinks, ec);
    if (ec) {
      return make_error(errc::io_error,
                        "cannot copy " + entry.path().string() + " to the replay's workspace: " + ec.message());
    }
  }
  if (ec) return make_error(errc::io_error, "cannot read the workspace " + workspace.string() + ": " + ec.message());
  return ok();
}

result<fork_plan> plan_replay(store& log, std::string_view root_id, const fork_point& point,
                              events::replay_started& spec, const std::filesystem::path& replays_dir,
                              std::int64_t now_ms) {
  fork_plan plan;
  PARLEY_TRY_ASSIGN(plan, plan_fork(log, root_id, point, now_ms));
  if (plan.batch.empty()) return make_error(errc::internal, "the fork's plan holds no event");
  const event& forked = plan.batch.front();
  spec.origin_root_id = std::string(root_id);
  spec.from_seq = plan.through_seq;
  spec.workspace = (replays_dir / plan.fork_root_id / "workspace").string();
  event started;
  started.dialog_id = forked.dialog_id;
  started.root_id = forked.root_id;
  started.seq = forked.seq + 1;
  started.payload = spec;
  started.ts_ms = now_ms;
  plan.batch.insert(plan.batch.begin() + 1, std::move(started));
  return plan;
}

}  // namespace parley::engine
