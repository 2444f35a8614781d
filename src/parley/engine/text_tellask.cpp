#include "parley/engine/text_tellask.hpp"
#include "parley/core/text.hpp"

#include <optional>

// What seed 000 states precisely, and is followed as written:
//  - A block's first line is the headline `!?@<name> ...`; later lines of the same block that
//    start with `!?@` are merged into the headline, wherever they appear in the block; lines that
//    start with `!?` but not `!?@` are the body.
//  - `!tellaskSession <slug>` belongs in the headline. The slug is [a-zA-Z][a-zA-Z0-9_-]*,
//    parsing stops at whitespace or punctuation, and trailing headline text is not part of it.
//  - No `!tellaskSession` means Type C (`tellaskSessionless`); with it, Type B (`tellask`).
//    `!?@human` is Q4H (`askHuman`), `!?@self` is FBR (`freshBootsReasoning`), `!?@tellasker` is
//    TellaskBack (`tellaskBack`), and `!?@tellasker !tellaskSession …` is a syntax error.
//
// Where seed 001 stands over seed 000: 000 allows `!?@self !tellaskSession <slug>` (a resumable
// FBR), but 001's freshBootsReasoning takes no sessionSlug, so that form is reported as an error.
// 000's tolerated TellaskBack fallback `!?@<supdialogAgentId>` cannot be recognised here (the
// parser knows no dialog); it comes out as `tellaskSessionless` for the engine to reinterpret.
//
// Where seed 000 is silent, the choices below are what a careful user expects (several match what
// the Dominds runtime itself tells its agents about this syntax):
//  - `!?` counts only at column 0; indented, quoted or bulleted `!?` lines are prose.
//  - A block is a run of consecutive `!?` lines: any other line, a blank one included, ends it.
//    Two Tellasks therefore need a non-`!?` line between them.
//  - Fenced code blocks (``` or ~~~, CommonMark rules) are never parsed, so a model can show the
//    syntax without triggering it. Inline text never triggers either: only line starts do.
//  - Targets are the leading `@id` mentions of each headline line (`!?@a @b …`); each distinct
//    target gets its own call with the same content, and the block's slug applies to all of them.
//    An `@word` later in the headline's free text is content, not a target, since without a team
//    roster a parser cannot tell an address from prose.
//  - An agent id ends at the first character outside [a-zA-Z0-9_-], whatever it is, so Chinese
//    written straight after a mention (`!?@ux请审查`) is content. One separator right after a
//    mention or slug (`,` `:` `;` `，` `：` `；` `、`, or `.`/`。` before a space) is dropped.
//  - A slug running straight into a non-ASCII, non-punctuation character (`market分析`) is an
//    error rather than silently truncated: a truncated slug would resume a different session.
//  - `!tellaskSession` is found at any word start in the headline (models put it after the text
//    too). A `!name` among the leading mentions is a directive, and any name other than
//    `tellaskSession` there is an error; in free text other `!name` words are prose. Also errors:
//    two different slugs in one block, and a slug on `@human` (askHuman has no session).
//  - tellaskContent is the headline's free text (per line, trimmed, blank lines dropped) followed
//    by the body lines verbatim, joined with "\n". Blank content is an error.
//  - A body line that must begin with `@` is written `!?\@…` (one backslash is dropped from a
//    leading run of backslashes before `@`), so every content survives render + parse.
//  - Headline directives written on body lines are content: the body is opaque.
//  - A malformed block yields no call at all, even if it names several targets, and stays in the
//    prose so nothing the model wrote disappears silently; the error says how to fix it.
//  - Prose: well-formed blocks are cut out; the blank lines around a cut collapse into one (none
//    at the start or end of the saying). A saying without blocks is returned unchanged.

namespace parley::engine {
namespace {

constexpr std::string_view session_directive = "tellaskSession";
constexpr std::string_view id_grammar = "[a-zA-Z][a-zA-Z0-9_-]*";

bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_id_char(char c) { return is_alpha(c) || (c >= '0' && c <= '9') || c == '_' || c == '-'; }
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
bool is_ascii_punct(char c) {
  return (c >= '!' && c <= '/') || (c >= ':' && c <= '@') || (c >= '[' && c <= '`') || (c >= '{' && c <= '~');
}

// Full-width punctuation that ends an identifier the way ASCII punctuation does.
constexpr std::string_view wide_punct[] = {"，", "。", "、", "：", "；", "！", "？", "（", "）", "【",
                                           "】", "「", "」", "『", "』", "《", "》", "…",  "“",  "”"};

std::size_t wide_punct_at(std::string_view s, std::size_t pos) {
  for (auto p : wide_punct)
    if (s.substr(pos).starts_with(p)) return p.size();
  return 0;
}

bool is_blank(std::string_view s) { return trim(s).empty(); }

// [a-zA-Z][a-zA-Z0-9_-]* starting at pos; empty when the first character cannot start an id.
std::string_view scan_id(std::string_view s, std::size_t pos) {
  if (pos >= s.size() || !is_alpha(s[pos])) return {};
  std::size_t end = pos + 1;
  while (end < s.size() && is_id_char(s[end])) ++end;
  return s.substr(pos, end - pos);
}

// The one separator a writer naturally puts after a mention or slug ("@ux, please" / "@ux：请").
std::size_t skip_separator(std::string_view s, std::size_t pos) {
  if (pos >= s.size()) return pos;
  const char c = s[pos];
  if (c == ',' || c == ':' || c == ';') return pos + 1;
  if (c == '.' && (pos + 1 == s.size() || is_space(s[pos + 1]))) return pos + 1;
  for (std::string_view p : {"，", "：", "；", "、"})
    if (s.substr(pos).starts_with(p)) return pos + p.size();
  if (s.substr(pos).starts_with("。")) {
    const std::size_t next = pos + std::string_view("。").size();
    if (next == s.size() || is_space(s[next])) return next;
  }
  return pos;
}

struct line_view {
  std::string_view text;        // without the line break (a trailing '\r' belongs to the break)
  std::string_view terminator;  // "\n", "\r\n", or empty for a last line without one
};

std::vector<line_view> split_lines(std::string_view s) {
  std::vector<line_view> lines;
  std::size_t pos = 0;
  while (pos < s.size()) {
    const std::size_t nl = s.find('\n', pos);
    if (nl == std::string_view::npos) {
      lines.push_back({s.substr(pos), {}});
      break;
    }
    std::string_view text = s.substr(pos, nl - pos);
    std::string_view terminator = s.substr(nl, 1);
    if (text.ends_with('\r')) {
      text.remove_suffix(1);
      terminator = s.substr(nl - 1, 2);
    }
    lines.push_back({text, terminator});
    pos = nl + 1;
  }
  return lines;
}

// CommonMark fenced code blocks: up to three spaces, then three or more backticks or tildes; a
// backtick fence's info string may not contain a backtick (that is inline code instead). The
// fence closes on a line of at least as many of the same character and nothing else.
struct fence {
  char marker = 0;
  std::size_t length = 0;
};

std::optional<fence> fence_run(std::string_view line) {
  std::size_t indent = 0;
  while (indent < line.size() && line[indent] == ' ') ++indent;
  if (indent > 3 || indent >= line.size()) return std::nullopt;
  const char marker = line[indent];
  if (marker != '`' && marker != '~') return std::nullopt;
  std::size_t end = indent;
  while (end < line.size() && line[end] == marker) ++end;
  if (end - indent < 3) return std::nullopt;
  return fence{marker, end - indent};
}

std::optional<fence> fence_opening(std::string_view line) {
  auto run = fence_run(line);
  if (!run) return std::nullopt;
  if (run->marker == '`') {
    const std::size_t after = line.find_first_not_of(' ') + run->length;
    if (line.substr(after).find('`') != std::string_view::npos) return std::nullopt;
  }
  return run;
}

bool fence_closes(std::string_view line, const fence& open) {
  auto run = fence_run(line);
  if (!run || run->marker != open.marker || run->length < open.length) return false;
  const std::size_t after = line.find_first_not_of(' ') + run->length;
  return is_blank(line.substr(after));
}

// A body line `!?\@x` carries the content line `@x`: one backslash is dropped from a leading run
// of backslashes that ends in `@`, and render_text_tellask adds one to such lines.
std::string unescape_body(std::string_view payload) {
  const std::size_t slashes = payload.find_first_not_of('\\');
  if (slashes != std::string_view::npos && slashes > 0 && payload[slashes] == '@') payload.remove_prefix(1);
  return std::string(payload);
}

bool body_needs_escape(std::string_view line) {
  const std::size_t slashes = line.find_first_not_of('\\');
  return slashes != std::string_view::npos && line[slashes] == '@';
}

std::string backticked(std::string_view s) { return "`" + std::string(s) + "`"; }

// One block: consecutive `!?` lines [first, last) of the saying.
class block_parser {
 public:
  block_parser(const std::vector<line_view>& lines, std::size_t first, std::size_t last)
      : lines_(lines), first_(first), last_(last) {}

  // Appends the block's calls, or one error and no calls.
  bool parse(std::vector<text_tellask_call>& calls, std::vector<text_tellask_error>& errors) {
    const std::string_view head = lines_[first_].text.substr(2);
    if (!head.starts_with('@')) {
      return fail(first_,
                  "Tellask block must begin with a headline `!?@<agentId>`, found " + backticked(lines_[first_].text) +
                      " (a `!?` line after a prose line starts a new block)",
                  errors);
    }
    for (std::size_t i = first_; i < last_; ++i) {
      const std::string_view payload = lines_[i].text.substr(2);
      if (payload.starts_with('@')) {
        if (!parse_headline_line(payload, i)) break;
      } else {
        body_.push_back(unescape_body(payload));
      }
    }
    if (error_) {
      errors.push_back(std::move(*error_));
      return false;
    }
    if (!check_targets(errors)) return false;

    std::string content;
    for (const auto& text : headline_text_) {
      if (!content.empty()) content += '\n';
      content += text;
    }
    for (std::size_t i = 0; i < body_.size(); ++i) {
      if (i > 0 || !content.empty()) content += '\n';
      content += body_[i];
    }
    if (is_blank(content)) {
      return fail(first_,
                  "Tellask to " + backticked("@" + targets_.front()) +
                      " has empty content: write the request after the headline or on `!?` body lines",
                  errors);
    }
    for (const auto& target : targets_) calls.push_back(make_call(target, content));
    return true;
  }

 private:
  bool fail(std::size_t line, std::string message, std::vector<text_tellask_error>& errors) {
    errors.push_back({line + 1, std::move(message)});
    return false;
  }

  bool fail_line(std::size_t line, std::string message) {
    error_ = text_tellask_error{line + 1, std::move(message)};
    return false;
  }

  bool parse_headline_line(std::string_view payload, std::size_t line) {
    std::string text;
    bool in_targets = true;  // still in the leading run of mentions and directives
    bool word_start = true;  // after whitespace, a mention or a directive: `!` and `@` are syntax here
    std::size_t pos = 0;
    while (pos < payload.size()) {
      const char c = payload[pos];
      if (is_space(c)) {
        if (!in_targets) text += c;
        word_start = true;
        ++pos;
        continue;
      }
      if (word_start && in_targets && c == '@') {
        const std::string_view id = scan_id(payload, pos + 1);
        if (id.empty()) {
          return fail_line(line, "Tellask headline names no target: `@` must be followed by an agent id matching " +
                                     std::string(id_grammar) + ", found " + backticked(payload.substr(pos)));
        }
        add_target(id);
        pos = skip_separator(payload, pos + 1 + id.size());
        continue;
      }
      // In the leading run every `!name` is meant as a directive, so a misspelt one is reported;
      // in free text only `!tellaskSession` is, so prose like "run !ls?" stays prose.
      if (word_start && c == '!' && pos + 1 < payload.size() && is_alpha(payload[pos + 1]) &&
          (in_targets || scan_id(payload, pos + 1) == session_directive)) {
        if (!parse_directive(payload, pos, line)) return false;
        // The directive's trailing space goes with it, so "a !tellaskSession s b" reads "a b".
        while (pos < payload.size() && is_space(payload[pos])) ++pos;
        continue;
      }
      in_targets = false;
      word_start = false;
      text += c;
      ++pos;
    }
    const std::string_view kept = trim(text);
    if (!kept.empty()) headline_text_.emplace_back(kept);
    return true;
  }

  // `!name …` at pos; advances pos past the directive and its argument.
  bool parse_directive(std::string_view payload, std::size_t& pos, std::size_t line) {
    const std::string_view name = scan_id(payload, pos + 1);
    if (name != session_directive) {
      return fail_line(line, "unknown Tellask directive " + backticked("!" + std::string(name)) +
                                 ": the only headline directive is `!tellaskSession <slug>`");
    }
    pos += 1 + name.size();
    const std::size_t arg = payload.find_first_not_of(" \t", pos);
    if (arg == pos || arg == std::string_view::npos) {
      return fail_line(line, "`!tellaskSession` needs a slug: write `!tellaskSession <slug>` with the slug matching " +
                                 std::string(id_grammar));
    }
    std::size_t token_end = arg;
    while (token_end < payload.size() && !is_space(payload[token_end])) ++token_end;
    const std::string_view token = payload.substr(arg, token_end - arg);
    const std::string_view slug = scan_id(payload, arg);
    const std::size_t after = arg + slug.size();
    // Parsing stops at punctuation (seed 000); anything else glued to the slug makes it invalid.
    const bool clean_stop = after == payload.size() || is_space(payload[after]) ||
                            (is_ascii_punct(payload[after]) && payload[after] != '_' && payload[after] != '-') ||
                            wide_punct_at(payload, after) > 0;
    if (slug.empty() || !clean_stop) {
      return fail_line(line, "invalid session slug " + backticked(token) +
                                 " after `!tellaskSession`: a slug must match " + std::string(id_grammar));
    }
    if (!slug_.empty() && slug_ != slug) {
      return fail_line(line, "Tellask headline has two session slugs " + backticked(slug_) + " and " +
                                 backticked(slug) + ": a block takes at most one `!tellaskSession`");
    }
    slug_ = std::string(slug);
    pos = skip_separator(payload, after);
    return true;
  }

  void add_target(std::string_view id) {
    for (const auto& target : targets_)
      if (target == id) return;
    targets_.emplace_back(id);
  }

  bool check_targets(std::vector<text_tellask_error>& errors) {
    if (slug_.empty()) return true;
    for (const auto& target : targets_) {
      if (target == "tellasker") {
        return fail(first_,
                    "`!?@tellasker` does not take `!tellaskSession`: a TellaskBack has no session "
                    "(seed 000 calls `!?@tellasker !tellaskSession …` a syntax error)",
                    errors);
      }
      if (target == "human") {
        return fail(first_, "`!?@human` does not take `!tellaskSession`: askHuman has no session", errors);
      }
      if (target == "self") {
        return fail(first_,
                    "`!?@self` does not take `!tellaskSession`: freshBootsReasoning has no session slug; "
                    "use `!?@self` alone",
                    errors);
      }
    }
    return true;
  }

  text_tellask_call make_call(const std::string& target, const std::string& content) const {
    text_tellask_call call;
    if (target == "human") {
      call.name = "askHuman";
    } else if (target == "self") {
      call.name = "freshBootsReasoning";
    } else if (target == "tellasker") {
      call.name = "tellaskBack";
    } else if (!slug_.empty()) {
      call.name = "tellask";
      call.arguments["targetAgentId"] = target;
      call.arguments["sessionSlug"] = slug_;
    } else {
      call.name = "tellaskSessionless";
      call.arguments["targetAgentId"] = target;
    }
    call.arguments["tellaskContent"] = content;
    return call;
  }

  const std::vector<line_view>& lines_;
  std::size_t first_;
  std::size_t last_;
  std::vector<std::string> targets_;  // distinct, in order of first mention
  std::string slug_;
  std::vector<std::string> headline_text_;
  std::vector<std::string> body_;
  std::optional<text_tellask_error> error_;
};

// Rebuilds the prose from the lines that stay. A cut block leaves a seam; a run of blank lines
// and seams becomes one blank line between content (none at either end of the saying).
std::string assemble_prose(std::string_view saying, const std::vector<line_view>& lines,
                           const std::vector<bool>& removed) {
  std::string prose;
  bool ended_in_seam = false;
  std::size_t i = 0;
  while (i < lines.size()) {
    if (!removed[i] && !is_blank(lines[i].text)) {
      prose.append(lines[i].text).append(lines[i].terminator);
      ++i;
      continue;
    }
    std::size_t j = i;
    bool has_seam = false;
    const line_view* first_blank = nullptr;
    while (j < lines.size() && (removed[j] || is_blank(lines[j].text))) {
      if (removed[j]) {
        has_seam = true;
      } else if (first_blank == nullptr) {
        first_blank = &lines[j];
      }
      ++j;
    }
    if (!has_seam) {
      for (; i < j; ++i) prose.append(lines[i].text).append(lines[i].terminator);
      continue;
    }
    const bool at_start = prose.empty();
    const bool at_end = j == lines.size();
    if (!at_start && !at_end && first_blank != nullptr) prose.append(first_blank->terminator);
    ended_in_seam = at_end;
    i = j;
  }
  // The line before a cut at the end had a line break the saying itself did not end with.
  if (ended_in_seam && !saying.ends_with('\n')) {
    if (prose.ends_with("\r\n")) {
      prose.resize(prose.size() - 2);
    } else if (prose.ends_with('\n')) {
      prose.pop_back();
    }
  }
  return prose;
}

}  // namespace

text_tellask_parse parse_text_tellasks(std::string_view saying) {
  text_tellask_parse result;
  const std::vector<line_view> lines = split_lines(saying);
  std::vector<bool> removed(lines.size(), false);
  bool any_removed = false;
  std::optional<fence> open_fence;
  std::size_t i = 0;
  while (i < lines.size()) {
    const std::string_view text = lines[i].text;
    if (open_fence) {
      if (fence_closes(text, *open_fence)) open_fence.reset();
      ++i;
      continue;
    }
    if (auto opened = fence_opening(text)) {
      open_fence = opened;
      ++i;
      continue;
    }
    if (!text.starts_with("!?")) {
      ++i;
      continue;
    }
    std::size_t end = i + 1;
    while (end < lines.size() && lines[end].text.starts_with("!?")) ++end;
    block_parser block(lines, i, end);
    if (block.parse(result.calls, result.errors)) {
      for (std::size_t k = i; k < end; ++k) removed[k] = true;
      any_removed = true;
    }
    i = end;
  }
  result.prose = any_removed ? assemble_prose(saying, lines, removed) : std::string(saying);
  return result;
}

std::string render_text_tellask(const text_tellask_call& call) {
  const auto arg = [&](std::string_view key) -> std::string_view {
    const auto* value = call.arguments.if_contains(key);
    if (value == nullptr || !value->is_string()) return {};
    return value->get_string();
  };
  std::string out = "!?@";
  if (call.name == "tellaskSessionless") {
    out += arg("targetAgentId");
  } else if (call.name == "tellask") {
    out.append(arg("targetAgentId")).append(" !").append(session_directive).append(" ").append(arg("sessionSlug"));
  } else if (call.name == "askHuman") {
    out += "human";
  } else if (call.name == "freshBootsReasoning") {
    out += "self";
  } else if (call.name == "tellaskBack") {
    out += "tellasker";
  } else {
    return {};
  }
  out += '\n';
  // All content goes on body lines: the headline would trim it and reinterpret `@` and `!` words,
  // while a body line carries its text verbatim.
  const std::string_view content = arg("tellaskContent");
  if (content.empty()) return out;
  std::size_t pos = 0;
  while (true) {
    const std::size_t nl = content.find('\n', pos);
    const std::string_view line = content.substr(pos, nl == std::string_view::npos ? nl : nl - pos);
    out += "!?";
    if (body_needs_escape(line)) out += '\\';
    // A line that ends in CR would lose it to the CRLF that "\n" makes of it; ended by a CRLF of
    // its own, the CR stays content.
    out.append(line).append(line.ends_with('\r') ? "\r\n" : "\n");
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  return out;
}

}  // namespace parley::engine
