// search_files: ripgrep over the workspace (Debian's `rg`, spawned with an argv, never a shell).
// Regex or fixed strings, include/exclude globs, context lines and a result limit. Matches in
// files the member may not read (its access rules, `.minds/`, Taskdoc packages, Parley's data)
// are dropped and counted, so search never reveals what read_file would refuse.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "parley/tools/tool.hpp"

namespace parley::tools {

// `rg_program`: the ripgrep executable ("rg": looked up on PATH).
std::unique_ptr<tool> make_search_tool(std::string rg_program = "rg");

// What search_files does, typed, for a caller that builds the request itself (Dominds'
// ripgrep_search, which takes some of rg's own flags).
struct search_request {
  std::string pattern;
  std::string path = ".";
  std::vector<std::string> globs;
  bool fixed_strings = false;
  bool ignore_case = false;
  std::int64_t context_lines = 0;
  std::int64_t max_results = 100;
  // Flags of rg's given as they are: only ones the caller checked against its allowlist, which
  // change what matches, never where rg looks or what it runs (--word-regexp, --type=cpp ...).
  std::vector<std::string> vetted_flags;
};
boost::asio::awaitable<tool_outcome> search_workspace(search_request request, const tool_context& ctx,
                                                      std::string rg_program = "rg");

}  // namespace parley::tools
