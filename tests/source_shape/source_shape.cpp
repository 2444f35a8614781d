#include "source_shape/source_shape.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace parley::source_shape {
namespace {

bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }
bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

void blank(std::string& text, std::size_t at) {
  if (text[at] != '\n') text[at] = ' ';
}

// The identifier or number that ends right before `at` (e.g. the `u8R` of u8R"(…)").
std::string_view token_before(std::string_view text, std::size_t at) {
  std::size_t start = at;
  while (start > 0 && (is_identifier_char(text[start - 1]) || text[start - 1] == '.')) --start;
  return text.substr(start, at - start);
}

bool is_raw_string_prefix(std::string_view prefix) {
  return prefix == "R" || prefix == "u8R" || prefix == "uR" || prefix == "UR" || prefix == "LR";
}

// Blanks from `from` up to (not including) `to`, keeping newlines.
void blank_range(std::string& text, std::size_t from, std::size_t to) {
  for (std::size_t i = from; i < to && i < text.size(); ++i) blank(text, i);
}

// Returns the index just past the literal that opens with the quote at `open` (quote chars kept,
// contents blanked). An unterminated literal ends at the line's end.
std::size_t blank_quoted(std::string& text, std::size_t open) {
  const char quote = text[open];
  std::size_t i = open + 1;
  while (i < text.size() && text[i] != quote && text[i] != '\n') {
    if (text[i] == '\\' && i + 1 < text.size()) {
      blank(text, i);
      ++i;
    }
    blank(text, i);
    ++i;
  }
  return i < text.size() && text[i] == quote ? i + 1 : i;
}

// R"delim( … )delim": everything between the quotes is blanked.
std::size_t blank_raw_string(std::string& text, std::size_t open) {
  const std::size_t paren = text.find('(', open + 1);
  if (paren == std::string::npos) return text.size();
  const std::string terminator = ")" + text.substr(open + 1, paren - open - 1) + "\"";
  const std::size_t end = text.find(terminator, paren + 1);
  const std::size_t closing_quote = end == std::string::npos ? text.size() : end + terminator.size() - 1;
  blank_range(text, open + 1, closing_quote);
  return std::min(closing_quote + 1, text.size());
}

// A directive runs to the first newline not escaped by a backslash.
std::size_t blank_directive(std::string& text, std::size_t hash) {
  std::size_t i = hash;
  while (i < text.size() && text[i] != '\n') {
    if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == '\n') {
      blank(text, i);
      i += 2;
      continue;
    }
    blank(text, i);
    ++i;
  }
  return i;
}

}  // namespace

std::string blank_comments_and_literals(std::string_view source) {
  std::string text(source);
  bool only_space_so_far_on_line = true;
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    const char next = i + 1 < text.size() ? text[i + 1] : '\0';
    if (c == '\n') {
      only_space_so_far_on_line = true;
      ++i;
      continue;
    }
    if (is_space(c)) {
      ++i;
      continue;
    }
    const bool starts_line = only_space_so_far_on_line;
    only_space_so_far_on_line = false;
    if (c == '#' && starts_line) {
      i = blank_directive(text, i);
    } else if (c == '/' && next == '/') {
      const std::size_t end = std::min(text.find('\n', i), text.size());
      blank_range(text, i, end);
      i = end;
    } else if (c == '/' && next == '*') {
      const std::size_t close = text.find("*/", i + 2);
      const std::size_t end = close == std::string::npos ? text.size() : close + 2;
      blank_range(text, i, end);
      i = end;
    } else if (c == '"') {
      i = is_raw_string_prefix(token_before(text, i)) ? blank_raw_string(text, i) : blank_quoted(text, i);
    } else if (c == '\'') {
      // 1'000'000: a digit separator, not a character literal.
      const std::string_view before = token_before(text, i);
      const bool in_number = !before.empty() && std::isdigit(static_cast<unsigned char>(before.front())) != 0;
      i = in_number ? i + 1 : blank_quoted(text, i);
    } else {
      ++i;
    }
  }
  return text;
}

namespace {

enum class block_kind { namespace_or_linkage, type, function, initializer };

std::string_view trim(std::string_view text) {
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return text;
}

// Skips a balanced run that opens with `open` at text[0]; returns what follows it.
std::string_view skip_balanced(std::string_view text, char open, char close) {
  int depth = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == open) ++depth;
    if (text[i] == close && --depth == 0) return text.substr(i + 1);
  }
  return {};
}

std::string_view first_word(std::string_view text) {
  std::size_t end = 0;
  while (end < text.size() && is_identifier_char(text[end])) ++end;
  return text.substr(0, end);
}

bool starts_with_word(std::string_view text, std::string_view word) { return first_word(text) == word; }

// Drops `template <…>` and `[[…]]` prefixes: what is left starts with the declaration itself.
std::string_view without_prefixes(std::string_view head) {
  head = trim(head);
  for (;;) {
    if (starts_with_word(head, "template")) {
      head = trim(head.substr(8));
      if (!head.empty() && head.front() == '<') head = trim(skip_balanced(head, '<', '>'));
    } else if (head.starts_with("[[")) {
      head = trim(skip_balanced(head, '[', ']'));
    } else {
      return head;
    }
  }
}

// Whether `word` stands in `text` as a whole word.
bool contains_word(std::string_view text, std::string_view word) {
  for (std::size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
    const bool starts = at == 0 || !is_identifier_char(text[at - 1]);
    const std::size_t end = at + word.size();
    const bool ends = end == text.size() || !is_identifier_char(text[end]);
    if (starts && ends) return true;
  }
  return false;
}

// The index of the last ')' that closes a parenthesis at the head's top level, or npos.
std::size_t last_top_level_close_paren(std::string_view head) {
  int parens = 0;
  int brackets = 0;
  std::size_t last = std::string_view::npos;
  for (std::size_t i = 0; i < head.size(); ++i) {
    const char c = head[i];
    if (c == '(') ++parens;
    if (c == '[') ++brackets;
    if (c == ']') --brackets;
    if (c == ')' && --parens == 0 && brackets == 0) last = i;
  }
  return last;
}

// After a function's parameter list only qualifiers may stand, or a trailing return type or a
// requires-clause (which may hold anything).
bool only_qualifiers(std::string_view rest) {
  static constexpr std::array<std::string_view, 9> qualifiers{"const",   "volatile",  "noexcept",  "override", "final",
                                                              "mutable", "constexpr", "consteval", "try"};
  rest = trim(rest);
  while (!rest.empty()) {
    if (rest.starts_with("->") || starts_with_word(rest, "requires")) return true;
    if (rest.front() == '&') {
      rest = trim(rest.substr(1));
      continue;
    }
    const std::string_view word = first_word(rest);
    if (word.empty() || std::find(qualifiers.begin(), qualifiers.end(), word) == qualifiers.end()) return false;
    rest = trim(rest.substr(word.size()));
  }
  return true;
}

// `name(params) qualifiers` — a function's declarator (or a lambda's, or a macro such as TEST()).
bool is_function_shaped(std::string_view head) {
  const std::size_t close = last_top_level_close_paren(head);
  return close != std::string_view::npos && only_qualifiers(head.substr(close + 1));
}

// `X::X(params) : member_(…), other_{…}`: a top-level ':' (not "::") after a top-level ')'.
bool is_constructor_with_initializers(std::string_view head) {
  int parens = 0;
  bool seen_params = false;
  for (std::size_t i = 0; i < head.size(); ++i) {
    const char c = head[i];
    if (c == '(') ++parens;
    if (c == ')' && --parens == 0) seen_params = true;
    const bool single_colon =
        c == ':' && (i == 0 || head[i - 1] != ':') && (i + 1 == head.size() || head[i + 1] != ':');
    if (parens == 0 && seen_params && single_colon) return true;
  }
  return false;
}

block_kind classify(std::string_view raw_head) {
  std::string_view head = without_prefixes(raw_head);
  const std::string_view before_parens = head.substr(0, std::min(head.find('('), head.size()));
  if (contains_word(before_parens, "namespace")) return block_kind::namespace_or_linkage;
  if (starts_with_word(head, "extern") && trim(head.substr(6)).starts_with('"'))
    return block_kind::namespace_or_linkage;
  const bool function_shaped = is_function_shaped(head);
  std::string_view declaration = head;
  if (starts_with_word(declaration, "typedef")) declaration = trim(declaration.substr(7));
  const std::string_view key = first_word(declaration);
  const bool class_key = key == "class" || key == "struct" || key == "union" || key == "enum";
  if (class_key && !function_shaped) return block_kind::type;
  if (function_shaped) return block_kind::function;
  if (head.ends_with('}') && is_constructor_with_initializers(head)) return block_kind::function;
  return block_kind::initializer;
}

bool is_access_specifier(std::string_view head) {
  head = trim(head);
  return head == "public" || head == "protected" || head == "private";
}

struct open_block {
  block_kind kind;
  int first_line;
  // An initializer outside any function is part of a declaration that goes on after it.
  std::string head_before;
  std::size_t head_start_before;
};

// The line where the declaration starting at `offset` names its function: past `template <…>`.
std::size_t declaration_offset(std::string_view text, std::size_t offset) {
  const std::string_view rest = text.substr(offset);
  const std::string_view stripped = without_prefixes(rest);
  return offset + static_cast<std::size_t>(stripped.data() - rest.data());
}

std::vector<std::size_t> line_starts_of(std::string_view text) {
  std::vector<std::size_t> starts{0};
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') starts.push_back(i + 1);
  }
  return starts;
}

int line_of(const std::vector<std::size_t>& starts, std::size_t offset) {
  return static_cast<int>(std::upper_bound(starts.begin(), starts.end(), offset) - starts.begin());
}

std::string line_text(std::string_view source, const std::vector<std::size_t>& starts, int line) {
  const std::size_t begin = starts[static_cast<std::size_t>(line - 1)];
  const std::size_t end = std::min(source.find('\n', begin), source.size());
  return std::string(trim(source.substr(begin, end - begin)));
}

}  // namespace

std::vector<function_body> find_functions(std::string_view source) {
  const std::string text = blank_comments_and_literals(source);
  const std::vector<std::size_t> starts = line_starts_of(text);
  std::vector<function_body> found;
  std::vector<open_block> stack;
  std::size_t function_depth = 0;  // how many open blocks belong to the function being read
  std::string head;                // what stands since the last ';', '{' or '}' outside functions
  std::size_t head_start = std::string::npos;
  const auto reset_head = [&] {
    head.clear();
    head_start = std::string::npos;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (function_depth > 0) {
      if (c == '{') ++function_depth;
      if (c == '}' && --function_depth == 0) {
        const int first = stack.back().first_line;
        stack.pop_back();
        found.push_back({first, line_of(starts, i), line_text(source, starts, first)});
        reset_head();
      }
      continue;
    }
    if (c == '{') {
      const block_kind kind = classify(head);
      const std::size_t declared_at = head_start == std::string::npos ? i : declaration_offset(text, head_start);
      stack.push_back({kind, line_of(starts, declared_at), head, head_start});
      if (kind == block_kind::function) function_depth = 1;
      reset_head();
    } else if (c == '}') {
      if (stack.empty()) continue;  // unbalanced: nothing to close
      const open_block closed = std::move(stack.back());
      stack.pop_back();
      reset_head();
      if (closed.kind == block_kind::initializer) {
        head = closed.head_before + "{}";
        head_start = closed.head_start_before == std::string::npos ? i : closed.head_start_before;
      }
    } else if (c == ';') {
      reset_head();
    } else if (c == ':' && is_access_specifier(head)) {
      reset_head();
    } else {
      if (head_start == std::string::npos && !is_space(c)) head_start = i;
      if (head_start != std::string::npos) head.push_back(c);
    }
  }
  return found;
}

bool is_generated(std::string_view source) {
  std::size_t end = 0;
  for (int line = 0; line < 5 && end < source.size(); ++line) end = std::min(source.find('\n', end), source.size()) + 1;
  return source.substr(0, std::min(end, source.size())).find("@generated") != std::string_view::npos;
}

int count_lines(std::string_view source) {
  const auto newlines = static_cast<int>(std::count(source.begin(), source.end(), '\n'));
  return newlines + (!source.empty() && source.back() != '\n' ? 1 : 0);
}

}  // namespace parley::source_shape
