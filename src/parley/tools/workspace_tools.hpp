// Builtin file tools confined to tool_context::workspace (see workspace_path.hpp for what is
// refused): list_dir, read_file, write_file (atomic), edit_file (exactly one match). Failures are
// tool_outcome{ok=false} with a message naming the path and the problem; nothing throws.
#pragma once

#include "parley/tools/tool.hpp"

namespace parley::tools {

// Adds the four file tools and the toolsets "workspace" (all four) and "workspace_read"
// (list_dir, read_file).
void register_workspace_tools(tool_registry& registry);

}  // namespace parley::tools
