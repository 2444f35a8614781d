// Long-running processes a member starts (a dev server, a watcher) and looks after with tools:
// start_process, list_processes, read_process (what it wrote since the last read) and
// stop_process. Bounded: at most kMaxRunningPerMember running per member and kMaxKept kept in
// all, each with a lifetime (max_seconds) and its last kBufferBytes of output; a member sees and
// stops only its own. The table outlives every call; when it is destroyed (the engine shuts down)
// every process group still running is killed.
#pragma once

#include "parley/tools/tool.hpp"

namespace parley::tools {

constexpr std::size_t kMaxRunningPerMember = 4;
constexpr std::size_t kMaxKept = 16;
constexpr std::size_t kBufferBytes = std::size_t{256} * 1024;

// Adds the four tools, sharing one table of processes.
void register_background_process_tools(tool_registry& registry);

}  // namespace parley::tools
