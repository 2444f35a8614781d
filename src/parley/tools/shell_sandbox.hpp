// The shell under a member's access rules. The rules bind every tool (docs/tools.md), and a shell
// can name any path, so it is held to them by what it can see, not by reading its command line:
// inside bubblewrap the workspace is mounted so that no_read_dirs are hidden, everything outside
// read_dirs is hidden, no_write_dirs and everything outside write_dirs are read-only, and
// `.minds/`, `.dialogs/` and Parley's data are absent. Rules no mount can express (file extension
// lists, patterns with a wildcard before their last segment) and a member with rules but no
// sandbox get no shell at all: the engine withholds the shell tools, and the tools refuse too.
#pragma once

#include <string>
#include <vector>

#include "parley/access/access_rules.hpp"
#include "parley/access/shell_policy.hpp"
#include "parley/tools/tool.hpp"

namespace parley::tools {

// Why a shell under `policy` cannot be held to `rules`, or "" when it can (no rules, or rules a
// sandbox that is installed here can mount). Said to the model and in the team's notices.
std::string shell_confinement_problem(const access::access_rules& rules, const access::shell_policy& policy);

// bwrap's arguments up to and including "--" for a run in `cwd` (absolute, inside the workspace).
std::vector<std::string> bubblewrap_argv(const std::string& bwrap, const tool_context& ctx,
                                         const std::filesystem::path& cwd, bool read_only);

}  // namespace parley::tools
