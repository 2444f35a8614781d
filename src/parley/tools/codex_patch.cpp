// Parsing the Codex apply_patch format (codex_patch.hpp). Applying its hunks is in
// codex_patch_apply.cpp.
#include "parley/tools/codex_patch.hpp"

#include <cctype>
#include <optional>

#include "parley/core/text.hpp"
#include "parley/core/utf8.hpp"
#include "parley/tools/line_text.hpp"

namespace parley::tools {
namespace {

constexpr std::string_view kBeginPatch = "*** Begin Patch";
constexpr std::string_view kEndPatch = "*** End Patch";
constexpr std::string_view kAddFile = "*** Add File:";
constexpr std::string_view kDeleteFile = "*** Delete File:";
constexpr std::string_view kUpdateFile = "*** Update File:";
constexpr std::string_view kMoveTo = "*** Move to:";
constexpr std::string_view kEndOfFile = "*** End of File";
constexpr std::string_view kSectionStart = "*** ";

struct file_section {
  std::string_view prefix;
  codex_action action;
};
constexpr file_section kFileSections[] = {
    {kAddFile, codex_action::add}, {kUpdateFile, codex_action::update}, {kDeleteFile, codex_action::remove}};

error at_line(std::size_t number, std::string message) {
  return make_error(errc::invalid_argument, "patch line " + std::to_string(number) + ": " + std::move(message));
}

bool is_blank(std::string_view line) { return trim(line).empty(); }

// Marker lines compare without the spaces a model may leave after them.
std::string_view trim_end(std::string_view line) {
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
  return line;
}

// The path after a "*** Add File:"-like prefix, or nullopt when `line` is not that marker.
std::optional<std::string> path_after(std::string_view line, std::string_view prefix) {
  if (!line.starts_with(prefix)) return std::nullopt;
  return std::string(trim(line.substr(prefix.size())));
}

// "-12,3 +12,4 @@": a unified diff's hunk header, which some models write inside this format.
bool is_line_number_range(std::string_view text) {
  return text.size() >= 2 && text[0] == '-' && std::isdigit(static_cast<unsigned char>(text[1])) &&
         text.find(" +") != std::string_view::npos && text.find("@@") != std::string_view::npos;
}

// The anchor of an "@@" line; empty for a bare "@@" (or a unified range, whose numbers mean nothing here).
std::string anchor_of(std::string_view line) {
  std::string_view rest = line.substr(2);
  if (rest.starts_with(' ')) rest.remove_prefix(1);  // the separator; what follows keeps its indentation
  rest = trim_end(rest);
  if (is_line_number_range(rest)) return {};
  return std::string(rest);
}

// A hunk being read, with the bare empty lines at its end: those are taken for blank lines that
// separate sections rather than empty context lines, unless '*** End of File' follows them.
struct open_hunk {
  codex_hunk hunk;
  std::size_t trailing_bare_lines = 0;
  bool begun = false;  // an '@@' or a line was read

  void begin(std::size_t patch_line) {
    if (begun) return;
    hunk.patch_line = patch_line;
    begun = true;
  }
};

class codex_parser {
 public:
  explicit codex_parser(std::string_view patch) : lines_(split_lines(patch)) {}

  result<std::vector<codex_file_change>> parse() {
    PARLEY_TRY(read_begin());
    std::vector<codex_file_change> changes;
    while (true) {
      skip_blank_lines();
      if (done()) return at_line(lines_.size(), "the patch ends without '*** End Patch'");
      if (trim_end(current()) == kEndPatch) break;
      codex_file_change change;
      PARLEY_TRY_ASSIGN(change, read_change());
      changes.push_back(std::move(change));
    }
    if (changes.empty()) {
      return at_line(number(), "'*** End Patch' before any '*** Add File:', '*** Update File:' or '*** Delete File:'");
    }
    ++next_;
    skip_blank_lines();
    if (!done()) return at_line(number(), "nothing may follow '*** End Patch', got " + quoted_excerpt(current()));
    return changes;
  }

 private:
  bool done() const { return next_ >= lines_.size(); }
  std::string_view current() const { return line_body(lines_[next_]); }
  std::size_t number() const { return next_ + 1; }
  bool at_section_start() const { return !done() && current().starts_with(kSectionStart); }

  void skip_blank_lines() {
    while (!done() && is_blank(current())) ++next_;
  }

  // True when the lines from here to the next section (or the end) are all blank.
  bool only_blank_lines_until_section() const {
    std::size_t i = next_;
    while (i < lines_.size() && is_blank(line_body(lines_[i]))) ++i;
    return i >= lines_.size() || line_body(lines_[i]).starts_with(kSectionStart);
  }

  result<void> read_begin() {
    skip_blank_lines();
    if (done()) return make_error(errc::invalid_argument, "the patch is empty: expected '*** Begin Patch'");
    if (trim_end(current()) != kBeginPatch) {
      return at_line(number(), "expected '*** Begin Patch', got " + quoted_excerpt(current()));
    }
    ++next_;
    return ok();
  }

  result<codex_file_change> read_change() {
    const std::string_view line = trim_end(current());
    codex_file_change change;
    change.patch_line = number();
    std::optional<std::string> path;
    for (const auto& section : kFileSections) {
      if ((path = path_after(line, section.prefix))) {
        change.action = section.action;
        break;
      }
    }
    if (!path) {
      return at_line(number(),
                     "expected '*** Add File: <path>', '*** Update File: <path>', '*** Delete File: <path>' or '*** "
                     "End Patch', got " +
                         quoted_excerpt(current()));
    }
    if (path->empty()) return at_line(number(), quoted_excerpt(line) + " names no file: a path must follow the colon");
    change.path = std::move(*path);
    ++next_;
    switch (change.action) {
      case codex_action::add:
        PARLEY_TRY(read_added_lines(change));
        break;
      case codex_action::update:
        PARLEY_TRY(read_update(change));
        break;
      case codex_action::remove:
        PARLEY_TRY(expect_no_lines(change));
        break;
    }
    return change;
  }

  result<void> read_added_lines(codex_file_change& change) {
    for (; !done() && !at_section_start(); ++next_) {
      const std::string_view line = current();
      if (line.starts_with('+')) {
        change.content.append(line.substr(1)).push_back('\n');
      } else if (!is_blank(line) || !only_blank_lines_until_section()) {
        return at_line(number(), "in added file " + quoted_excerpt(change.path) +
                                     ": expected a line starting with '+', got " + quoted_excerpt(line) +
                                     " (every line of a new file, even an empty one, is written '+')");
      }
    }
    return ok();
  }

  result<void> expect_no_lines(const codex_file_change& change) {
    skip_blank_lines();
    if (done() || at_section_start()) return ok();
    return at_line(number(), "'*** Delete File: " + change.path + "' takes no lines; expected a '*** ' line, got " +
                                 quoted_excerpt(current()));
  }

  result<void> read_update(codex_file_change& change) {
    if (!done()) {
      if (auto to = path_after(trim_end(current()), kMoveTo)) {
        if (to->empty()) return at_line(number(), "'*** Move to:' names no file: a path must follow the colon");
        if (*to != change.path) change.move_to = std::move(*to);
        ++next_;
      }
    }
    PARLEY_TRY(read_hunks(change));
    if (change.hunks.empty() && change.move_to.empty()) {
      return at_line(number(),
                     "expected a hunk for '*** Update File: " + change.path + "' (patch line " +
                         std::to_string(change.patch_line) +
                         "): lines starting with ' ', '-' or '+', after an optional '@@ <anchor>' line; got " +
                         (done() ? std::string("the end of the patch") : quoted_excerpt(current())));
    }
    return ok();
  }

  result<void> read_hunks(codex_file_change& change) {
    open_hunk open;
    bool after_end_of_file = false;  // only '@@', a section or blank lines may follow '*** End of File'
    for (; !done() && (!at_section_start() || trim_end(current()) == kEndOfFile); ++next_) {
      const std::string_view line = current();
      if (line.starts_with("@@")) {
        if (!open.hunk.lines.empty()) PARLEY_TRY(close_hunk(open, change));
        open.begin(number());
        if (auto anchor = anchor_of(line); !anchor.empty()) open.hunk.anchors.push_back(std::move(anchor));
        after_end_of_file = false;
      } else if (trim_end(line) == kEndOfFile) {
        if (open.hunk.lines.empty()) return at_line(number(), "'*** End of File' must follow the lines of a hunk");
        open.hunk.end_of_file = true;
        open.trailing_bare_lines = 0;  // the empty lines before it are the file's last lines
        PARLEY_TRY(close_hunk(open, change));
        after_end_of_file = true;
      } else if (after_end_of_file) {
        if (!is_blank(line)) {
          return at_line(number(),
                         "expected '@@' or a '*** ' line after '*** End of File', got " + quoted_excerpt(line));
        }
      } else {
        PARLEY_TRY(add_hunk_line(open, line));
      }
    }
    return close_hunk(open, change);
  }

  result<void> add_hunk_line(open_hunk& open, std::string_view line) {
    // An empty (or only tab-indented blank) line stands for an empty context line: editors and
    // models drop the lone space, and whitespace is compared loosely anyway.
    const bool bare = is_blank(line) && !line.starts_with(' ');
    const char kind = bare ? ' ' : line.front();
    if (kind != ' ' && kind != '-' && kind != '+') {
      return at_line(number(), "expected a line starting with ' ', '-', '+', '@@' or '*** ', got " +
                                   quoted_excerpt(line) + " (a context line starts with a space)");
    }
    open.begin(number());
    open.hunk.lines.push_back({kind, std::string(bare ? std::string_view{} : line.substr(1))});
    open.trailing_bare_lines = bare ? open.trailing_bare_lines + 1 : 0;
    return ok();
  }

  result<void> close_hunk(open_hunk& open, codex_file_change& change) {
    open.hunk.lines.resize(open.hunk.lines.size() - open.trailing_bare_lines);
    if (open.hunk.lines.empty() && !open.hunk.anchors.empty()) {
      return at_line(open.hunk.patch_line, "the hunk after " + quoted_excerpt("@@ " + open.hunk.anchors.back()) +
                                               " has no lines starting with ' ', '-' or '+'");
    }
    if (!open.hunk.lines.empty()) change.hunks.push_back(std::move(open.hunk));
    open = open_hunk{};
    return ok();
  }

  std::vector<std::string> lines_;
  std::size_t next_ = 0;
};

}  // namespace

std::string codex_hunk::label() const {
  std::string out = "patch line " + std::to_string(patch_line);
  // Cut like quoted_excerpt cuts a line (line_text.hpp).
  for (const auto& anchor : anchors) out += ", @@ " + utf8_excerpt(anchor, 120);
  return out;
}

bool is_codex_patch(std::string_view patch) {
  for (const auto& line : split_lines(patch)) {
    const std::string_view body = line_body(line);
    if (!is_blank(body)) return trim_end(body) == kBeginPatch;
  }
  return false;
}

result<std::vector<codex_file_change>> parse_codex_patch(std::string_view patch) { return codex_parser(patch).parse(); }

}  // namespace parley::tools
