#include "serve_lines.hpp"

#include <cstdint>
#include <string>

#include "cli_context.hpp"
#include "cli_messages.hpp"
#include "parley/engine/described_text.hpp"

namespace parley::cli {

bool announce_member_models(const config::team_config& team, const engine::engine& eng, std::FILE* to) {
  bool scripted = false;
  for (const auto& member : team.members) {
    const std::string model = engine::describe_member_model_in(team, member.id, cli_language());
    std::fprintf(to, "parley: %s\n", say_cli(msg::member_talks_to, {{"member", member.id}, {"model", model}}).c_str());
    scripted = scripted || eng.members().provider_kind_of(member.id) == "scripted";
  }
  return scripted;
}

int exit_status_after_shutdown(store& log, const engine::engine& eng) {
  log.flush();
  std::fflush(stdout);
  int status = kExitOk;
  if (const auto problem = log.health_problem(); !problem.empty()) {
    std::fprintf(stderr, "parley: %s\n", say_cli(msg::store_failed_at_shutdown, {{"problem", problem}}).c_str());
    status = kExitRuntime;
  }
  if (const auto stalled = eng.drives().stalled_dialogs(); stalled > 0) {
    const auto count = static_cast<std::int64_t>(stalled);
    std::fprintf(stderr, "parley: %s\n", say_count_cli(msg::stalled_one, msg::stalled_many, count).c_str());
    status = kExitRuntime;
  }
  return status;
}

}  // namespace parley::cli
