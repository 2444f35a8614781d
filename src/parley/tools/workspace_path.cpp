#include "parley/tools/workspace_path.hpp"

#include <optional>

#include "parley/access/access_rules.hpp"

namespace parley::tools {
namespace {

namespace fs = std::filesystem;

std::string quoted_path(std::string_view path) { return "'" + std::string(path) + "'"; }

error refuse(std::string_view path, std::string_view problem) {
  return make_error(errc::invalid_argument, quoted_path(path) + " " + std::string(problem));
}

// The Taskdoc refusal when some component of `relative` is a package, else nothing.
std::optional<error> taskdoc_refusal(const fs::path& relative, std::string_view shown) {
  fs::path last;
  for (const auto& part : relative) {
    if (!part.empty()) last = part;
  }
  for (const auto& part : relative) {
    if (!is_taskdoc_package_name(part.native())) continue;
    const bool is_package_itself = part == last;
    return refuse(shown, is_package_itself ? "is a Taskdoc package (*.tsk/); use change_mind"
                                           : "is inside a Taskdoc package (*.tsk/); use change_mind");
  }
  return std::nullopt;
}

bool starts_with_parent(const fs::path& relative) { return !relative.empty() && *relative.begin() == ".."; }

// weakly_canonical resolves every link that exists; the first missing component may still be a
// dangling link whose target is anywhere, so it is refused rather than followed by a later write.
std::optional<error> dangling_link_refusal(const fs::path& root, const fs::path& relative, std::string_view shown) {
  fs::path prefix = root;
  for (const auto& part : relative) {
    if (part.empty() || part == ".") continue;
    prefix /= part;
    std::error_code ec;
    const auto type = fs::symlink_status(prefix, ec).type();
    if (type == fs::file_type::not_found) break;
    if (type == fs::file_type::symlink)
      return refuse(shown, "goes through a symbolic link whose target does not exist");
  }
  return std::nullopt;
}

}  // namespace

bool is_taskdoc_package_name(std::string_view name) { return access::is_taskdoc_package_name(name); }

result<workspace_path> resolve_workspace_path(const fs::path& workspace, std::string_view path) {
  if (path.find('\0') != std::string_view::npos) return refuse("<path>", "contains a NUL character");
  const fs::path given{std::string(path)};
  if (given.has_root_directory() || given.has_root_name()) {
    return refuse(path, "is an absolute path; paths are relative to the workspace");
  }
  fs::path normal = given.lexically_normal();
  if (normal.empty()) normal = ".";
  if (starts_with_parent(normal)) return refuse(path, "is outside the workspace");
  if (auto refusal = taskdoc_refusal(normal, path)) return std::move(*refusal);

  std::error_code ec;
  const fs::path root = fs::canonical(workspace, ec);
  if (ec) {
    return make_error(errc::io_error, "the workspace '" + workspace.string() + "' is not usable: " + ec.message());
  }
  const fs::path absolute = fs::weakly_canonical(root / normal, ec);
  if (ec) return refuse(path, "cannot be resolved: " + ec.message());
  fs::path relative = absolute.lexically_relative(root);
  if (relative.empty() || starts_with_parent(relative)) {
    return refuse(path, "resolves outside the workspace (through a symbolic link)");
  }
  if (auto refusal = taskdoc_refusal(relative, path)) return std::move(*refusal);
  if (auto refusal = dangling_link_refusal(root, relative, path)) return std::move(*refusal);
  return workspace_path{absolute, std::move(relative), std::move(normal), root};
}

}  // namespace parley::tools
