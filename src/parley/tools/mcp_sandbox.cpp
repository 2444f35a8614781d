#include "parley/tools/mcp_sandbox.hpp"

#include <memory>

#include "parley/tools/shell_command.hpp"
#include "parley/tools/shell_sandbox.hpp"
#include "parley/tools/workspace_access.hpp"

namespace parley::tools {
namespace {

namespace fs = std::filesystem;

void append_direction_key(std::string& key, const char* name, const access::direction_rules& rules) {
  key += name;
  for (const auto& pattern : rules.allow_dirs) key += "|+" + pattern.text();
  for (const auto& pattern : rules.deny_dirs) key += "|-" + pattern.text();
  for (const auto& ext : rules.allow_exts) key += "|+." + ext;
  for (const auto& ext : rules.deny_exts) key += "|-." + ext;
  key += ';';
}

// The same mounts for the same key: the sandbox kind, the network setting and the rules (the
// workspace and Parley's protected folders are the team's, the same for every member).
std::string mcp_profile_key(const access::access_rules& rules, const access::shell_policy& policy) {
  std::string key = policy.network ? "bubblewrap+network;" : "bubblewrap;";
  append_direction_key(key, "read", rules.read);
  append_direction_key(key, "write", rules.write);
  return key;
}

// What a wrapper keeps: its own copies, so that a profile outlives the member's configuration.
struct mcp_sandbox_state {
  fs::path workspace;
  access::access_rules rules;
  access::shell_policy policy;
  const std::vector<protected_dir>* protected_dirs = nullptr;
};

// Why `cwd` would not be there inside the sandbox (a hidden folder is an empty one, and a folder
// below it does not exist), or "".
std::string hidden_mcp_cwd(const tool_context& ctx, const fs::path& cwd) {
  const fs::path root = fs::weakly_canonical(ctx.workspace);
  const fs::path where = fs::weakly_canonical(cwd);
  if (protected_dir_of(ctx, where) != nullptr) return "its cwd " + cwd.string() + " is Parley's own data";
  const auto relative = where.lexically_relative(root);
  if (relative.empty() || *relative.begin() == "..") return {};  // outside the workspace: read-only, as it is
  if (relative == ".") return {};
  const std::string first = relative.begin()->string();
  if (first == ".minds" || first == ".dialogs") return "its cwd " + cwd.string() + " is inside " + first + "/";
  if (auto verdict = rules_of(ctx).check_read(relative.generic_string(), access::path_kind::directory); !verdict) {
    return "its cwd " + cwd.string() + " is not readable under the member's access rules";
  }
  return {};
}

}  // namespace

mcp_sandbox_choice mcp_sandbox_for(const fs::path& workspace, const access::access_rules& rules,
                                   const access::shell_policy& policy,
                                   const std::vector<protected_dir>* protected_dirs) {
  mcp_sandbox_choice out;
  out.refused = shell_confinement_problem(rules, policy);
  if (!out.refused.empty()) return out;
  if (policy.sandbox != access::shell_sandbox::bubblewrap || bubblewrap_program().empty()) return out;
  auto state = std::make_shared<const mcp_sandbox_state>(mcp_sandbox_state{workspace, rules, policy, protected_dirs});
  out.profile.key = mcp_profile_key(rules, policy);
  out.profile.wrap = [state](const fs::path& cwd) -> result<std::vector<std::string>> {
    tool_context ctx;
    ctx.workspace = state->workspace;
    ctx.access = &state->rules;
    ctx.protected_dirs = state->protected_dirs;
    ctx.shell = &state->policy;
    const std::string bwrap = bubblewrap_program();
    if (bwrap.empty()) return make_error(errc::config_error, "the sandbox (bubblewrap) is not installed here");
    if (const std::string hidden = hidden_mcp_cwd(ctx, cwd); !hidden.empty()) {
      return make_error(errc::config_error, hidden + ", which the sandbox hides");
    }
    return bubblewrap_argv(bwrap, ctx, cwd, false);
  };
  return out;
}

}  // namespace parley::tools
