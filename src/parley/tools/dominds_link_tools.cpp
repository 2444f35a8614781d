// Dominds' read_symlink, create_symlink and rm_symlink (and, run on `.minds/` by team_mgmt_fs_tools.cpp, their
// team_mgmt twins). A link is judged where it is — its folder resolved inside the workspace, its own
// path checked by the member's rules — never by where it points, which read_symlink only reports.
// create_symlink makes a link only where the member may write, to a target given relative to the
// link's folder that stays inside the workspace and that the member may read (both as written and
// as resolved through links already there). A later write through a link is judged on the path it
// resolves to by every file tool (workspace_access.hpp), so a link is no way around the write rules.
#include <boost/json/object.hpp>

#include "parley/core/json_fields.hpp"
#include "parley/tools/dominds_tool_support.hpp"
#include "parley/tools/function_tool.hpp"
#include "parley/tools/workspace_access.hpp"

namespace parley::tools::dominds_detail {
namespace {

namespace json = boost::json;
namespace fs = std::filesystem;

// Where the link `path` is (or is to be): its folder resolved and confined, the path judged for
// `mode` as written and through the folder's real place. Errors are errc::invalid_argument.
result<workspace_path> link_location(const tool_context& ctx, std::string_view path, file_access mode) {
  const fs::path given = fs::path(std::string(path)).lexically_normal();
  const fs::path name = given.filename();
  if (name.empty() || name == "." || name == "..") {
    return make_error(errc::invalid_argument, "path: '" + std::string(path) + "' names a folder, not a link");
  }
  if (is_taskdoc_package_name(name.native())) {
    return make_error(errc::invalid_argument, "path: '" + std::string(path) + "' is a Taskdoc package name");
  }
  const fs::path parent = given.has_parent_path() ? given.parent_path() : fs::path(".");
  workspace_path folder;
  PARLEY_TRY_ASSIGN(folder, resolve_workspace_path(ctx.workspace, parent.generic_string()));
  workspace_path where{folder.absolute / name, (folder.relative / name).lexically_normal(),
                       (folder.lexical / name).lexically_normal(), folder.root};
  if (const auto* dir = protected_dir_for(ctx, where)) {
    return make_error(errc::invalid_argument, "'" + std::string(path) + "' is inside " + dir->what);
  }
  auto [verdict, resolved_one] = judge_both(
      where, [&](const std::string& relative) { return check_path(ctx, relative, mode, access::path_kind::file); });
  if (!verdict) return make_error(errc::invalid_argument, access_refusal(path, mode, where, verdict, resolved_one));
  return where;
}

tool_outcome read_link(const json::object& args, const tool_context& ctx) {
  json_fields in(args);
  const std::string path = in.string("path");
  if (!in.ok() || path.empty()) {
    return yaml_error("read_symlink", "", "PATH_REQUIRED", in.ok() ? "path: must not be empty" : in.message());
  }
  auto where = link_location(ctx, path, file_access::read);
  if (!where) return yaml_error("read_symlink", path, "ACCESS_DENIED", where.err().message);
  std::error_code ec;
  const auto type = fs::symlink_status(where->absolute, ec).type();
  if (type == fs::file_type::not_found)
    return yaml_error("read_symlink", path, "FILE_NOT_FOUND", "'" + path + "' does not exist.");
  if (type != fs::file_type::symlink)
    return yaml_error("read_symlink", path, "NOT_SYMLINK", "Read-symlink failed: path is not a symlink.");
  const std::string target = fs::read_symlink(where->absolute, ec).generic_string();
  if (ec) return yaml_error("read_symlink", path, "FAILED", ec.message());
  return yaml_answer(true, "read_symlink")
      .quoted("path", path)
      .quoted("target", target)
      .quoted("summary", "Read-symlink: " + path + " -> " + target + ".")
      .done();
}

struct link_request {
  std::string path;
  std::string target;
  std::optional<std::string> type;
};

result<link_request> read_link_request(const json::object& args) {
  json_fields in(args);
  link_request req{in.string("path"), in.string("target"), in.optional_string("symlink_type")};
  if (!in.ok()) return make_error(errc::invalid_argument, in.message());
  if (req.path.empty()) return make_error(errc::invalid_argument, "path: must not be empty");
  if (req.target.empty()) return make_error(errc::invalid_argument, "target: must not be empty");
  if (req.target.find('\0') != std::string::npos)
    return make_error(errc::invalid_argument, "target: contains a NUL character");
  if (fs::path(req.target).is_absolute()) {
    return make_error(errc::invalid_argument,
                      "target: must be relative to the link's folder (an absolute target would not move with the "
                      "workspace)");
  }
  // A hint for Windows, where Node makes each kind differently; a POSIX link is one kind.
  if (req.type && *req.type != "file" && *req.type != "dir" && *req.type != "junction")
    return make_error(errc::invalid_argument, "symlink_type: must be 'file', 'dir' or 'junction'");
  return req;
}

// Why the member may not point a link at `target` from `where`'s folder, or nothing.
std::optional<std::string> target_refusal(const tool_context& ctx, const workspace_path& where,
                                          const std::string& target) {
  for (const auto& from : {where.lexical.parent_path(), where.relative.parent_path()}) {
    const fs::path joined = (from / target).lexically_normal();
    const std::string relative = joined.empty() ? "." : joined.generic_string();
    if (relative == ".." || relative.starts_with("../")) return "target: '" + target + "' leads outside the workspace";
    std::error_code ec;
    const bool is_dir = fs::is_directory(where.root / joined, ec);
    auto readable =
        resolve_for(ctx, relative, file_access::read, is_dir ? access::path_kind::directory : access::path_kind::file);
    if (!readable) return "target: " + readable.err().message;
  }
  return std::nullopt;
}

tool_outcome create_link(const json::object& args, const tool_context& ctx) {
  auto req = read_link_request(args);
  if (!req) return yaml_error("create_symlink", "", "INVALID_ARGS", req.err().message);
  const auto refuse = [&](std::string_view code, std::string_view summary) {
    return yaml_answer(false, "create_symlink")
        .quoted("path", req->path)
        .quoted("target", req->target)
        .raw("error", code)
        .quoted("summary", summary)
        .done();
  };
  auto where = link_location(ctx, req->path, file_access::write);
  if (!where) return refuse("ACCESS_DENIED", where.err().message);
  std::error_code ec;
  if (!fs::is_directory(where->absolute.parent_path(), ec))
    return refuse("PARENT_NOT_DIR", "Create-symlink failed: parent directory does not exist. Use mk_dir first.");
  if (fs::symlink_status(where->absolute, ec).type() != fs::file_type::not_found)
    return refuse("PATH_EXISTS", "Create-symlink failed: path already exists.");
  if (auto why = target_refusal(ctx, *where, req->target)) return refuse("ACCESS_DENIED", *why);
  fs::create_symlink(req->target, where->absolute, ec);
  if (ec) return refuse("FAILED", ec.message());
  auto answer = yaml_answer(true, "create_symlink");
  answer.quoted("path", req->path).quoted("target", req->target);
  if (req->type) answer.quoted("symlink_type", *req->type);
  return answer.quoted("summary", "Create-symlink: " + req->path + " -> " + req->target + ".").done();
}

// rm_symlink: the link goes, never its target, judged by where the link is — so a link whose target
// is gone, or lies where the member may not write, can still be removed from a folder it may write.
tool_outcome remove_link(const json::object& args, const tool_context& ctx) {
  json_fields in(args);
  const std::string path = in.string("path");
  if (!in.ok()) return yaml_error("rm_symlink", "", "INVALID_ARGS", in.message());
  auto where = link_location(ctx, path, file_access::write);
  if (!where) return yaml_error("rm_symlink", path, "ACCESS_DENIED", where.err().message);
  std::error_code ec;
  const auto type = fs::symlink_status(where->absolute, ec).type();
  if (type != fs::file_type::symlink) {
    return yaml_error("rm_symlink", path, type == fs::file_type::not_found ? "NOT_FOUND" : "WRONG_TYPE",
                      "'" + path + "' is not a symlink");
  }
  fs::remove(where->absolute, ec);
  if (ec) return yaml_error("rm_symlink", path, "FAILED", "cannot remove '" + path + "': " + ec.message());
  return yaml_answer(true, "rm_symlink").quoted("path", path).quoted("summary", "removed '" + path + "'").done();
}

}  // namespace

void register_link_tools(tool_registry& registry) {
  registry.add(std::make_unique<function_tool>(dominds_spec_or_note("rm_symlink"), remove_link));
  registry.add(
      std::make_unique<function_tool>(dominds_spec_or_note("read_symlink"), read_link, function_tool::effects::none));
  registry.add(std::make_unique<function_tool>(dominds_spec_or_note("create_symlink"), create_link));
}

}  // namespace parley::tools::dominds_detail
