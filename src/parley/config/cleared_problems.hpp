// Problems a team manager cleared (Dominds' team_mgmt_clear_problems): Parley recomputes the
// Problems on every load and keeps no history, so clearing one means acknowledging it — it is not
// listed again (GET /api/problems, the Problems panel, the line at start, team_mgmt_list_problems)
// while it stays the same: the same file, key path and text; a problem that changes, or comes
// back after being fixed with other words, is listed again. The acknowledgements are kept with the
// team, in `.minds/problems-cleared.yaml` (docs/team-yaml.md "Problems"), so they hold across
// restarts, travel with the workspace and can be undone by editing or removing that file; a
// running `parley serve` reloads the team when it changes, which applies them. A problem that
// keeps a member from running is never hidden: it stays listed until it is fixed.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "parley/config/problem.hpp"
#include "parley/core/result.hpp"

namespace parley::config {

// One acknowledged problem: its file relative to `.minds/` (or as the problem names it when
// outside), its key path and its text.
struct cleared_problem {
  std::string file;
  std::string what;
  std::string why;

  bool operator==(const cleared_problem&) const = default;
};

std::filesystem::path cleared_problems_file(const std::filesystem::path& workspace);
cleared_problem cleared_entry(const problem& found, const std::filesystem::path& workspace);

// No file: none. Errors name the file, the position and the field.
result<std::vector<cleared_problem>> read_cleared_problems(const std::filesystem::path& workspace);
// Written whole and atomically; an empty list removes the file.
result<void> write_cleared_problems(const std::filesystem::path& workspace,
                                    const std::vector<cleared_problem>& entries);

// Takes the acknowledged problems out of `problems` (never one that blocks a member) and returns
// how many. A file that cannot be read hides nothing and adds a problem that says why.
std::size_t hide_cleared_problems(std::vector<problem>& problems, const std::filesystem::path& workspace);

}  // namespace parley::config
