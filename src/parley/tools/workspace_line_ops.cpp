// Reading and editing by line: read_file with a line range, replace_lines and insert_at_anchor.
// Edits read the whole file (bounded by kMaxEditBytes), change the lines in memory and replace the
// file atomically, so a refused edit leaves the file as it was.
#include <algorithm>

#include "parley/core/file_io.hpp"
#include "parley/core/json_fields.hpp"
#include "parley/tools/line_text.hpp"
#include "parley/tools/workspace_access.hpp"
#include "parley/tools/workspace_ops.hpp"

namespace parley::tools::detail {
namespace {

namespace fs = std::filesystem;

std::string line_count_text(std::size_t count) { return std::to_string(count) + (count == 1 ? " line" : " lines"); }

// The line numbers (1-based) whose body contains `anchor`.
std::vector<std::size_t> anchor_lines(const std::vector<std::string>& lines, std::string_view anchor) {
  std::vector<std::size_t> found;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].find(anchor) != std::string::npos) found.push_back(i + 1);
  }
  return found;
}

}  // namespace

result<editable_file> open_for_edit(const tool_context& ctx, const std::string& shown) {
  auto refuse = [](std::string message) { return make_error(errc::invalid_argument, std::move(message)); };
  // An edit reads the file as well (its answers tell what it holds), so it needs both.
  auto where = resolve_for(ctx, shown, file_access::write, access::path_kind::file);
  if (!where) return std::move(where).err();
  if (auto readable = resolve_for(ctx, shown, file_access::read, access::path_kind::file); !readable) {
    return std::move(readable).err();
  }
  std::error_code ec;
  const auto type = fs::status(where->absolute, ec).type();
  if (type == fs::file_type::not_found)
    return refuse(quote_path(shown) + " does not exist; use write_file to create it");
  if (type != fs::file_type::regular) return refuse(quote_path(shown) + " is not a regular file");
  auto text = read_file_prefix(where->absolute, kMaxEditBytes);
  if (!text) return refuse(quote_path(shown) + ": " + text.err().message);
  if (text->bytes.size() < text->size) {
    return refuse(quote_path(shown) + " is too large to edit (" + std::to_string(text->size) + " bytes)");
  }
  if (text->bytes.find('\0') != std::string::npos) return refuse(quote_path(shown) + " looks like a binary file");
  return editable_file{std::move(*where), std::move(text->bytes)};
}

tool_outcome save_edit(const editable_file& file, const std::string& shown, const std::string& edited,
                       std::string_view what) {
  if (auto written = write_file_atomically(file.where.absolute, edited); !written) {
    return failed(quote_path(shown) + ": " + written.err().message);
  }
  return tool_outcome{true, std::string(what) + " (" + std::to_string(file.text.size()) + " -> " +
                                std::to_string(edited.size()) + " bytes)"};
}

tool_outcome read_lines(const tool_context& ctx, const std::string& shown, const workspace_path& where,
                        std::int64_t start_line, std::int64_t end_line, std::uintmax_t max_bytes) {
  (void)ctx;
  auto text = read_file_prefix(where.absolute, kMaxEditBytes);
  if (!text) return failed(quote_path(shown) + ": " + text.err().message);
  if (text->bytes.size() < text->size) {
    return failed(quote_path(shown) + " is too large to read by line (" + std::to_string(text->size) +
                  " bytes); use max_bytes instead");
  }
  if (text->bytes.find('\0') != std::string::npos) {
    return failed(quote_path(shown) + " looks like a binary file; read_file returns text only");
  }
  const auto lines = split_lines(text->bytes);
  const auto count = static_cast<std::int64_t>(lines.size());
  if (start_line > count) {
    return failed("start_line " + std::to_string(start_line) + " is past the end of " + quote_path(shown) +
                  ", which has " + line_count_text(lines.size()));
  }
  if (end_line != 0 && end_line < start_line) {
    return failed("end_line " + std::to_string(end_line) + " is before start_line " + std::to_string(start_line));
  }
  const std::int64_t last = end_line == 0 ? count : std::min(end_line, count);
  std::string body;
  std::int64_t shown_last = start_line - 1;
  for (std::int64_t n = start_line; n <= last; ++n) {
    const auto& line = lines[static_cast<std::size_t>(n - 1)];
    if (body.size() + line.size() > max_bytes) break;
    body += line;
    shown_last = n;
  }
  std::string out = quote_path(shown) + " lines " + std::to_string(start_line) + "-" + std::to_string(shown_last) +
                    " of " + std::to_string(count) + ":\n" + body;
  if (!out.empty() && out.back() != '\n') out += '\n';
  if (shown_last < last) {
    out += "[cut at max_bytes: lines " + std::to_string(shown_last + 1) + "-" + std::to_string(last) +
           " not shown; read them with start_line " + std::to_string(shown_last + 1) + "]";
  }
  return tool_outcome{true, std::move(out)};
}

tool_outcome replace_lines(const boost::json::object& args, const tool_context& ctx) {
  json_fields in(args);
  const std::string shown = in.string("path");
  const std::int64_t start = in.integer("start_line");
  const std::int64_t end = in.integer("end_line");
  const std::string new_text = in.string("new_text");
  if (!in.ok()) return failed(in.message());
  auto file = open_for_edit(ctx, shown);
  if (!file) return failed(file.err().message);
  auto lines = split_lines(file->text);
  const auto count = static_cast<std::int64_t>(lines.size());
  if (start > count + 1) {
    return failed("start_line " + std::to_string(start) + " is past the end of " + quote_path(shown) + ", which has " +
                  line_count_text(lines.size()) + " (use " + std::to_string(count + 1) + " to append)");
  }
  if (end < start - 1) {
    return failed("end_line " + std::to_string(end) + " is before start_line " + std::to_string(start) +
                  " (end_line = start_line - 1 inserts without replacing)");
  }
  if (end > count) {
    return failed("end_line " + std::to_string(end) + " is past the end of " + quote_path(shown) + ", which has " +
                  line_count_text(lines.size()));
  }
  // A file without a final newline keeps none when its last line is replaced.
  const bool ends_file = end == count && !file->text.empty() && file->text.back() != '\n';
  const auto inserted = lines_to_insert(new_text, ends_file);
  // Appending after a last line that had no newline: give it one first.
  if (start == count + 1 && count > 0 && lines.back().back() != '\n' && !inserted.empty()) lines.back() += '\n';
  const auto first = lines.begin() + (start - 1);
  lines.erase(first, lines.begin() + end);
  lines.insert(lines.begin() + (start - 1), inserted.begin(), inserted.end());
  const std::int64_t removed = end - start + 1;
  const std::string what =
      end < start
          ? "inserted " + line_count_text(inserted.size()) + " before line " + std::to_string(start)
          : "replaced lines " + std::to_string(start) + "-" + std::to_string(end) + " (" +
                line_count_text(static_cast<std::size_t>(removed)) + ") with " + line_count_text(inserted.size());
  return save_edit(*file, shown, join_lines(lines), what + " of " + quote_path(shown));
}

tool_outcome insert_at_anchor(const boost::json::object& args, const tool_context& ctx) {
  json_fields in(args);
  const std::string shown = in.string("path");
  const std::string anchor = in.string("anchor");
  const std::string text = in.string("text");
  const std::string position = in.optional_string("position").value_or("after");  // the schema's default
  const std::int64_t occurrence = in.optional_integer("occurrence").value_or(0);  // absent: the only match
  if (!in.ok()) return failed(in.message());
  if (anchor.empty()) return failed("anchor is empty; give text that occurs on the line to insert at");
  if (anchor.find('\n') != std::string::npos) return failed("anchor spans lines; give text from one line");
  auto file = open_for_edit(ctx, shown);
  if (!file) return failed(file.err().message);
  auto lines = split_lines(file->text);
  const auto found = anchor_lines(lines, anchor);
  if (found.empty()) return failed("anchor was not found in " + quote_path(shown) + "; copy it exactly from the file");
  if (occurrence == 0 && found.size() > 1) {
    std::string at;
    for (std::size_t i = 0; i < std::min<std::size_t>(found.size(), 10); ++i) {
      at += (i == 0 ? "" : ", ") + std::to_string(found[i]);
    }
    return failed("anchor matches " + std::to_string(found.size()) + " lines of " + quote_path(shown) + " (lines " +
                  at + (found.size() > 10 ? ", ..." : "") +
                  "); give a longer anchor that matches one line, or occurrence to choose one");
  }
  if (occurrence > static_cast<std::int64_t>(found.size())) {
    return failed("occurrence " + std::to_string(occurrence) + " asked, but anchor matches only " +
                  line_count_text(found.size()) + " of " + quote_path(shown));
  }
  const std::size_t line = found[occurrence == 0 ? 0 : static_cast<std::size_t>(occurrence - 1)];
  const std::size_t at = position == "before" ? line - 1 : line;
  const bool ends_file = at == lines.size() && lines.back().back() != '\n';
  if (ends_file) lines.back() += '\n';
  const auto inserted = lines_to_insert(text, false);
  lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(at), inserted.begin(), inserted.end());
  return save_edit(*file, shown, join_lines(lines),
                   "inserted " + line_count_text(inserted.size()) + " " + position + " line " + std::to_string(line) +
                       " of " + quote_path(shown));
}

}  // namespace parley::tools::detail
