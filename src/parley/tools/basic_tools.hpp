// Pure builtin tools that need no workspace, handy for demos of the tool loop.
#pragma once

#include "parley/tools/tool.hpp"

namespace parley::tools {

// Adds `calculate({expression})` (+ - * / parentheses, decimals) and the toolset "basic".
void register_basic_tools(tool_registry& registry);

}  // namespace parley::tools
