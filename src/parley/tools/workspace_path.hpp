// Confines the paths a model gives to file tools to the workspace. A path is refused when it is
// absolute, when it leaves the workspace lexically (`..`) or through a symbolic link (resolved on
// the real file system), when it goes through a dangling symbolic link, and when any component is
// a Taskdoc package (`*.tsk`), whose contents only change_mind may touch.
#pragma once

#include <filesystem>
#include <string_view>

#include "parley/core/result.hpp"

namespace parley::tools {

struct workspace_path {
  std::filesystem::path absolute;  // canonical, inside the workspace
  std::filesystem::path relative;  // from the workspace root; "." for the root itself
  // The path as given, lexically normalised ("." for the root): the access rules judge both this
  // and `relative`, so a link cannot launder a denied folder.
  std::filesystem::path lexical;
  std::filesystem::path root;  // the workspace, canonical
};

// Errors are errc::invalid_argument (refused) or errc::io_error (the workspace is unusable), with
// messages that quote `path` as the model wrote it.
result<workspace_path> resolve_workspace_path(const std::filesystem::path& workspace, std::string_view path);

// True for a file name that ends in ".tsk" (any case).
bool is_taskdoc_package_name(std::string_view name);

}  // namespace parley::tools
