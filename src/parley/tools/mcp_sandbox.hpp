// A member's stdio MCP servers under its sandbox (docs/mcp.md, "Access rules"): the server's
// process runs inside the same bubblewrap mounts as that member's shell commands
// (shell_sandbox.hpp), below the supervisor that kills its process group when Parley dies
// (supervisor → bwrap --die-with-parent → server), so it sees and writes what the member's rules
// let it and nothing of `.minds/`, `.dialogs/` or Parley's data.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "parley/access/access_rules.hpp"
#include "parley/access/shell_policy.hpp"
#include "parley/tools/mcp/launch_plan.hpp"
#include "parley/tools/tool.hpp"

namespace parley::tools {

// What a member's stdio MCP servers run under.
struct mcp_sandbox_choice {
  // Why the member gets no stdio server at all: it has access rules and no sandbox can hold a
  // process to them (shell_confinement_problem). "" when it gets them.
  std::string refused;
  // The profile its servers run under: an empty key outside a sandbox (no rules, no sandbox set).
  mcp::sandbox_profile profile;
};

// A member with `shell: {sandbox: bubblewrap}` (installed here) runs its stdio servers sandboxed,
// with or without rules. Members whose rules, network setting and sandbox are the same share a
// profile key. `protected_dirs` (may be null) is read when a server starts; it and nothing else is
// kept by reference, and must outlive the profile.
mcp_sandbox_choice mcp_sandbox_for(const std::filesystem::path& workspace, const access::access_rules& rules,
                                   const access::shell_policy& policy,
                                   const std::vector<protected_dir>* protected_dirs);

}  // namespace parley::tools
