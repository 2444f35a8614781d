#include "parley/tools/unified_diff.hpp"

#include <charconv>
#include <optional>

#include "parley/core/utf8.hpp"
#include "parley/tools/line_text.hpp"

namespace parley::tools {
namespace {

// "a/src/x.cpp\t2024-01-01 ..." -> "src/x.cpp"; "/dev/null" -> "".
std::string diff_path(std::string_view written, std::string_view prefix) {
  if (const auto tab = written.find('\t'); tab != std::string_view::npos) written = written.substr(0, tab);
  while (!written.empty() && (written.back() == ' ' || written.back() == '\r')) written.remove_suffix(1);
  if (written == "/dev/null") return {};
  if (written.starts_with(prefix)) written.remove_prefix(prefix.size());
  return std::string(written);
}

bool read_number(std::string_view& text, std::size_t& out) {
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, out);
  if (ec != std::errc{} || ptr == text.data()) return false;
  text.remove_prefix(static_cast<std::size_t>(ptr - text.data()));
  return true;
}

// "-12,3" or "-12" (count 1).
bool read_range(std::string_view& text, char sign, std::size_t& start, std::size_t& count) {
  if (text.empty() || text.front() != sign) return false;
  text.remove_prefix(1);
  if (!read_number(text, start)) return false;
  count = 1;
  if (!text.empty() && text.front() == ',') {
    text.remove_prefix(1);
    if (!read_number(text, count)) return false;
  }
  return true;
}

std::optional<diff_hunk> parse_hunk_header(std::string_view line) {
  diff_hunk hunk;
  const auto close = line.find(" @@", 3);
  hunk.header = std::string(close == std::string_view::npos ? line : line.substr(0, close + 3));
  std::string_view rest = line.substr(3);
  if (!read_range(rest, '-', hunk.old_start, hunk.old_count)) return std::nullopt;
  if (rest.empty() || rest.front() != ' ') return std::nullopt;
  rest.remove_prefix(1);
  if (!read_range(rest, '+', hunk.new_start, hunk.new_count)) return std::nullopt;
  if (!rest.starts_with(" @@")) return std::nullopt;
  return hunk;
}

error at_line(std::size_t number, std::string message) {
  return make_error(errc::invalid_argument, "patch line " + std::to_string(number) + ": " + std::move(message));
}

}  // namespace

result<std::vector<file_diff>> parse_unified_diff(std::string_view patch) {
  const auto lines = split_lines(patch);
  std::vector<file_diff> files;
  std::size_t i = 0;
  while (i < lines.size()) {
    const std::string_view line = line_body(lines[i]);
    if (!line.starts_with("--- ")) {
      // diff --git, index, new file mode ... and free text between files are skipped.
      if (line.starts_with("@@ ")) return at_line(i + 1, "a hunk before any '--- ' / '+++ ' file header");
      ++i;
      continue;
    }
    if (i + 1 >= lines.size() || !line_body(lines[i + 1]).starts_with("+++ ")) {
      return at_line(i + 2, "expected '+++ <new path>' after " + quoted_excerpt(line));
    }
    file_diff file;
    file.old_path = diff_path(line.substr(4), "a/");
    file.new_path = diff_path(line_body(lines[i + 1]).substr(4), "b/");
    if (file.old_path.empty() && file.new_path.empty()) return at_line(i + 1, "both paths are /dev/null");
    i += 2;
    while (i < lines.size() && line_body(lines[i]).starts_with("@@ ")) {
      auto hunk = parse_hunk_header(line_body(lines[i]));
      if (!hunk) {
        return at_line(i + 1,
                       "expected a hunk header like '@@ -12,3 +12,4 @@', found " + quoted_excerpt(line_body(lines[i])));
      }
      ++i;
      std::size_t old_seen = 0;
      std::size_t new_seen = 0;
      while (old_seen < hunk->old_count || new_seen < hunk->new_count) {
        if (i >= lines.size()) {
          return at_line(i, "the patch ends inside hunk " + hunk->header + " (expected " +
                                std::to_string(hunk->old_count) + " old and " + std::to_string(hunk->new_count) +
                                " new lines)");
        }
        std::string_view body = line_body(lines[i]);
        // An empty line stands for an empty context line: some editors strip the lone space.
        const char kind = body.empty() ? ' ' : body.front();
        if (kind != ' ' && kind != '-' && kind != '+') {
          if (body.starts_with("\\")) {
            ++i;
            continue;
          }
          return at_line(i + 1, "in hunk " + hunk->header + ": a line must start with ' ', '-' or '+', found " +
                                    quoted_excerpt(body) + " (are the hunk's line counts right?)");
        }
        if (!body.empty()) body.remove_prefix(1);
        hunk->lines.push_back({kind, std::string(body), false});
        if (kind != '+') ++old_seen;
        if (kind != '-') ++new_seen;
        ++i;
        if (i < lines.size() && line_body(lines[i]).starts_with("\\")) {
          hunk->lines.back().no_newline = true;
          ++i;
        }
      }
      if (old_seen != hunk->old_count || new_seen != hunk->new_count) {
        return at_line(i, "hunk " + hunk->header + " has " + std::to_string(old_seen) + " old and " +
                              std::to_string(new_seen) + " new lines, not the counts its header says");
      }
      file.hunks.push_back(std::move(*hunk));
    }
    if (file.hunks.empty())
      return at_line(i + 1, "no hunk ('@@ ... @@') after the header of " + quoted_excerpt(line.substr(4)));
    files.push_back(std::move(file));
  }
  if (files.empty())
    return make_error(errc::invalid_argument,
                      "no file in the patch: expected '--- a/<path>' then '+++ b/<path>' and hunks");
  return files;
}

namespace {

bool matches_at(const std::vector<std::string>& file, std::size_t at, const std::vector<const diff_line*>& old) {
  if (at + old.size() > file.size()) return false;
  for (std::size_t k = 0; k < old.size(); ++k) {
    if (line_body(file[at + k]) != old[k]->text) return false;
  }
  return true;
}

std::string why_not_at(const std::vector<std::string>& file, std::size_t at, const std::vector<const diff_line*>& old) {
  for (std::size_t k = 0; k < old.size(); ++k) {
    if (at + k >= file.size()) {
      return "the file has only " + std::to_string(file.size()) + " lines, and the hunk expects " +
             quoted_excerpt(old[k]->text) + " at line " + std::to_string(at + k + 1);
    }
    if (line_body(file[at + k]) != old[k]->text) {
      return "line " + std::to_string(at + k + 1) + " of the file is " + quoted_excerpt(line_body(file[at + k])) +
             " where the hunk expects " + quoted_excerpt(old[k]->text) +
             ", and its lines match nowhere else after the previous hunk";
    }
  }
  return "it overlaps the previous hunk";
}

}  // namespace

patched_text apply_hunks(std::string_view original, const std::vector<diff_hunk>& hunks) {
  const auto file = split_lines(original);
  patched_text out;
  std::vector<std::string> result_lines;
  std::size_t copied_to = 0;  // lines of `file` already copied or replaced
  for (std::size_t h = 0; h < hunks.size(); ++h) {
    const auto& hunk = hunks[h];
    std::vector<const diff_line*> old;
    for (const auto& line : hunk.lines) {
      if (line.kind != '+') old.push_back(&line);
    }
    // Where the header says, in lines of the original: "-l,0" inserts after line l.
    const std::size_t stated = hunk.old_count == 0 ? hunk.old_start : (hunk.old_start == 0 ? 0 : hunk.old_start - 1);
    std::optional<std::size_t> at;
    if (stated >= copied_to && matches_at(file, stated, old)) at = stated;
    for (std::size_t off = 1; !at && off <= file.size(); ++off) {
      if (stated + off <= file.size() && stated + off >= copied_to && matches_at(file, stated + off, old))
        at = stated + off;
      else if (off <= stated && stated - off >= copied_to && matches_at(file, stated - off, old))
        at = stated - off;
    }
    if (!at) {
      out.rejected.push_back({h + 1, hunk.header, why_not_at(file, stated, old)});
      continue;
    }
    if (*at != stated) ++out.moved_hunks;
    for (; copied_to < *at; ++copied_to) result_lines.push_back(file[copied_to]);
    for (const auto& line : hunk.lines) {
      if (line.kind == '-') {
        ++copied_to;
      } else if (line.kind == ' ') {
        result_lines.push_back(file[copied_to++]);
      } else {
        result_lines.push_back(line.text + (line.no_newline ? "" : "\n"));
      }
    }
  }
  for (; copied_to < file.size(); ++copied_to) result_lines.push_back(file[copied_to]);
  // A line that lost its place as the last one needs the newline it never had.
  for (std::size_t k = 0; k + 1 < result_lines.size(); ++k) {
    if (result_lines[k].empty() || result_lines[k].back() != '\n') result_lines[k] += '\n';
  }
  out.text = join_lines(result_lines);
  return out;
}

}  // namespace parley::tools
