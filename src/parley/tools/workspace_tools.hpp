// Builtin file tools confined to tool_context::workspace (see workspace_path.hpp for what is
// refused) and the member's access rules: list_dir, read_file (whole or by line range),
// search_files (ripgrep), write_file (atomic), edit_file (one match or a chosen occurrence),
// replace_lines, insert_at_anchor, apply_patch (unified diff, all or nothing), move_path,
// remove_path, make_dir. Failures are tool_outcome{ok=false} with a message naming the path and
// the problem, and leave the disk as it was; nothing throws.
#pragma once

#include "parley/tools/tool.hpp"

namespace parley::tools {

// Adds the file tools and the toolsets "workspace" (all of them) and "workspace_read" (list_dir,
// read_file, search_files).
void register_workspace_tools(tool_registry& registry);

}  // namespace parley::tools
