// Applying the hunks of a Codex patch to text (codex_patch.hpp): each hunk located below the
// previous one, then spliced in; a hunk that matches nowhere is rejected with the line that
// differs at the place it came closest to matching.
#include <algorithm>
#include <optional>

#include "parley/core/text.hpp"
#include "parley/core/utf8.hpp"
#include "parley/tools/codex_patch.hpp"
#include "parley/tools/line_text.hpp"

namespace parley::tools {
namespace {

// Tried in this order over the whole searched range: a looser match is taken only when no exact one exists.
constexpr match_looseness kLooseness[] = {match_looseness::exact, match_looseness::trailing_whitespace,
                                          match_looseness::surrounding_whitespace};

std::string_view comparable(std::string_view line, match_looseness how) {
  switch (how) {
    case match_looseness::exact:
      return line;
    case match_looseness::trailing_whitespace: {
      const auto last = line.find_last_not_of(kAsciiWhitespace);
      return last == std::string_view::npos ? std::string_view{} : line.substr(0, last + 1);
    }
    case match_looseness::surrounding_whitespace:
      return trim(line);
  }
  return line;
}

bool same_line(std::string_view file_line, std::string_view wanted, match_looseness how) {
  return comparable(line_body(file_line), how) == comparable(wanted, how);
}

using file_lines = std::vector<std::string>;
using wanted_lines = std::vector<std::string_view>;

bool matches_at(const file_lines& file, std::size_t at, const wanted_lines& wanted, match_looseness how) {
  if (at + wanted.size() > file.size()) return false;
  for (std::size_t k = 0; k < wanted.size(); ++k) {
    if (!same_line(file[at + k], wanted[k], how)) return false;
  }
  return true;
}

struct found_at {
  std::size_t line = 0;  // 0-based index into the file's lines
  match_looseness how = match_looseness::exact;
};

// The first place at or below `from` where `wanted` matches, at the strictest looseness that finds one.
std::optional<found_at> find_lines(const file_lines& file, const wanted_lines& wanted, std::size_t from) {
  for (const auto how : kLooseness) {
    for (std::size_t at = from; at + wanted.size() <= file.size(); ++at) {
      if (matches_at(file, at, wanted, how)) return found_at{at, how};
    }
  }
  return std::nullopt;
}

// `wanted` as the file's last lines, when they start at or below `from`.
std::optional<found_at> find_lines_at_end(const file_lines& file, const wanted_lines& wanted, std::size_t from) {
  if (wanted.size() > file.size() || file.size() - wanted.size() < from) return std::nullopt;
  const std::size_t at = file.size() - wanted.size();
  for (const auto how : kLooseness) {
    if (matches_at(file, at, wanted, how)) return found_at{at, how};
  }
  return std::nullopt;
}

std::string searched_range(std::size_t from) {
  return from == 0 ? "anywhere in the file" : "from line " + std::to_string(from + 1) + " of the file on";
}

// When lines the search missed are above where it started, the patch has its hunks out of order.
std::string out_of_order_hint(const file_lines& file, const wanted_lines& wanted, std::size_t from) {
  const auto earlier = find_lines(file, wanted, 0);
  if (!earlier || earlier->line >= from) return {};
  return " (they are at line " + std::to_string(earlier->line + 1) +
         ", above the previous hunk or anchor: hunks must come in the order of the file)";
}

std::string why_anchor_not_found(const file_lines& file, std::string_view anchor, std::size_t from) {
  return "its anchor " + quoted_excerpt("@@ " + std::string(anchor)) + " matches no line " + searched_range(from) +
         out_of_order_hint(file, {anchor}, from);
}

// The place at or below `from` where the most of `wanted`'s first lines match, however loosely.
std::pair<std::size_t, std::size_t> closest_place(const file_lines& file, const wanted_lines& wanted,
                                                  std::size_t from) {
  std::size_t best_at = from;
  std::size_t best_length = 0;
  for (std::size_t at = from; at < file.size(); ++at) {
    std::size_t length = 0;
    while (length < wanted.size() && at + length < file.size() &&
           same_line(file[at + length], wanted[length], match_looseness::surrounding_whitespace)) {
      ++length;
    }
    if (length > best_length) {
      best_at = at;
      best_length = length;
    }
  }
  return {best_at, best_length};
}

std::string why_not_found(const file_lines& file, const wanted_lines& wanted, std::size_t from) {
  if (const auto hint = out_of_order_hint(file, wanted, from); !hint.empty()) {
    return "its old lines (context and removals) do not match " + searched_range(from) + hint;
  }
  const auto [at, length] = closest_place(file, wanted, from);
  if (length == 0) {
    return "its first old line " + quoted_excerpt(wanted.front()) + " matches no line " + searched_range(from) +
           ", not even ignoring whitespace";
  }
  if (at + length >= file.size()) {
    return "its old lines match from line " + std::to_string(at + 1) + " to the end of the file, where it expects " +
           quoted_excerpt(wanted[length]) + " next";
  }
  return "its old lines (context and removals) do not match " + searched_range(from) +
         "; the closest place starts at line " + std::to_string(at + 1) + ", where line " +
         std::to_string(at + length + 1) + " of the file is " + quoted_excerpt(line_body(file[at + length])) +
         " but the hunk expects " + quoted_excerpt(wanted[length]);
}

std::string why_not_at_end(const file_lines& file, const wanted_lines& wanted, std::size_t from) {
  const std::size_t left = file.size() - std::min(from, file.size());
  if (wanted.size() > left) {
    return "with '*** End of File' its " + std::to_string(wanted.size()) + " old lines must end the file, but only " +
           std::to_string(left) + " lines are left " + searched_range(from);
  }
  const std::size_t at = file.size() - wanted.size();
  std::size_t k = 0;
  while (k < wanted.size() && same_line(file[at + k], wanted[k], match_looseness::surrounding_whitespace)) ++k;
  return "with '*** End of File' its old lines must be the file's last " + std::to_string(wanted.size()) +
         " lines, but line " + std::to_string(at + k + 1) + " of the file is " +
         quoted_excerpt(line_body(file[at + k])) + " where the hunk expects " + quoted_excerpt(wanted[k]);
}

wanted_lines old_lines_of(const codex_hunk& hunk) {
  wanted_lines old;
  for (const auto& line : hunk.lines) {
    if (line.kind != '+') old.push_back(line.text);
  }
  return old;
}

// New lines end like the file's: a CRLF file stays CRLF.
std::string newline_of(const file_lines& file) {
  return !file.empty() && file.front().ends_with("\r\n") ? "\r\n" : "\n";
}

class hunk_splicer {
 public:
  explicit hunk_splicer(std::string_view original) : file_(split_lines(original)), newline_(newline_of(file_)) {}

  void apply(const codex_hunk& hunk, std::size_t number) {
    auto where = locate(hunk, number);
    if (!where) return;
    if (where->how != match_looseness::exact) out_.loose.push_back({number, where->how});
    splice(hunk, where->line);
  }

  codex_patched_text finish() && {
    for (; copied_to_ < file_.size(); ++copied_to_) lines_.push_back(file_[copied_to_]);
    // A line that lost its place as the last one needs the newline it never had.
    for (std::size_t k = 0; k + 1 < lines_.size(); ++k) {
      if (!lines_[k].ends_with('\n')) lines_[k] += newline_;
    }
    out_.text = join_lines(lines_);
    return std::move(out_);
  }

 private:
  // Where the hunk's old lines start, or nullopt with the rejection recorded.
  std::optional<found_at> locate(const codex_hunk& hunk, std::size_t number) {
    auto loosest = match_looseness::exact;
    std::size_t from = copied_to_;
    for (const auto& anchor : hunk.anchors) {
      const auto hit = find_lines(file_, {anchor}, from);
      if (!hit) return reject(hunk, number, why_anchor_not_found(file_, anchor, from));
      loosest = std::max(loosest, hit->how);
      from = hit->line + 1;
    }
    // The hunk may begin on its anchor's own line: models often repeat the anchor as the first context line.
    if (!hunk.anchors.empty()) --from;
    const auto old = old_lines_of(hunk);
    std::optional<found_at> at;
    if (old.empty()) {
      at = found_at{hunk.anchors.empty() || hunk.end_of_file ? file_.size() : from + 1, match_looseness::exact};
    } else {
      at = hunk.end_of_file ? find_lines_at_end(file_, old, from) : find_lines(file_, old, from);
    }
    if (!at) {
      return reject(hunk, number,
                    hunk.end_of_file ? why_not_at_end(file_, old, from) : why_not_found(file_, old, from));
    }
    at->how = std::max(at->how, loosest);
    return at;
  }

  std::nullopt_t reject(const codex_hunk& hunk, std::size_t number, std::string why) {
    out_.rejected.push_back({number, hunk.label(), std::move(why)});
    return std::nullopt;
  }

  void splice(const codex_hunk& hunk, std::size_t at) {
    for (; copied_to_ < at; ++copied_to_) lines_.push_back(file_[copied_to_]);
    for (const auto& line : hunk.lines) {
      if (line.kind == '-') {
        ++copied_to_;
      } else if (line.kind == ' ') {
        lines_.push_back(file_[copied_to_++]);  // the file's own line, even when matched loosely
      } else {
        lines_.push_back(line.text + newline_);
      }
    }
  }

  file_lines file_;
  std::string newline_;
  std::vector<std::string> lines_;  // the new text so far
  std::size_t copied_to_ = 0;       // lines of `file_` already copied or replaced
  codex_patched_text out_;
};

}  // namespace

std::string_view describe(match_looseness how) {
  switch (how) {
    case match_looseness::exact:
      return {};
    case match_looseness::trailing_whitespace:
      return "ignoring trailing whitespace";
    case match_looseness::surrounding_whitespace:
      return "ignoring leading and trailing whitespace";
  }
  return {};
}

codex_patched_text apply_codex_hunks(std::string_view original, const std::vector<codex_hunk>& hunks) {
  hunk_splicer splicer(original);
  for (std::size_t h = 0; h < hunks.size(); ++h) splicer.apply(hunks[h], h + 1);
  return std::move(splicer).finish();
}

}  // namespace parley::tools
