#include "parley/tools/team_mgmt_tools.hpp"

#include <boost/json/object.hpp>

#include <algorithm>

#include "parley/config/team.hpp"
#include "parley/core/file_io.hpp"
#include "parley/core/json_fields.hpp"
#include "parley/tools/dominds_file_ops.hpp"
#include "parley/tools/dominds_occurrence_replace.hpp"
#include "parley/tools/dominds_tool_support.hpp"
#include "parley/tools/function_tool.hpp"
#include "parley/tools/team_mgmt_support.hpp"
#include "parley/tools/workspace_ops.hpp"

namespace parley::tools {
namespace {

namespace json = boost::json;
namespace fs = std::filesystem;
using dominds_detail::file_scope;
using dominds_detail::yaml_answer;
using team_mgmt_detail::minds_copy;
using team_mgmt_detail::minds_relative;

constexpr std::size_t kTeamMgmtMaxListed = 500;

result<workspace_path> resolve_in_minds(const tool_context& ctx, std::string_view path, file_access,
                                        access::path_kind) {
  const fs::path minds = ctx.workspace / ".minds";
  std::error_code ec;
  if (!fs::is_directory(minds, ec)) return make_error(errc::not_found, "the workspace has no .minds/ folder");
  return resolve_workspace_path(minds, minds_relative(path));
}

// Whether `.minds/` with `relative` holding `new_text` still loads as a team, tried on a copy.
result<void> check_team_loads(const tool_context& ctx, const fs::path& relative, std::string_view new_text) {
  auto copy = minds_copy::of(ctx.workspace);
  if (!copy) return std::move(copy).err();
  const fs::path target = copy->workspace() / ".minds" / relative;
  std::error_code ec;
  fs::create_directories(target.parent_path(), ec);
  PARLEY_TRY(write_file_atomically(target, new_text));
  return copy->loads(ctx.workspace);
}

const file_scope& minds_scope() {
  static const file_scope scope{"team_mgmt_", resolve_in_minds,
                                [](const tool_context& ctx, const workspace_path& where, std::string_view text) {
                                  return check_team_loads(ctx, where.relative, text);
                                }};
  return scope;
}

tool_outcome list_minds(const json::object& args, const tool_context& ctx) {
  json_fields in(args);
  const std::string path = in.optional_string("path").value_or(".");
  if (!in.ok()) return dominds_detail::yaml_error("team_mgmt_list_dir", "", "INVALID_ARGS", in.message());
  auto where = resolve_in_minds(ctx, path, file_access::read, access::path_kind::directory);
  if (!where) return dominds_detail::yaml_error("team_mgmt_list_dir", path, "FAILED", where.err().message);
  std::error_code ec;
  std::vector<std::string> rows;
  for (fs::directory_iterator it(where->absolute, ec), end; !ec && it != end; it.increment(ec)) {
    const auto type = it->symlink_status(ec).type();
    const std::string name = it->path().filename().string();
    const std::string size = type == fs::file_type::regular ? std::to_string(it->file_size(ec)) : "-";
    const char* kind = type == fs::file_type::directory ? "dir" : type == fs::file_type::symlink ? "symlink" : "file";
    rows.push_back("| `" + name + "` | " + kind + " | " + size + " |\n");
  }
  if (ec) return dominds_detail::yaml_error("team_mgmt_list_dir", path, "FAILED", ec.message());
  std::sort(rows.begin(), rows.end());
  std::string out = "📁 **Directory:** `.minds/" + where->relative.generic_string() + "`\n\n";
  if (rows.empty()) return tool_outcome{true, out + "_This directory is empty._\n"};
  out += "| Name | Type | Size |\n|------|------|------|\n";
  for (std::size_t i = 0; i < rows.size() && i < kTeamMgmtMaxListed; ++i) out += rows[i];
  return tool_outcome{true, out};
}

tool_outcome validate_team(const tool_context& ctx) {
  std::error_code ec;
  if (!fs::is_regular_file(ctx.workspace / ".minds" / "team.yaml", ec)) {
    return tool_outcome{true, "`.minds/team.yaml` not found; nothing to validate."};
  }
  auto loaded = config::load_dominds_workspace(ctx.workspace);
  if (!loaded) return tool_outcome{false, "`.minds/team.yaml`: ❌ " + loaded.err().message};
  if (loaded->problems.empty()) return tool_outcome{true, "`.minds/team.yaml`: ✅ no issues detected"};
  // The team loads; what Parley cannot honour is listed as the problems a start would print.
  std::string out = "`.minds/team.yaml`: ✅ loads, with " + std::to_string(loaded->problems.size()) + " problem(s):";
  for (const auto& problem : loaded->problems) out += "\n- " + problem.text();
  return tool_outcome{true, out};
}

using scoped_body = tool_outcome (*)(const file_scope&, const json::object&, const tool_context&);

std::unique_ptr<tool> scoped(std::string_view name, scoped_body body,
                             function_tool::effects kind = function_tool::effects::outside_log) {
  return std::make_unique<function_tool>(
      dominds_detail::dominds_spec_or_note(name),
      [body](const json::object& args, const tool_context& ctx) { return body(minds_scope(), args, ctx); }, kind);
}

}  // namespace

void register_team_mgmt_tools(tool_registry& registry) {
  using namespace dominds_detail;
  registry.add(std::make_unique<function_tool>(dominds_spec_or_note("team_mgmt_list_dir"), list_minds,
                                               function_tool::effects::none));
  registry.add(scoped("team_mgmt_read_file", read_text_file, function_tool::effects::none));
  registry.add(scoped("team_mgmt_create_new_file", create_new_file));
  registry.add(scoped("team_mgmt_overwrite_entire_file", overwrite_entire_file));
  registry.add(scoped("team_mgmt_file_append", append_to_file));
  registry.add(scoped("team_mgmt_file_insert_after",
                      [](const file_scope& scope, const json::object& args, const tool_context& ctx) {
                        return insert_at_anchor_line(scope, args, ctx, true);
                      }));
  registry.add(scoped("team_mgmt_file_insert_before",
                      [](const file_scope& scope, const json::object& args, const tool_context& ctx) {
                        return insert_at_anchor_line(scope, args, ctx, false);
                      }));
  registry.add(scoped("team_mgmt_file_range_edit", edit_line_range));
  registry.add(scoped("team_mgmt_file_block_replace", replace_anchored_block));
  auto plans = std::make_shared<occurrence_plans>(kMaxOccurrencePlans, kOccurrencePlanAge);
  registry.add(make_prepare_occurrence_replace("team_mgmt_prepare_occurrence_replace", minds_scope(), plans));
  registry.add(make_apply_occurrence_replace("team_mgmt_apply_occurrence_replace", minds_scope(), plans));
  registry.add(std::make_unique<function_tool>(
      dominds_spec_or_note("team_mgmt_validate_team_cfg"),
      [](const json::object&, const tool_context& ctx) { return validate_team(ctx); }, function_tool::effects::none));
  team_mgmt_detail::register_minds_fs_tools(registry);
  team_mgmt_detail::register_minds_info_tools(registry);
  registry.add(team_mgmt_detail::make_check_provider_tool());
  team_mgmt_detail::register_minds_skill_link_tools(registry);
  team_mgmt_detail::register_minds_admin_tools(registry);
}

const std::vector<std::string>& team_mgmt_tool_names() {
  static const std::vector<std::string> names{"team_mgmt_check_provider",
                                              "team_mgmt_list_providers",
                                              "team_mgmt_list_models",
                                              "team_mgmt_validate_priming_scripts",
                                              "team_mgmt_list_dir",
                                              "team_mgmt_read_file",
                                              "team_mgmt_create_new_file",
                                              "team_mgmt_overwrite_entire_file",
                                              "team_mgmt_file_append",
                                              "team_mgmt_file_insert_after",
                                              "team_mgmt_file_insert_before",
                                              "team_mgmt_file_block_replace",
                                              "team_mgmt_file_range_edit",
                                              "team_mgmt_prepare_occurrence_replace",
                                              "team_mgmt_apply_occurrence_replace",
                                              "team_mgmt_mk_dir",
                                              "team_mgmt_move_file",
                                              "team_mgmt_move_dir",
                                              "team_mgmt_read_symlink",
                                              "team_mgmt_create_symlink",
                                              "team_mgmt_rm_symlink",
                                              "team_mgmt_ripgrep_files",
                                              "team_mgmt_ripgrep_snippets",
                                              "team_mgmt_ripgrep_count",
                                              "team_mgmt_ripgrep_fixed",
                                              "team_mgmt_ripgrep_search",
                                              "team_mgmt_rm_file",
                                              "team_mgmt_rm_dir",
                                              "team_mgmt_validate_team_cfg",
                                              "team_mgmt_validate_mcp_cfg",
                                              "team_mgmt_list_problems",
                                              "team_mgmt_clear_problems",
                                              "team_mgmt_link_skill",
                                              "team_mgmt_unlink_skill"};
  return names;
}

}  // namespace parley::tools
