#include "parley/tools/workspace_access.hpp"

namespace parley::tools {
namespace {

namespace fs = std::filesystem;

bool is_inside(const fs::path& path, const fs::path& folder) {
  const fs::path rel = path.lexically_relative(folder);
  return !rel.empty() && *rel.begin() != "..";
}

std::string in_quotes(std::string_view text) { return "'" + std::string(text) + "'"; }

}  // namespace

const access::access_rules& rules_of(const tool_context& ctx) {
  static const access::access_rules kNone;
  return ctx.access != nullptr ? *ctx.access : kNone;
}

const protected_dir* protected_dir_of(const tool_context& ctx, const fs::path& absolute) {
  if (ctx.protected_dirs == nullptr) return nullptr;
  for (const auto& dir : *ctx.protected_dirs) {
    if (is_inside(absolute, dir.path)) return &dir;
  }
  return nullptr;
}

std::string own_memory_folder(const tool_context& ctx) {
  return ctx.member_id.empty() ? std::string{} : ".minds/memory/individual/" + ctx.member_id;
}

access::verdict check_path(const tool_context& ctx, std::string_view relative_path, file_access mode,
                           access::path_kind kind) {
  const std::string own = own_memory_folder(ctx);
  if (!own.empty() && (relative_path == own || relative_path.starts_with(own + "/"))) return {};
  const auto& rules = rules_of(ctx);
  auto verdict =
      mode == file_access::read ? rules.check_read(relative_path, kind) : rules.check_write(relative_path, kind);
  if (!verdict && !own.empty() && (relative_path == ".minds" || relative_path.starts_with(".minds/")))
    verdict.reason += " (your own memory folder, " + own + "/, excepted)";
  return verdict;
}

const protected_dir* protected_dir_for(const tool_context& ctx, const workspace_path& where) {
  if (const auto* dir = protected_dir_of(ctx, where.absolute)) return dir;
  return protected_dir_of(ctx, (where.root / where.lexical).lexically_normal());
}

std::string access_refusal(std::string_view shown, file_access mode, const workspace_path& where,
                           const access::verdict& verdict, bool resolved_one) {
  std::string message =
      in_quotes(shown) + (mode == file_access::read ? " is not readable for you: " : " is not writable for you: ");
  if (resolved_one) {
    message += "it leads through a symbolic link to " + in_quotes(where.relative.generic_string()) + ", and ";
  }
  return message + verdict.reason;
}

result<workspace_path> resolve_for(const tool_context& ctx, std::string_view path, file_access mode,
                                   access::path_kind kind) {
  auto where = resolve_workspace_path(ctx.workspace, path);
  if (!where) return where;
  if (const auto* dir = protected_dir_for(ctx, *where)) {
    return make_error(errc::invalid_argument, in_quotes(path) + " is inside " + dir->what + " (" + dir->path.string() +
                                                  "), which file tools never touch");
  }
  auto [verdict, resolved_one] =
      judge_both(*where, [&](const std::string& relative) { return check_path(ctx, relative, mode, kind); });
  if (!verdict) return make_error(errc::invalid_argument, access_refusal(path, mode, *where, verdict, resolved_one));
  return where;
}

}  // namespace parley::tools
