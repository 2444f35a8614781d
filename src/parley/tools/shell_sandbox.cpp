#include "parley/tools/shell_sandbox.hpp"

#include <optional>

#include "parley/tools/shell_command.hpp"
#include "parley/tools/workspace_access.hpp"

namespace parley::tools {
namespace {

namespace fs = std::filesystem;

// The folder a pattern names when a mount can stand for it: "secrets", "a/b/**" and "**" (the
// whole workspace, "") can; "**/secrets" and "src/*/gen" cannot.
std::optional<std::string> mountable_folder(const access::dir_glob& pattern) {
  const auto& segments = pattern.segments();
  std::string folder;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const bool last = i + 1 == segments.size();
    if (segments[i] == "**" && last) break;
    if (segments[i].find('*') != std::string::npos) return std::nullopt;
    folder += folder.empty() ? "" : "/";
    folder += segments[i];
  }
  return folder;
}

std::string unmountable(const access::direction_rules& rules, const char* dirs_key, const char* deny_key) {
  if (!rules.allow_exts.empty() || !rules.deny_exts.empty()) {
    return "its file extension rules cannot be applied to a shell";
  }
  for (const auto* list : {&rules.allow_dirs, &rules.deny_dirs}) {
    for (const auto& pattern : *list) {
      if (!mountable_folder(pattern)) {
        return std::string(list == &rules.allow_dirs ? dirs_key : deny_key) + " pattern '" + pattern.text() +
               "' has a wildcard before its last segment, which the sandbox cannot mount";
      }
    }
  }
  return {};
}

bool is_dir(const fs::path& path) {
  std::error_code ec;
  return fs::is_directory(path, ec);
}

// The mounts, in bwrap's order: a later one covers an earlier one at the same place or above.
class mount_plan {
 public:
  explicit mount_plan(std::vector<std::string>& argv) : argv_(argv) {}

  void bind(const fs::path& path, bool writable) {
    argv_.emplace_back(writable ? "--bind" : "--ro-bind");
    argv_.push_back(path.string());
    argv_.push_back(path.string());
  }
  // An empty folder in its place, made read-only once everything is mounted (finish).
  void hide(const fs::path& path) {
    argv_.emplace_back("--tmpfs");
    argv_.push_back(path.string());
    hidden_.push_back(path);
  }
  void finish() {
    for (const auto& path : hidden_) {
      argv_.emplace_back("--remount-ro");
      argv_.push_back(path.string());
    }
  }

 private:
  std::vector<std::string>& argv_;
  std::vector<fs::path> hidden_;
};

// The folders of `patterns` that exist in the workspace.
std::vector<fs::path> existing_folders(const fs::path& root, const std::vector<access::dir_glob>& patterns) {
  std::vector<fs::path> out;
  for (const auto& pattern : patterns) {
    const auto folder = mountable_folder(pattern);
    if (!folder) continue;  // shell_confinement_problem refuses such rules before a run
    const fs::path path = folder->empty() ? root : root / *folder;
    if (is_dir(path)) out.push_back(path);
  }
  return out;
}

}  // namespace

std::string shell_confinement_problem(const access::access_rules& rules, const access::shell_policy& policy) {
  if (!rules.restricts()) return {};
  const std::string why = "this member has access rules, which bind every tool, and ";
  if (policy.sandbox != access::shell_sandbox::bubblewrap) {
    return why +
           "a shell outside the sandbox could walk around them; the sandbox is set in Parley's team file (`shell: "
           "{sandbox: bubblewrap}`)";
  }
  if (bubblewrap_program().empty()) {
    return why + "the shell sandbox (bubblewrap) is not installed here; install Debian's bubblewrap package";
  }
  std::string problem = unmountable(rules.read, "read_dirs", "no_read_dirs");
  if (problem.empty()) problem = unmountable(rules.write, "write_dirs", "no_write_dirs");
  return problem.empty() ? std::string() : why + problem;
}

std::vector<std::string> bubblewrap_argv(const std::string& bwrap, const tool_context& ctx, const fs::path& cwd,
                                         bool read_only) {
  const fs::path root = fs::weakly_canonical(ctx.workspace);
  std::vector<std::string> argv{
      bwrap,   "--die-with-parent", "--unshare-pid", "--ro-bind", "/", "/", "--dev", "/dev", "--proc",
      "/proc", "--tmpfs",           "/tmp"};
  const auto& rules = rules_of(ctx);
  mount_plan mounts(argv);
  // With write_dirs the workspace is read-only and only their folders are writable.
  const bool write_scoped = !rules.write.allow_dirs.empty();
  mounts.bind(root, !read_only && !write_scoped);
  // With read_dirs nothing of the workspace shows but their folders.
  const bool read_scoped = !rules.read.allow_dirs.empty();
  if (read_scoped) {
    mounts.hide(root);
    for (const auto& folder : existing_folders(root, rules.read.allow_dirs)) mounts.bind(folder, false);
  }
  if (!read_only) {
    for (const auto& folder : existing_folders(root, rules.write.allow_dirs)) {
      // A folder it may write but not read stays hidden.
      const auto relative = folder.lexically_relative(root).generic_string();
      if (!read_scoped || rules.check_read(relative, access::path_kind::directory)) mounts.bind(folder, true);
    }
  }
  for (const auto& folder : existing_folders(root, rules.write.deny_dirs)) mounts.bind(folder, false);
  for (const auto& folder : existing_folders(root, rules.read.deny_dirs)) mounts.hide(folder);
  for (const char* reserved : {".minds", ".dialogs"}) {
    if (is_dir(root / reserved)) mounts.hide(root / reserved);
  }
  if (ctx.protected_dirs != nullptr) {
    for (const auto& dir : *ctx.protected_dirs) {
      if (is_dir(dir.path)) mounts.hide(dir.path);
    }
  }
  mounts.finish();
  if (!shell_policy_of(ctx).network) argv.emplace_back("--unshare-net");
  argv.emplace_back("--chdir");
  argv.push_back(cwd.string());
  argv.emplace_back("--");
  return argv;
}

}  // namespace parley::tools
