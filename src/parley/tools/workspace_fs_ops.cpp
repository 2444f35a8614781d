// move_path, remove_path and make_dir. A folder moved or removed takes everything inside it, so
// every entry inside is judged by the member's write rules first (bounded by kMaxTreeEntries) and
// one entry it may not write refuses the whole operation before anything changes.
#include "parley/core/json_fields.hpp"
#include "parley/tools/workspace_access.hpp"
#include "parley/tools/workspace_ops.hpp"

namespace parley::tools::detail {
namespace {

namespace fs = std::filesystem;

// Why the tree at `where` (a folder) may not be moved or removed as a whole, or "".
std::string tree_refusal(const tool_context& ctx, const workspace_path& where, std::string_view shown) {
  if (ctx.protected_dirs != nullptr) {
    for (const auto& dir : *ctx.protected_dirs) {
      const fs::path rel = dir.path.lexically_relative(where.absolute);
      if (!rel.empty() && *rel.begin() != "..") return quote_path(shown) + " contains " + dir.what;
    }
  }
  std::error_code ec;
  std::size_t seen = 0;
  for (fs::recursive_directory_iterator it(where.absolute, ec), end; !ec && it != end; it.increment(ec)) {
    if (++seen > kMaxTreeEntries) {
      return quote_path(shown) + " holds more than " + std::to_string(kMaxTreeEntries) +
             " entries; move or remove it in parts";
    }
    const fs::path relative = (where.relative / it->path().lexically_relative(where.absolute)).lexically_normal();
    const auto kind =
        it->is_directory(ec) && !it->is_symlink(ec) ? access::path_kind::directory : access::path_kind::file;
    if (auto verdict = check_path(ctx, relative.generic_string(), file_access::write, kind); !verdict) {
      return quote_path(shown) + " contains " + quote_path(relative.generic_string()) +
             ", which is not writable for you: " + verdict.reason;
    }
  }
  if (ec) return "cannot look inside " + quote_path(shown) + ": " + ec.message();
  return {};
}

bool is_real_directory(const fs::path& path) {
  std::error_code ec;
  return fs::symlink_status(path, ec).type() == fs::file_type::directory;
}

}  // namespace

tool_outcome move_path(const boost::json::object& args, const tool_context& ctx) {
  json_fields in(args);
  const std::string from_shown = in.string("from");
  const std::string to_shown = in.string("to");
  const bool overwrite = in.optional_boolean("overwrite").value_or(false);  // the schema's default
  if (!in.ok()) return failed(in.message());
  auto from = resolve_for(ctx, from_shown, file_access::write, access::path_kind::file);
  if (!from) return failed(from.err().message);
  if (from->relative == ".") return failed("the workspace itself cannot be moved");
  std::error_code ec;
  const auto from_type = fs::symlink_status(from->absolute, ec).type();
  if (from_type == fs::file_type::not_found) return failed(quote_path(from_shown) + " does not exist");
  const bool folder = from_type == fs::file_type::directory;
  const auto kind = folder ? access::path_kind::directory : access::path_kind::file;
  auto to = resolve_for(ctx, to_shown, file_access::write, kind);
  if (!to) return failed(to.err().message);
  if (to->relative == ".") return failed("'to' is the workspace itself; name the new path");
  if (folder) {
    if (auto why = tree_refusal(ctx, *from, from_shown); !why.empty()) return failed(why);
    const fs::path inside = to->absolute.lexically_relative(from->absolute);
    if (!inside.empty() && *inside.begin() != "..") return failed("cannot move a folder into itself");
  }
  const auto to_type = fs::symlink_status(to->absolute, ec).type();
  if (to_type != fs::file_type::not_found) {
    if (!overwrite) return failed(quote_path(to_shown) + " already exists; pass overwrite: true to replace it");
    if (to_type == fs::file_type::directory)
      return failed(quote_path(to_shown) + " is an existing folder; remove it first");
    if (folder) return failed(quote_path(to_shown) + " exists and is not a folder; a folder cannot replace a file");
  }
  fs::create_directories(to->absolute.parent_path(), ec);
  if (ec) return failed("cannot create the folder for " + quote_path(to_shown) + ": " + ec.message());
  fs::rename(from->absolute, to->absolute, ec);
  if (ec) return failed("cannot move " + quote_path(from_shown) + " to " + quote_path(to_shown) + ": " + ec.message());
  return tool_outcome{true, "moved " + quote_path(from_shown) + " to " + quote_path(to_shown)};
}

tool_outcome remove_path(const boost::json::object& args, const tool_context& ctx) {
  json_fields in(args);
  const std::string shown = in.string("path");
  const bool recursive = in.optional_boolean("recursive").value_or(false);  // the schema's default
  if (!in.ok()) return failed(in.message());
  auto where = resolve_for(ctx, shown, file_access::write, access::path_kind::file);
  if (!where) return failed(where.err().message);
  if (where->relative == ".") return failed("the workspace itself cannot be removed");
  std::error_code ec;
  // The link itself goes, never what it points to.
  const fs::path target = (where->root / where->lexical).lexically_normal();
  const auto type = fs::symlink_status(target, ec).type();
  if (type == fs::file_type::not_found) return failed(quote_path(shown) + " does not exist");
  if (!is_real_directory(target)) {
    fs::remove(target, ec);
    if (ec) return failed("cannot remove " + quote_path(shown) + ": " + ec.message());
    return tool_outcome{true, "removed " + quote_path(shown)};
  }
  const bool empty = fs::is_empty(target, ec);
  if (!empty && !recursive) {
    return failed(quote_path(shown) +
                  " is a folder that is not empty; pass recursive: true to remove it with all it holds");
  }
  if (auto verdict =
          check_path(ctx, where->relative.generic_string(), file_access::write, access::path_kind::directory);
      !verdict) {
    return failed(access_refusal(shown, file_access::write, *where, verdict, false));
  }
  if (auto why = tree_refusal(ctx, *where, shown); !why.empty()) return failed(why);
  const auto removed = fs::remove_all(target, ec);
  if (ec) return failed("cannot remove " + quote_path(shown) + ": " + ec.message());
  return tool_outcome{true, "removed " + quote_path(shown) + " (" + std::to_string(removed) + " entries)"};
}

tool_outcome make_dir(const boost::json::object& args, const tool_context& ctx) {
  json_fields in(args);
  const std::string shown = in.string("path");
  if (!in.ok()) return failed(in.message());
  auto where = resolve_for(ctx, shown, file_access::write, access::path_kind::directory);
  if (!where) return failed(where.err().message);
  std::error_code ec;
  const auto type = fs::status(where->absolute, ec).type();
  if (type == fs::file_type::directory) return tool_outcome{true, quote_path(shown) + " already exists"};
  if (type != fs::file_type::not_found) return failed(quote_path(shown) + " exists and is not a folder");
  fs::create_directories(where->absolute, ec);
  if (ec) return failed("cannot create " + quote_path(shown) + ": " + ec.message());
  return tool_outcome{true, "created the folder " + quote_path(shown)};
}

}  // namespace parley::tools::detail
