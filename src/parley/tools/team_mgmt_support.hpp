// What the team_mgmt tools (team_mgmt_tools.hpp) share: paths relative to `.minds/`, and the copy
// of `.minds/` a change is tried on first, so that a change after which the team would not load is
// refused with the loader's error and the real files stay untouched. Private to tools/.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "parley/config/problem.hpp"
#include "parley/core/result.hpp"
#include "parley/tools/tool.hpp"

namespace parley::tools::team_mgmt_detail {

// 'team.yaml', './team.yaml', '.minds/team.yaml', './.minds/team.yaml' → 'team.yaml'; '', '.',
// '.minds' → '.' (the folder itself).
std::string minds_relative(std::string_view path);

// A fresh folder holding a copy of the workspace's `.minds/` (its memory/ left out: the loader
// does not read it, and it may be large), removed when it goes.
class minds_copy {
 public:
  // An error when `.minds/` cannot be copied.
  static result<minds_copy> of(const std::filesystem::path& workspace);
  minds_copy(minds_copy&& other) noexcept;
  minds_copy& operator=(minds_copy&&) = delete;
  minds_copy(const minds_copy&) = delete;
  minds_copy& operator=(const minds_copy&) = delete;
  ~minds_copy();

  // The copy's workspace: its `.minds/` is the copy.
  const std::filesystem::path& workspace() const { return root_; }
  // Whether the copy loads as a team; the error is the loader's, its positions naming the real
  // workspace `real`.
  result<void> loads(const std::filesystem::path& real) const;

 private:
  explicit minds_copy(std::filesystem::path root) : root_(std::move(root)) {}
  std::filesystem::path root_;
};

// `ctx` confined to `minds` (the `.minds/` folder of the workspace or of a copy): the file tools
// run with it see `.minds/` as their whole workspace, with no access rules of the member's (those
// exist to keep members out of `.minds/`, which team_mgmt is the door to).
tool_context minds_rooted(const tool_context& ctx, const std::filesystem::path& minds);

// Dominds' problem source (team, mcp, llm), from the file that asked for it.
std::string problem_source(const config::problem& found);
// The id team_mgmt_list_problems shows and team_mgmt_clear_problems takes: "<source>/<key path>".
std::string problem_id(const config::problem& found);

}  // namespace parley::tools::team_mgmt_detail

namespace parley::tools::team_mgmt_detail {

// team_mgmt_mk_dir, _move_file, _move_dir, _rm_file, _rm_dir and the team_mgmt_ripgrep_* tools:
// Dominds' workspace tools run on `.minds/` (team_mgmt_fs_tools.cpp).
void register_minds_fs_tools(tool_registry& registry);
// team_mgmt_list_providers, _list_models, _validate_mcp_cfg, _list_problems: what loading the
// workspace finds (team_mgmt_info_tools.cpp).
void register_minds_info_tools(tool_registry& registry);
// team_mgmt_check_provider (team_mgmt_provider_check.cpp).
std::unique_ptr<tool> make_check_provider_tool();
// team_mgmt_link_skill, _unlink_skill (team_mgmt_skill_links.cpp).
void register_minds_skill_link_tools(tool_registry& registry);
// team_mgmt_validate_priming_scripts, _clear_problems (team_mgmt_admin_tools.cpp).
void register_minds_admin_tools(tool_registry& registry);

}  // namespace parley::tools::team_mgmt_detail
