#include "parley/tools/dominds_file_ops.hpp"

#include <algorithm>

#include "parley/core/file_io.hpp"
#include "parley/core/json_fields.hpp"
#include "parley/tools/dominds_tool_support.hpp"
#include "parley/tools/line_text.hpp"
#include "parley/tools/workspace_ops.hpp"

namespace parley::tools::dominds_detail {
namespace {

namespace fs = std::filesystem;

constexpr std::int64_t kDomindsDefaultMaxLines = 500;
// Dominds bounds what one read shows by characters as well as lines.
constexpr std::size_t kDomindsReadCharLimit = std::size_t{100} * 1024;

// An error of this file as Dominds names it: errc::not_found is FILE_NOT_FOUND, a refusal of the
// path (confinement, access rules: resolve_for's invalid_argument) is ACCESS_DENIED, a path that is
// not a text file (errc::conflict here) NOT_A_FILE, the rest FAILED.
std::string_view error_code_of(const error& failure) {
  switch (failure.code) {
    case errc::not_found:
      return "FILE_NOT_FOUND";
    case errc::invalid_argument:
      return "ACCESS_DENIED";
    case errc::conflict:
      return "NOT_A_FILE";
    default:
      return "FAILED";
  }
}

}  // namespace

std::string mode_of(const file_scope& scope, std::string_view tool) { return scope.mode_prefix + std::string(tool); }

tool_outcome error_answer(const file_scope& scope, std::string_view tool, std::string_view path, const error& failure) {
  return yaml_error(mode_of(scope, tool), path, error_code_of(failure), failure.message);
}

tool_outcome invalid_args(const file_scope& scope, std::string_view tool, std::string_view message) {
  return yaml_error(mode_of(scope, tool), "", "INVALID_ARGS", message);
}

// A text file to read (for_write false) or to change (both rights needed: an edit's answer tells
// what the file holds).
result<text_file> open_text(const file_scope& scope, const tool_context& ctx, std::string_view shown, bool for_write) {
  if (for_write) PARLEY_TRY(scope.resolve(ctx, shown, file_access::write, access::path_kind::file));
  workspace_path where;
  PARLEY_TRY_ASSIGN(where, scope.resolve(ctx, shown, file_access::read, access::path_kind::file));
  std::error_code ec;
  const auto type = fs::status(where.absolute, ec).type();
  const std::string quoted = detail::quote_path(shown);
  if (type == fs::file_type::not_found) return make_error(errc::not_found, quoted + " does not exist");
  if (type != fs::file_type::regular) return make_error(errc::conflict, quoted + " is not a regular file");
  file_text text;
  PARLEY_TRY_ASSIGN(text, read_file_prefix(where.absolute, detail::kMaxEditBytes));
  if (text.bytes.size() < text.size) {
    return make_error(errc::limit_exceeded, quoted + " is too large (" + std::to_string(text.size) + " bytes)");
  }
  if (text.bytes.find('\0') != std::string::npos) {
    return make_error(errc::conflict, quoted + " looks like a binary file; this tool reads text only");
  }
  return text_file{std::move(where), std::move(text.bytes)};
}

result<void> save_text(const file_scope& scope, const tool_context& ctx, const workspace_path& where,
                       std::string_view text) {
  if (scope.check_write) PARLEY_TRY(scope.check_write(ctx, where, text));
  std::error_code ec;
  fs::create_directories(where.absolute.parent_path(), ec);
  if (ec) return make_error(errc::io_error, "cannot create the folder: " + ec.message());
  return write_file_atomically(where.absolute, text);
}

// The answer of a write: the new totals, and a summary saying what was done.
tool_outcome write_answer(const file_scope& scope, std::string_view tool, std::string_view path, std::string_view text,
                          std::string_view done) {
  const auto lines = count_lines(text);
  return yaml_answer(true, mode_of(scope, tool))
      .quoted("path", path)
      .number("new_total_lines", lines)
      .number("new_total_bytes", static_cast<std::int64_t>(text.size()))
      .quoted("summary", std::string(done) + " path=" + std::string(path) + "; new_total_lines=" +
                             std::to_string(lines) + "; new_total_bytes=" + std::to_string(text.size()) + ".")
      .done();
}

namespace {

// Dominds' numbered lines: the number right-aligned in four columns, then "| ".
std::string numbered(std::int64_t number, std::string_view body) {
  std::string label = std::to_string(number);
  if (label.size() < 4) label.insert(0, 4 - label.size(), ' ');
  return label + "| " + std::string(body) + "\n";
}

struct shown_lines {
  std::string body;
  std::int64_t count = 0;
  bool by_max_lines = false;
  bool by_chars = false;
};

shown_lines select_lines(const std::vector<std::string>& lines, line_range range, std::int64_t max_lines,
                         bool with_numbers) {
  shown_lines out;
  const auto total = static_cast<std::int64_t>(lines.size());
  const std::int64_t last = range.last == 0 ? total : std::min(range.last, total);
  for (std::int64_t n = range.first; n <= last; ++n) {
    if (out.count == max_lines) {
      out.by_max_lines = true;
      break;
    }
    const auto body = line_body(lines[static_cast<std::size_t>(n - 1)]);
    std::string line = with_numbers ? numbered(n, body) : std::string(body) + "\n";
    if (out.body.size() + line.size() > kDomindsReadCharLimit) {
      out.by_chars = true;
      break;
    }
    out.body += line;
    ++out.count;
  }
  return out;
}

}  // namespace

const file_scope& workspace_scope() {
  static const file_scope scope{"",
                                [](const tool_context& ctx, std::string_view path, file_access mode,
                                   access::path_kind kind) { return resolve_for(ctx, path, mode, kind); },
                                nullptr};
  return scope;
}

tool_outcome read_text_file(const file_scope& scope, const boost::json::object& args, const tool_context& ctx) {
  json_fields in(args);
  const std::string path = in.string("path");
  const std::string range_text = in.optional_string("range").value_or("");
  std::int64_t max_lines = in.optional_integer("max_lines").value_or(0);
  const bool with_numbers = in.optional_boolean("show_linenos").value_or(true);
  if (!in.ok()) return invalid_args(scope, "read_file", in.message());
  if (max_lines < 0) return invalid_args(scope, "read_file", "max_lines: must be 0 (the default, 500) or more");
  if (max_lines == 0) max_lines = kDomindsDefaultMaxLines;
  auto range = parse_line_range(range_text, "range");
  if (!range) return invalid_args(scope, "read_file", range.err().message);
  auto file = open_text(scope, ctx, path, false);
  if (!file) return error_answer(scope, "read_file", path, file.err());
  const auto lines = split_lines(file->text);
  const auto total = static_cast<std::int64_t>(lines.size());
  if (total > 0 && range->first > total) {
    return invalid_args(scope, "read_file",
                        "range: starts at line " + std::to_string(range->first) + ", past the end (" +
                            std::to_string(total) + " lines)");
  }
  const auto shown = select_lines(lines, *range, max_lines, with_numbers);
  const auto size = static_cast<std::int64_t>(file->text.size());
  const std::string summary = "read_file: " + path + "; size=" + std::to_string(size) +
                              " bytes; total_lines=" + std::to_string(total) +
                              "; shown=" + std::to_string(shown.count) + ".";
  auto header = yaml_answer(true, mode_of(scope, "read_file"))
                    .quoted("path", path)
                    .number("size_bytes", size)
                    .number("total_lines", total)
                    .number("shown_lines", shown.count)
                    .flag("truncated_by_max_lines", shown.by_max_lines)
                    .flag("truncated_by_char_limit", shown.by_chars)
                    .quoted("summary", summary)
                    .done();
  std::string markdown = header.content + "\n\n📄 **File:** `" + path + "`\n";
  if (shown.by_max_lines || shown.by_chars) {
    markdown += "⚠️ **Warning:** Output was truncated (showing " + std::to_string(shown.count) +
                " lines); read on with range '" + std::to_string(range->first + shown.count) + "~'\n\n";
  }
  markdown += "**Size:** " + std::to_string(size) + " bytes\n**Total lines:** " + std::to_string(total) + "\n\n";
  if (total == 0) return tool_outcome{true, markdown + "_The file is empty._\n"};
  return tool_outcome{true, markdown + "```\n" + shown.body + "```"};
}

tool_outcome create_new_file(const file_scope& scope, const boost::json::object& args, const tool_context& ctx) {
  json_fields in(args);
  const std::string path = in.string("path");
  const std::string content = with_final_newline(in.optional_string("content").value_or(""));
  if (!in.ok()) return invalid_args(scope, "create_new_file", in.message());
  auto where = scope.resolve(ctx, path, file_access::write, access::path_kind::file);
  if (!where) return error_answer(scope, "create_new_file", path, where.err());
  std::error_code ec;
  if (fs::symlink_status(where->absolute, ec).type() != fs::file_type::not_found) {
    return yaml_answer(false, mode_of(scope, "create_new_file"))
        .quoted("path", path)
        .raw("error", "FILE_EXISTS")
        .quoted("summary", "The file already exists; create_new_file never overwrites.")
        .quoted("next", "Read it, then use overwrite_entire_file or a narrower edit tool.")
        .done();
  }
  if (auto saved = save_text(scope, ctx, *where, content); !saved) {
    return error_answer(scope, "create_new_file", path, saved.err());
  }
  return write_answer(scope, "create_new_file", path, content, "Created.");
}

namespace {

// Whether text reads as a diff or patch, which overwrite_entire_file refuses unless told it is one
// (a model that meant apply_patch would otherwise replace the file with its patch).
bool looks_like_patch(std::string_view text) {
  if (text.starts_with("*** Begin Patch")) return true;
  const bool old_header = text.starts_with("--- ") || text.find("\n--- ") != std::string_view::npos;
  const bool new_header = text.find("\n+++ ") != std::string_view::npos;
  return old_header && new_header && text.find("\n@@") != std::string_view::npos;
}

}  // namespace

tool_outcome overwrite_entire_file(const file_scope& scope, const boost::json::object& args, const tool_context& ctx) {
  json_fields in(args);
  const std::string path = in.string("path");
  const std::string content = with_final_newline(in.optional_string("content").value_or(""));
  const auto known_lines = in.optional_integer("known_old_total_lines");
  const auto known_bytes = in.optional_integer("known_old_total_bytes");
  const std::string format = in.optional_string("content_format").value_or("");
  if (!in.ok()) return invalid_args(scope, "overwrite_entire_file", in.message());
  if (!format.empty() && format != "diff" && format != "patch") {
    return invalid_args(scope, "overwrite_entire_file", "content_format: must be 'diff' or 'patch' when given");
  }
  auto file = open_text(scope, ctx, path, true);
  if (!file) return error_answer(scope, "overwrite_entire_file", path, file.err());
  const auto old_lines = count_lines(file->text);
  const auto old_bytes = static_cast<std::int64_t>(file->text.size());
  if ((known_lines && *known_lines != old_lines) || (known_bytes && *known_bytes != old_bytes)) {
    return yaml_answer(false, mode_of(scope, "overwrite_entire_file"))
        .quoted("path", path)
        .raw("error", "STATS_MISMATCH")
        .number("actual_old_total_lines", old_lines)
        .number("actual_old_total_bytes", old_bytes)
        .quoted("summary", "The file is not what you think it is: its line or byte count differs.")
        .quoted("next", "Read the file again, then overwrite with its current totals.")
        .done();
  }
  if (format.empty() && looks_like_patch(content)) {
    return yaml_error(mode_of(scope, "overwrite_entire_file"), path, "SUSPICIOUS_DIFF",
                      "The content looks like a diff or patch; use apply_patch, or set content_format to "
                      "'diff' or 'patch' to write it as the file's text.");
  }
  if (auto saved = save_text(scope, ctx, file->where, content); !saved) {
    return error_answer(scope, "overwrite_entire_file", path, saved.err());
  }
  return write_answer(scope, "overwrite_entire_file", path, content, "Overwritten.");
}

tool_outcome append_to_file(const file_scope& scope, const boost::json::object& args, const tool_context& ctx) {
  json_fields in(args);
  const std::string path = in.string("path");
  const std::string content = in.optional_string("content").value_or("");
  const bool create = in.optional_boolean("create").value_or(true);
  if (!in.ok()) return invalid_args(scope, "file_append", in.message());
  if (content.empty())
    return yaml_error(mode_of(scope, "file_append"), path, "CONTENT_REQUIRED", "Content is required.");
  auto file = open_text(scope, ctx, path, true);
  std::string text;
  workspace_path where;
  if (file) {
    text = std::move(file->text);
    where = std::move(file->where);
    if (!text.empty() && text.back() != '\n') text += '\n';
  } else if (file.err().code == errc::not_found && create) {
    auto created = scope.resolve(ctx, path, file_access::write, access::path_kind::file);
    if (!created) return error_answer(scope, "file_append", path, created.err());
    where = std::move(*created);
  } else {
    return error_answer(scope, "file_append", path, file.err());
  }
  text += with_final_newline(content);
  if (auto saved = save_text(scope, ctx, where, text); !saved)
    return error_answer(scope, "file_append", path, saved.err());
  return write_answer(scope, "file_append", path, text, "Appended.");
}

namespace {

// The 0-based index of the anchor line `occurrence` names (1-based, or "last"), or why there is none.
result<std::size_t> find_anchor_line(const std::vector<std::string>& lines, std::string_view anchor, bool equals,
                                     const boost::json::value* occurrence) {
  std::vector<std::size_t> found;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto body = line_body(lines[i]);
    if (equals ? body == anchor : body.find(anchor) != std::string_view::npos) found.push_back(i);
  }
  if (found.empty())
    return make_error(errc::not_found,
                      "anchor: no line " + std::string(equals ? "equals " : "contains ") + quoted_excerpt(anchor));
  if (occurrence == nullptr) {
    if (found.size() > 1) {
      return make_error(errc::conflict, "anchor: found on " + std::to_string(found.size()) +
                                            " lines; pass occurrence (1-based, or 'last') to choose one");
    }
    return found.front();
  }
  if (occurrence->is_string() && occurrence->get_string() == "last") return found.back();
  if (!occurrence->is_int64() || occurrence->get_int64() < 1) {
    return make_error(errc::invalid_argument, "occurrence: must be a positive integer or 'last'");
  }
  const auto index = static_cast<std::size_t>(occurrence->get_int64());
  if (index > found.size()) {
    return make_error(errc::not_found, "occurrence: " + std::to_string(index) + " asked, the anchor is on " +
                                           std::to_string(found.size()) + " line(s)");
  }
  return found[index - 1];
}

}  // namespace

tool_outcome insert_at_anchor_line(const file_scope& scope, const boost::json::object& args, const tool_context& ctx,
                                   bool after) {
  const std::string_view tool = after ? "file_insert_after" : "file_insert_before";
  json_fields in(args);
  const std::string path = in.string("path");
  const std::string anchor = in.string("anchor");
  const std::string content = in.optional_string("content").value_or("");
  const std::string match = in.optional_string("match").value_or("contains");
  if (!in.ok()) return invalid_args(scope, tool, in.message());
  if (match != "contains" && match != "equals")
    return invalid_args(scope, tool, "match: must be 'contains' or 'equals'");
  if (content.empty()) return yaml_error(mode_of(scope, tool), path, "CONTENT_REQUIRED", "Content is required.");
  auto file = open_text(scope, ctx, path, true);
  if (!file) return error_answer(scope, tool, path, file.err());
  auto lines = split_lines(file->text);
  auto at = find_anchor_line(lines, anchor, match == "equals", args.if_contains("occurrence"));
  if (!at) return yaml_error(mode_of(scope, tool), path, "ANCHOR_NOT_USABLE", at.err().message);
  const std::size_t insert_at = after ? *at + 1 : *at;
  // Inserted after a last line without a newline: that line gets one first.
  if (insert_at == lines.size() && !lines.empty() && !lines.back().ends_with('\n')) lines.back() += '\n';
  auto inserted = lines_to_insert(content, false);
  const auto added = static_cast<std::int64_t>(inserted.size());
  lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(insert_at), inserted.begin(), inserted.end());
  const std::string text = join_lines(lines);
  if (auto saved = save_text(scope, ctx, file->where, text); !saved)
    return error_answer(scope, tool, path, saved.err());
  return write_answer(scope, tool, path, text,
                      "Inserted " + std::to_string(added) + " line(s) " + (after ? "after" : "before") + " line " +
                          std::to_string(*at + 1) + ".");
}

tool_outcome edit_line_range(const file_scope& scope, const boost::json::object& args, const tool_context& ctx) {
  json_fields in(args);
  const std::string path = in.string("path");
  const std::string range_text = in.string("range");
  const std::string content = in.optional_string("content").value_or("");
  if (!in.ok()) return invalid_args(scope, "file_range_edit", in.message());
  auto range = parse_line_range(range_text, "range");
  if (!range) return invalid_args(scope, "file_range_edit", range.err().message);
  auto file = open_text(scope, ctx, path, true);
  if (!file) return error_answer(scope, "file_range_edit", path, file.err());
  auto lines = split_lines(file->text);
  const auto total = static_cast<std::int64_t>(lines.size());
  // 'N~' with N one past the end appends, as in Dominds.
  if (range->first > total + 1 || (range->last != 0 && range->last > total)) {
    return invalid_args(scope, "file_range_edit",
                        "range: '" + range_text + "' is outside the file's " + std::to_string(total) + " lines");
  }
  const std::int64_t last = range->last == 0 ? total : range->last;
  const bool ends_file = last == total;
  auto replacement = lines_to_insert(content, ends_file && total > 0 && !lines.back().ends_with('\n'));
  const auto begin = lines.begin() + static_cast<std::ptrdiff_t>(range->first - 1);
  const auto end = lines.begin() + static_cast<std::ptrdiff_t>(std::max(last, range->first - 1));
  if (begin == lines.end() && !lines.empty() && !lines.back().ends_with('\n')) lines.back() += '\n';
  lines.erase(begin, end);
  lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(range->first - 1), replacement.begin(), replacement.end());
  const std::string text = join_lines(lines);
  if (auto saved = save_text(scope, ctx, file->where, text); !saved) {
    return error_answer(scope, "file_range_edit", path, saved.err());
  }
  return write_answer(scope, "file_range_edit", path, text, "Range " + range_text + " replaced.");
}

}  // namespace parley::tools::dominds_detail
