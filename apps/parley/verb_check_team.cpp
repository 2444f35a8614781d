// `parley check --workspace DIR` (or `--team FILE`): loads the team as `serve` and `run` would,
// prints every problem (what Parley cannot honour, docs/team-yaml.md "Problems") on stdout, one
// line each, and exits 0 when the team can run: it loads and an engine can be made from it. A
// member that cannot be driven (its only provider unsupported) is a problem, not a failure of the
// team. A team that does not load (invalid YAML, an error in Parley's own format) exits non-zero
// with the error, as every verb does; nothing is written either way.
#include <cstdio>

#include "cli_args.hpp"
#include "cli_context.hpp"
#include "cli_messages.hpp"
#include "parley/config/team.hpp"
#include "parley/core/terminal_text.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/member_toolsets.hpp"
#include "parley/engine/team_problems.hpp"
#include "verb_usage.hpp"
#include "verbs.hpp"

namespace parley::cli {

int run_verb_check_team(const std::vector<std::string>& raw) {
  auto args = parse_args(raw, arg_spec_of("check"));
  if (!args) return report(args.err());
  if (!args->positionals.empty()) return report(make_error(errc::invalid_argument, usage_of("check")));
  const auto workspace = args->value("workspace");
  auto team = workspace ? config::load_dominds_workspace(*workspace) : config::load_team_file(*args->value("team"));
  if (!team) return report(team.err());
  const auto builtin_tools = engine::build_builtin_tools(*team);
  engine::settle_team_problems(*team, builtin_tools);
  if (auto checked = engine::check_team_toolsets(*team, builtin_tools); !checked) return report(checked.err());
  if (auto providers = engine::build_providers(*team); !providers) return report(providers.err());
  std::size_t runnable = 0;
  for (const auto& member : team->members) {
    if (config::member_can_run(team->problems, member.id)) ++runnable;
  }
  for (const auto& problem : team->problems) {
    std::printf("%s\n", problem_line(terminal_safe(problem.text())).c_str());
  }
  const std::string members = std::to_string(team->members.size());
  const std::string can_run = std::to_string(runnable);
  const std::string problems = std::to_string(team->problems.size());
  std::printf("%s\n", say_cli(msg::check_team_summary, {{"source", terminal_safe(team->source.string())},
                                                        {"members", members},
                                                        {"runnable", can_run},
                                                        {"problems", problems}})
                          .c_str());
  return kExitOk;
}

}  // namespace parley::cli
