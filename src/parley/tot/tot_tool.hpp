// The `tree_of_thoughts` tool: a member given it runs a whole ToT run (tot_run.hpp) on a problem
// and gets the final_solution back as the tool's result. The run's calls are subdialogs of a root
// of its own (member tot-orchestrator) and its log folder is under the data directory, as for
// `parley tot`. The tool is registered before the engine exists; `bind` gives it the engine.
#pragma once

#include <filesystem>
#include <memory>

#include "parley/config/team.hpp"
#include "parley/engine/engine.hpp"
#include "parley/tools/tool.hpp"
#include "parley/tot/run_logs.hpp"

namespace parley::tot {

class run_board;

inline constexpr const char* kTreeOfThoughtsTool = "tree_of_thoughts";

struct tot_tool_binding {
  engine::engine* engine = nullptr;      // set once the engine is created; the engine outlives its tools' calls
  run_logs logs = run_logs::in("logs");  // where its runs go (run_logs.hpp); set with the engine
  // The server's board (null elsewhere): a run made through it is listed while it runs and its
  // progress reaches the PubChan, as a run started by POST /api/tot does. Outlives the tool's calls.
  run_board* board = nullptr;
};

// Registers the tool, and when a member of `team` lists it, adds the ToT members (on that
// member's provider and model) that a run needs and the team does not declare.
void offer_tree_of_thoughts(config::team_config& team, tools::tool_registry& registry,
                            std::shared_ptr<tot_tool_binding> binding);

}  // namespace parley::tot
