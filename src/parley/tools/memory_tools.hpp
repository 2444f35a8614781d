// Dominds' memory tools: a member's personal memory (`.minds/memory/individual/<id>/`) and the
// team's (`.minds/memory/team_shared/`) as entries — Markdown files named by a short path — added,
// replaced, dropped and cleared by their own tools, which never reach outside their folder and do
// not need the member's access rules (`.minds/` stays closed to the file tools). The engine puts
// every entry into the system prompt of each generation (engine/taskdoc.hpp read_memories).
// Toolsets: "memory" (add_memory, replace_memory, drop_memory, clear_memory) and "team_memory"
// (the same with _team_).
#pragma once

#include "parley/tools/tool.hpp"

namespace parley::tools {

constexpr std::size_t kMaxMemoryEntryBytes = std::size_t{64} * 1024;

void register_memory_tools(tool_registry& registry);

}  // namespace parley::tools
