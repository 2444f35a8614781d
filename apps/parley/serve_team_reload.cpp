#include "serve_team_reload.hpp"

#include <cstdio>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "cli_context.hpp"
#include "cli_messages.hpp"
#include "parley/core/terminal_text.hpp"
#include "parley/engine/assembly.hpp"

namespace parley::cli {

namespace fs = std::filesystem;

namespace {

// The team at `source` built as prepare_engine_inputs and run_verb_serve build it at start.
result<engine::team_parts> build_reloaded_team(const fs::path& source, bool workspace,
                                               const std::shared_ptr<tot::tot_tool_binding>& tot_binding) {
  auto team =
      workspace ? config::load_dominds_workspace(source.parent_path().parent_path()) : config::load_team_file(source);
  if (!team) return std::move(team).err();
  auto parts = engine::assemble_team(std::move(*team));
  if (!parts) return std::move(parts).err();
  tot::offer_tree_of_thoughts(parts->team, parts->tools, tot_binding);
  return parts;
}

}  // namespace

void watch_team_for_reload(engine::engine& eng, std::shared_ptr<tot::tot_tool_binding> tot_binding) {
  const auto& team = eng.team();
  const fs::path source = team.source;
  const bool workspace = engine::is_dominds_team(team);
  std::vector<fs::path> watched;
  std::vector<fs::path> skip;
  if (workspace) {
    watched.push_back(source.parent_path());  // .minds/
    // The memory tools write here during drives; the team does not depend on it.
    skip.push_back(source.parent_path() / "memory");
  } else {
    watched.push_back(source);
    if (!team.mcp.source.empty() && team.mcp.source != source) watched.push_back(team.mcp.source);
  }
  auto build = [source, workspace, tot_binding] { return build_reloaded_team(source, workspace, tot_binding); };
  auto said = [&eng, source](const result<void>& reloaded) {
    if (!reloaded) {
      const std::string kept = say_cli(msg::team_not_reloaded, {{"error", terminal_safe(reloaded.err().message)}});
      std::fprintf(stderr, "parley: %s\n", problem_line(kept).c_str());
      return;
    }
    std::printf("parley: %s\n", say_cli(msg::team_reloaded, {{"source", terminal_safe(source.string())}}).c_str());
    std::fflush(stdout);
    print_problems(eng.team().problems, 0);
  };
  eng.watch_team_files(std::move(watched), std::move(skip), std::move(build), std::move(said));
}

}  // namespace parley::cli
