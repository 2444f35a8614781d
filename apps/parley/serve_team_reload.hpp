// `parley serve` reloads its team when the files it was read from change (docs/team-yaml.md
// "Reloading"): a Dominds workspace's `.minds/` (its memory folder aside), or Parley's team file
// and the mcp.yaml it names. The new team is built as at start — loaded, its problems settled, its
// providers and tools made, tree_of_thoughts offered — and swapped in by the engine
// (engine::replace_team). Each outcome is one line: the reload and the new team's problems, or the
// error with the last good team still running (GET /api/problems lists it too).
#pragma once

#include <memory>

#include "parley/engine/engine.hpp"
#include "parley/tot/tot_tool.hpp"

namespace parley::cli {

void watch_team_for_reload(engine::engine& eng, std::shared_ptr<tot::tot_tool_binding> tot_binding);

}  // namespace parley::cli
