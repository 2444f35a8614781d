// Registration of Dominds' tool names, the file-system ones (list_dir, rm_*, mk_dir, move_*) as
// adapters over Parley's, and the table of what is left out.
#include "parley/tools/dominds_tools.hpp"

#include <boost/json/array.hpp>

#include <algorithm>
#include <array>
#include <map>

#include "parley/core/file_io.hpp"
#include "parley/core/json_fields.hpp"
#include "parley/tools/dominds_file_ops.hpp"
#include "parley/tools/dominds_occurrence_replace.hpp"
#include "parley/tools/dominds_os_tools.hpp"
#include "parley/tools/dominds_tool_support.hpp"
#include "parley/tools/function_tool.hpp"
#include "parley/tools/image_read.hpp"
#include "parley/tools/team_mgmt_tools.hpp"
#include "parley/tools/workspace_ops.hpp"

namespace parley::tools {
namespace {

namespace json = boost::json;
namespace fs = std::filesystem;
using dominds_detail::adapter_tool;
using dominds_detail::yaml_answer;

tool_spec spec_of(std::string_view name) { return dominds_detail::dominds_spec_or_note(name); }

// A list_dir line of Parley's ("name/", "name  (12 bytes)", "name -> target", ...) as a row of
// Dominds' table (| Name | Type | Size | Lines | Target |); other lines are notes.
std::string listing_row(std::string_view line) {
  std::string name(line);
  std::string type = "file";
  std::string size = "-";
  std::string target;
  if (const auto arrow = line.find(" -> "); arrow != std::string_view::npos) {
    name = line.substr(0, arrow);
    type = "symlink";
    target = "→ " + std::string(line.substr(arrow + 4));
  } else if (const auto note = line.find("  ("); note != std::string_view::npos) {
    name = line.substr(0, note);
    const auto detail = line.substr(note + 3, line.size() - note - 4);
    if (detail.ends_with(" bytes"))
      size = std::string(detail.substr(0, detail.size() - 6));
    else
      type = std::string(detail);
  }
  if (name.ends_with('/')) {
    name.pop_back();
    if (type == "file") type = "dir";
  }
  const std::string icon = type == "dir" ? "📁" : type == "symlink" ? "🔗" : "📄";
  return "| " + icon + " `" + name + "` | " + type + " | " + size + " | - | " + target + " |\n";
}

tool_outcome reshape_listing(const json::object& args, tool_outcome parley) {
  const auto* path_value = args.if_contains("path");
  const std::string path =
      path_value != nullptr && path_value->is_string() ? std::string(path_value->get_string()) : ".";
  if (!parley.ok) return dominds_detail::yaml_error("list_dir", path, "FAILED", parley.content);
  std::string rows;
  std::string notes;
  std::size_t start = 0;
  while (start < parley.content.size()) {
    auto end = parley.content.find('\n', start);
    if (end == std::string::npos) end = parley.content.size();
    const std::string_view line(parley.content.data() + start, end - start);
    if (line.starts_with("(") || line.starts_with("... ")) {
      notes += std::string(line) + "\n";
    } else if (!line.empty()) {
      rows += listing_row(line);
    }
    start = end + 1;
  }
  std::string out = "📁 **Directory:** `" + path + "`\n\n";
  if (rows.empty()) return tool_outcome{true, out + "_This directory is empty._\n" + notes};
  return tool_outcome{
      true, out + "| Name | Type | Size | Lines | Target |\n|------|------|------|-------|--------|\n" + rows + notes};
}

// The answer of a file-system change: Parley's sentence as the summary.
adapter_tool::reshape_fn fs_answer(std::string mode, std::string path_field) {
  return [mode = std::move(mode), path_field = std::move(path_field)](const json::object& args, tool_outcome parley) {
    const auto* value = args.if_contains(path_field);
    const std::string path = value != nullptr && value->is_string() ? std::string(value->get_string()) : "";
    if (!parley.ok) return dominds_detail::yaml_error(mode, path, "FAILED", parley.content);
    return yaml_answer(true, mode).quoted(path_field, path).quoted("summary", parley.content).done();
  };
}

std::unique_ptr<tool> parley_function(tool_spec spec, function_tool::body body) {
  return std::make_unique<function_tool>(std::move(spec), std::move(body));
}

// rm_file and rm_dir (rm_symlink: dominds_link_tools.cpp) remove only what they name: the path is judged by the access
// rules first (so a refusal reveals nothing), then its kind, then Parley's remove_path does the work.
tool_outcome remove_of_kind(const json::object& args, const tool_context& ctx, fs::file_type kind,
                            std::string_view mode) {
  json_fields in(args);
  const std::string path = in.string("path");
  const bool recursive = in.optional_boolean("recursive").value_or(false);
  if (!in.ok()) return dominds_detail::yaml_error(mode, "", "INVALID_ARGS", in.message());
  auto allowed = resolve_for(ctx, path, file_access::write,
                             kind == fs::file_type::directory ? access::path_kind::directory : access::path_kind::file);
  if (!allowed) return dominds_detail::yaml_error(mode, path, "ACCESS_DENIED", allowed.err().message);
  std::error_code ec;
  const auto found = fs::symlink_status(ctx.workspace / fs::path(path).lexically_normal(), ec).type();
  if (found != kind) {
    const char* wanted = kind == fs::file_type::directory ? "a directory"
                         : kind == fs::file_type::symlink ? "a symlink"
                                                          : "a file";
    return dominds_detail::yaml_error(mode, path, found == fs::file_type::not_found ? "NOT_FOUND" : "WRONG_TYPE",
                                      "'" + path + "' is not " + wanted);
  }
  json::object parley_args{{"path", path}};
  if (recursive) parley_args["recursive"] = true;
  auto removed = detail::remove_path(parley_args, ctx);
  if (!removed.ok) return dominds_detail::yaml_error(mode, path, "FAILED", removed.content);
  return yaml_answer(true, mode).quoted("path", path).quoted("summary", removed.content).done();
}

// read_picture: Parley's image read (image_read.hpp), which gives a PNG or JPEG to a member whose
// model takes images and refuses it to one whose model does not.
tool_outcome read_picture(const json::object& args, const tool_context& ctx) {
  json_fields in(args);
  const std::string path = in.string("path");
  if (!in.ok()) return dominds_detail::yaml_error("read_picture", "", "INVALID_ARGS", in.message());
  auto where = resolve_for(ctx, path, file_access::read, access::path_kind::file);
  if (!where) return dominds_detail::yaml_error("read_picture", path, "ACCESS_DENIED", where.err().message);
  auto head = read_file_prefix(where->absolute, 8);
  if (!head) return dominds_detail::yaml_error("read_picture", path, "FILE_NOT_FOUND", head.err().message);
  const auto kind = detail::sniff_image(head->bytes);
  if (!kind) {
    return dominds_detail::yaml_error("read_picture", path, "UNSUPPORTED_FORMAT",
                                      "Parley reads PNG and JPEG images; this file is neither");
  }
  return detail::read_image(ctx, path, where->absolute, head->size, *kind);
}

void register_file_system_tools(tool_registry& registry) {
  dominds_detail::register_link_tools(registry);
  dominds_detail::register_picture_write_tool(registry);
  registry.add(std::make_unique<function_tool>(spec_of("read_picture"), read_picture, function_tool::effects::none));
  registry.add(
      std::make_unique<adapter_tool>(spec_of("list_dir"),
                                     std::make_unique<function_tool>(tool_spec{"list_dir", "", json::object{}},
                                                                     detail::list_dir, function_tool::effects::none),
                                     dominds_detail::same_arguments, reshape_listing));
  registry.add(parley_function(spec_of("rm_file"), [](const json::object& args, const tool_context& ctx) {
    return remove_of_kind(args, ctx, fs::file_type::regular, "rm_file");
  }));
  registry.add(parley_function(spec_of("rm_dir"), [](const json::object& args, const tool_context& ctx) {
    return remove_of_kind(args, ctx, fs::file_type::directory, "rm_dir");
  }));
  auto make_dir_args = [](const json::object& args) -> result<json::object> {
    json_fields in(args);
    const std::string path = in.string("path");
    (void)in.optional_boolean("parents");  // Parley always creates the parents
    if (!in.ok()) return make_error(errc::invalid_argument, in.message());
    return json::object{{"path", path}};
  };
  registry.add(std::make_unique<adapter_tool>(
      spec_of("mk_dir"), parley_function(tool_spec{"make_dir", "", json::object{}}, detail::make_dir), make_dir_args,
      fs_answer("mk_dir", "path")));
  for (const char* name : {"move_file", "move_dir"}) {
    registry.add(std::make_unique<adapter_tool>(
        spec_of(name), parley_function(tool_spec{"move_path", "", json::object{}}, detail::move_path),
        dominds_detail::same_arguments, fs_answer(name, "from")));
  }
}

void register_text_tools(tool_registry& registry) {
  using namespace dominds_detail;
  const auto& scope = workspace_scope();
  registry.add(std::make_unique<function_tool>(
      spec_of("read_file"),
      [&scope](const json::object& args, const tool_context& ctx) { return read_text_file(scope, args, ctx); },
      function_tool::effects::none));
  registry.add(parley_function(spec_of("create_new_file"), [&scope](const json::object& args, const tool_context& ctx) {
    return create_new_file(scope, args, ctx);
  }));
  registry.add(parley_function(
      spec_of("overwrite_entire_file"),
      [&scope](const json::object& args, const tool_context& ctx) { return overwrite_entire_file(scope, args, ctx); }));
  registry.add(parley_function(spec_of("file_append"), [&scope](const json::object& args, const tool_context& ctx) {
    return append_to_file(scope, args, ctx);
  }));
  registry.add(
      parley_function(spec_of("file_insert_after"), [&scope](const json::object& args, const tool_context& ctx) {
        return insert_at_anchor_line(scope, args, ctx, true);
      }));
  registry.add(
      parley_function(spec_of("file_insert_before"), [&scope](const json::object& args, const tool_context& ctx) {
        return insert_at_anchor_line(scope, args, ctx, false);
      }));
  registry.add(parley_function(spec_of("file_range_edit"), [&scope](const json::object& args, const tool_context& ctx) {
    return edit_line_range(scope, args, ctx);
  }));
  registry.add(
      parley_function(spec_of("file_block_replace"), [&scope](const json::object& args, const tool_context& ctx) {
        return replace_anchored_block(scope, args, ctx);
      }));
  auto plans = std::make_shared<occurrence_plans>(kMaxOccurrencePlans, kOccurrencePlanAge);
  registry.add(make_prepare_occurrence_replace("prepare_occurrence_replace", scope, plans));
  registry.add(make_apply_occurrence_replace("apply_occurrence_replace", scope, plans));
}

constexpr std::array<std::string_view, 7> kManualToolsets{
    "ws_read", "ws_mod", "os", "personal_memory", "team_memory", "codex_inspect_and_patch_tools", "team_mgmt"};

// man: Dominds' toolset manual, here the tools of each toolset Parley serves with their
// descriptions (Parley has no other sections: a topic is taken and the tools are shown).
tool_outcome toolset_manual(const json::object& args, const tool_context&) {
  json_fields in(args);
  const auto toolset = in.optional_string("toolsetId");
  (void)in.optional_string("topic");
  (void)in.optional_strings("topics");
  if (!in.ok()) return tool_outcome{false, in.message()};
  if (!toolset || toolset->empty()) {
    std::string out = "Toolsets with a manual (call man with toolsetId):\n";
    for (const auto name : kManualToolsets) out += "- `" + std::string(name) + "`\n";
    return tool_outcome{true, out};
  }
  if (std::find(kManualToolsets.begin(), kManualToolsets.end(), *toolset) == kManualToolsets.end()) {
    return tool_outcome{false, "toolsetId: no manual for '" + *toolset + "'; call man without toolsetId for the list"};
  }
  std::string out = "# " + *toolset + "\n\n## tools\n\n";
  for (const auto& name : dominds_toolset_tools(*toolset)) {
    out += "- `" + name + "`: " + spec_of(name).description + "\n";
  }
  return tool_outcome{true, out};
}

}  // namespace

result<tool_spec> dominds_tool_spec(std::string_view name) { return dominds_detail::dominds_spec(name); }

void dominds_detail::register_workspace_fs_tools(tool_registry& registry) { register_file_system_tools(registry); }

void end_dominds_daemons(const tool_registry& registry) { dominds_detail::end_daemons(registry); }

void keep_dominds_os_state(const tool_registry& from, tool_registry& to) { dominds_detail::keep_os_state(from, to); }

void register_dominds_tools(tool_registry& registry) {
  register_file_system_tools(registry);
  register_text_tools(registry);
  dominds_detail::register_search_tools(registry);
  dominds_detail::register_shell_and_memory_tools(registry);
  register_team_mgmt_tools(registry);
  registry.add(std::make_unique<function_tool>(spec_of("man"), toolset_manual, function_tool::effects::none));
}

// The ws_mod tools Parley offered later than the others (issue 46 item 3).
constexpr std::array<std::string_view, 6> kWsModLaterTools{"read_symlink",
                                                           "create_symlink",
                                                           "write_picture",
                                                           "file_block_replace",
                                                           "prepare_occurrence_replace",
                                                           "apply_occurrence_replace"};

std::vector<std::string> dominds_toolset_tools(std::string_view toolset) {
  static const std::vector<std::string> ripgrep{"ripgrep_files", "ripgrep_snippets", "ripgrep_count", "ripgrep_fixed",
                                                "ripgrep_search"};
  std::vector<std::string> names;
  if (toolset == "ws_read") {
    names = {"list_dir", "read_symlink", "read_file", "read_picture"};
  } else if (toolset == "ws_mod") {
    names = {"list_dir",        "rm_dir",      "rm_file",           "rm_symlink",        "mk_dir",
             "move_file",       "move_dir",    "read_file",         "create_new_file",   "overwrite_entire_file",
             "file_range_edit", "file_append", "file_insert_after", "file_insert_before"};
    names.insert(names.end(), kWsModLaterTools.begin(), kWsModLaterTools.end());
    // The scratch pads are dialog tools (engine/dominds_pads.hpp): they live in the dialog.
    names.insert(names.end(), {"pad_write", "pad_load_file_range", "pad_edit", "pad_insert", "pad_delete_range",
                               "pad_copy", "pad_move", "pad_delete"});
  } else if (toolset == "os") {
    return {"shell_cmd", "stop_daemon", "get_daemon_output", "env_get", "env_set", "env_unset"};
  } else if (toolset == "personal_memory") {
    return {"add_personal_memory", "drop_personal_memory", "replace_personal_memory", "clear_personal_memory"};
  } else if (toolset == "team_memory") {
    return {"add_team_memory", "drop_team_memory", "replace_team_memory", "clear_team_memory"};
  } else if (toolset == "codex_inspect_and_patch_tools") {
    return {"readonly_shell", "apply_patch"};
  } else if (toolset == "team_mgmt") {
    return team_mgmt_tool_names();
  } else {
    return {};
  }
  names.insert(names.end(), ripgrep.begin(), ripgrep.end());
  return names;
}

}  // namespace parley::tools
