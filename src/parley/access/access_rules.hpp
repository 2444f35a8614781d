// Which workspace paths a member's file tools may read and write: Dominds' access rules
// (read_dirs, write_dirs, no_read_dirs, no_write_dirs and the *_file_ext_names lists) plus the
// paths no file tool ever opens. docs/team-yaml.md "Access rules" is the user's description.
//
// A check, for reads and writes alike, in order:
//   1. built-in denials: `.minds/` and `.dialogs/` at the workspace root (the team's configuration
//      and memory, Dominds' dialogs) and anything in or named like a Taskdoc package (`*.tsk`);
//   2. the deny list of directory scopes (no_*_dirs): any match refuses;
//   3. the allow list (read_dirs / write_dirs): when not empty, the path must match one;
//   4. for files with an extension: the extension deny list, then the allow list when not empty.
// Paths are workspace-relative with '/' separators, already confined and normalised by the caller.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "parley/access/dir_glob.hpp"
#include "parley/core/result.hpp"

namespace parley::access {

enum class path_kind { file, directory };

// One direction (read or write) of a member's rules.
struct direction_rules {
  std::vector<dir_glob> allow_dirs;     // read_dirs / write_dirs
  std::vector<dir_glob> deny_dirs;      // no_read_dirs / no_write_dirs
  std::vector<std::string> allow_exts;  // read_file_ext_names / ...: lower case, no leading dot
  std::vector<std::string> deny_exts;   // no_read_file_ext_names / ...
  bool restricts() const noexcept {
    return !allow_dirs.empty() || !deny_dirs.empty() || !allow_exts.empty() || !deny_exts.empty();
  }
};

// Why a path was refused, in words for the model: "it is inside no_write_dirs 'secrets'".
struct verdict {
  bool allowed = true;
  std::string reason;
  explicit operator bool() const noexcept { return allowed; }
};

class access_rules {
 public:
  direction_rules read;
  direction_rules write;

  verdict check_read(std::string_view relative_path, path_kind kind = path_kind::file) const;
  verdict check_write(std::string_view relative_path, path_kind kind = path_kind::file) const;
  // list_dir on a folder the member may not read as such (read_dirs does not cover it) is still
  // allowed when it is not denied and leads towards a read_dirs scope, so `list_dir .` can show
  // the way to `docs/` when read_dirs is [docs/**].
  bool may_pass_through(std::string_view relative_path) const;
  bool restricts() const noexcept { return read.restricts() || write.restricts(); }
};

// The extension Dominds compares: the last segment's text after its last dot, lower case; empty
// for none (no dot, a leading dot only as in ".env", or a trailing dot).
std::string extension_of(std::string_view relative_path);
// "md" from " .MD ": trimmed, lower case, leading dots removed. Refuses what can never match an
// extension (empty, '/', '*', an inner dot as in "tar.gz"), naming the problem.
result<std::string> normalize_extension(std::string_view written);
// The built-in denial of a path, or an empty string: `.minds`, `.dialogs`, Taskdoc packages.
std::string reserved_reason(std::string_view relative_path);
// True when an allow-list pattern names a reserved place (it could never allow anything there).
bool names_reserved_place(const dir_glob& pattern);
bool is_taskdoc_package_name(std::string_view name);

}  // namespace parley::access
