// search_files: ripgrep over the workspace (Debian's `rg`, spawned with an argv, never a shell).
// Regex or fixed strings, include/exclude globs, context lines and a result limit. Matches in
// files the member may not read (its access rules, `.minds/`, Taskdoc packages, Parley's data)
// are dropped and counted, so search never reveals what read_file would refuse.
#pragma once

#include <memory>
#include <string>

#include "parley/tools/tool.hpp"

namespace parley::tools {

// `rg_program`: the ripgrep executable ("rg": looked up on PATH).
std::unique_ptr<tool> make_search_tool(std::string rg_program = "rg");

}  // namespace parley::tools
