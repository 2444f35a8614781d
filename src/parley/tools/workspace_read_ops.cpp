// list_dir and read_file (images: image_read.hpp).
#include <algorithm>
#include <vector>

#include "parley/core/file_io.hpp"
#include "parley/core/json_fields.hpp"
#include "parley/tools/image_read.hpp"
#include "parley/tools/workspace_access.hpp"
#include "parley/tools/workspace_ops.hpp"

namespace parley::tools::detail {
namespace {

namespace fs = std::filesystem;

struct listed_entry {
  std::string name;
  std::string line;
};

std::string describe_entry(const fs::directory_entry& entry) {
  const std::string name = entry.path().filename().string();
  std::error_code ec;
  const auto type = entry.symlink_status(ec).type();
  if (is_taskdoc_package_name(name))
    return name + (type == fs::file_type::directory ? "/" : "") + "  (taskdoc package)";
  switch (type) {
    case fs::file_type::directory:
      return name + "/";
    case fs::file_type::regular: {
      const auto size = entry.file_size(ec);
      return ec ? name : name + "  (" + std::to_string(size) + " bytes)";
    }
    case fs::file_type::symlink: {
      const auto target = fs::read_symlink(entry.path(), ec);
      return ec ? name + "  (symbolic link)" : name + " -> " + target.string();
    }
    default:
      return name + "  (special file)";
  }
}

// Whether list_dir shows an entry: never one in a protected folder or a reserved place (except
// Taskdoc packages, shown with their marker so the model knows to use change_mind), else one the
// member may read — by its own path and, for a link, by where it leads — or, while passing
// through a folder outside read_dirs, a folder on the way to a read scope.
bool visible(const tool_context& ctx, const workspace_path& folder, const fs::directory_entry& entry,
             bool passing_through) {
  std::error_code ec;
  const fs::path name = entry.path().filename();
  const bool is_link = entry.is_symlink(ec);
  const bool is_dir = entry.is_directory(ec);  // follows links
  const auto kind = is_dir ? access::path_kind::directory : access::path_kind::file;
  if (protected_dir_of(ctx, folder.absolute / name) != nullptr) return false;
  workspace_path at{folder.absolute / name, (folder.relative / name).lexically_normal(),
                    (folder.lexical / name).lexically_normal(), folder.root};
  if (is_link) {
    const fs::path target = fs::weakly_canonical(at.absolute, ec);
    if (ec) return true;  // a link that cannot be resolved is shown as a link; opening it is refused
    if (protected_dir_of(ctx, target) != nullptr) return false;
    const fs::path rel = target.lexically_relative(folder.root);
    if (rel.empty() || *rel.begin() == "..") return true;  // leaves the workspace: shown, refused when opened
    at.relative = rel;
  }
  if (!passing_through && !is_link && is_taskdoc_package_name(name.native())) return true;
  const auto& rules = rules_of(ctx);
  if (judge_both(at, [&](const std::string& relative) {
        return check_path(ctx, relative, file_access::read, kind);
      }).first) {
    return true;
  }
  if (!passing_through || !is_dir) return false;
  return static_cast<bool>(judge_both(at, [&](const std::string& relative) {
                             return access::verdict{rules.may_pass_through(relative), {}};
                           }).first);
}

// Trims a cut-off read back to the last whole UTF-8 character.
void trim_partial_character(std::string& text) {
  std::size_t cut = text.size();
  std::size_t back = 0;
  while (cut > 0 && back < 4 && (static_cast<unsigned char>(text[cut - 1]) & 0xC0U) == 0x80U) {
    --cut;
    ++back;
  }
  if (cut == 0) return;
  const auto lead = static_cast<unsigned char>(text[cut - 1]);
  const std::size_t width = lead >= 0xF0U ? 4 : lead >= 0xE0U ? 3 : lead >= 0xC0U ? 2 : 1;
  if (width > back + 1) text.resize(cut - 1);
}

}  // namespace

tool_outcome list_dir(const boost::json::object& args, const tool_context& ctx) {
  json_fields in(args);
  const std::string shown = in.optional_string("path").value_or(".");  // the schema's default: the workspace
  if (!in.ok()) return failed(in.message());
  const auto& rules = rules_of(ctx);
  auto where = resolve_for(ctx, shown, file_access::read, access::path_kind::directory);
  // A folder outside read_dirs may still be listed when it leads towards one (only the entries
  // on the way are shown), so the model can find its way to what it may read.
  bool passing_through = false;
  if (!where) {
    auto plain = resolve_workspace_path(ctx.workspace, shown);
    if (!plain || protected_dir_for(ctx, *plain) != nullptr) return failed(where.err().message);
    const auto through = judge_both(*plain, [&](const std::string& relative) {
                           return access::verdict{rules.may_pass_through(relative), {}};
                         }).first;
    if (!through) return failed(where.err().message);
    where = std::move(plain);
    passing_through = true;
  }
  std::error_code ec;
  const auto type = fs::status(where->absolute, ec).type();
  if (type == fs::file_type::not_found) return failed(quote_path(shown) + " does not exist");
  if (type != fs::file_type::directory) return failed(quote_path(shown) + " is not a directory; use read_file");

  std::vector<listed_entry> entries;
  std::size_t hidden = 0;
  for (fs::directory_iterator it(where->absolute, ec), end; !ec && it != end; it.increment(ec)) {
    if (!visible(ctx, *where, *it, passing_through)) {
      ++hidden;
      continue;
    }
    entries.push_back({it->path().filename().string(), describe_entry(*it)});
  }
  if (ec) return failed("cannot list " + quote_path(shown) + ": " + ec.message());
  const std::string hidden_note =
      hidden == 0 ? std::string{} : "(" + std::to_string(hidden) + " entries hidden: not readable for you)\n";
  if (entries.empty()) return tool_outcome{true, hidden == 0 ? "(empty directory)" : hidden_note};
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  std::string out;
  const std::size_t shown_count = std::min(entries.size(), kMaxListedEntries);
  for (std::size_t i = 0; i < shown_count; ++i) out += entries[i].line + "\n";
  if (entries.size() > shown_count) {
    out += "... and " + std::to_string(entries.size() - shown_count) + " more entries\n";
  }
  return tool_outcome{true, out + hidden_note};
}

tool_outcome read_file(const boost::json::object& args, const tool_context& ctx) {
  json_fields in(args);
  const std::string shown = in.string("path");
  // Absent fields: the schema's defaults (the first line, to the end, kDefaultReadBytes).
  const auto start_line = in.optional_integer("start_line");
  const auto end_line = in.optional_integer("end_line");
  const auto asked_bytes = in.optional_integer("max_bytes").value_or(kDefaultReadBytes);
  if (!in.ok()) return failed(in.message());
  auto where = resolve_for(ctx, shown, file_access::read, access::path_kind::file);
  if (!where) return failed(where.err().message);
  const auto max_bytes = static_cast<std::uintmax_t>(std::clamp<std::int64_t>(asked_bytes, 1, kMaxReadBytes));
  std::error_code ec;
  const auto type = fs::status(where->absolute, ec).type();
  if (type == fs::file_type::not_found) return failed(quote_path(shown) + " does not exist");
  if (type == fs::file_type::directory) return failed(quote_path(shown) + " is a directory; use list_dir");
  if (type != fs::file_type::regular) return failed(quote_path(shown) + " is not a regular file");
  if (auto head = read_file_prefix(where->absolute, 8); head) {
    if (const auto image = sniff_image(head->bytes)) return read_image(ctx, shown, where->absolute, head->size, *image);
  }
  if (start_line || end_line) {
    return read_lines(ctx, shown, *where, start_line.value_or(1), end_line.value_or(0), max_bytes);
  }

  auto text = read_file_prefix(where->absolute, max_bytes);
  if (!text) return failed(quote_path(shown) + ": " + text.err().message);
  if (text->bytes.find('\0') != std::string::npos) {
    return failed(quote_path(shown) + " looks like a binary file (" + std::to_string(text->size) +
                  " bytes); read_file returns text only");
  }
  if (text->bytes.size() < text->size) {
    trim_partial_character(text->bytes);
    text->bytes += "\n[truncated: showing the first " + std::to_string(text->bytes.size()) + " of " +
                   std::to_string(text->size) + " bytes; pass a larger max_bytes to read more]";
  }
  return tool_outcome{true, std::move(text->bytes)};
}

}  // namespace parley::tools::detail
