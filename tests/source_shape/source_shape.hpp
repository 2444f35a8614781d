#pragma once
// The shape check (issue 37 item 6): finds the function bodies of a C++ source without compiling
// it, so a test can refuse a function over 80 lines or a file over 600 lines in src/. It reads
// text only: comments, string and character literals (raw strings too) and preprocessor lines are
// blanked first, then the braces are tracked and each top-level brace block is classified by the
// words before it.
#include <string>
#include <string_view>
#include <vector>

namespace parley::source_shape {

// `source` with every comment, preprocessor directive and the contents of every string and
// character literal replaced by spaces; newlines stay, so line numbers and lengths are kept.
std::string blank_comments_and_literals(std::string_view source);

struct function_body {
  int first_line = 0;     // 1-based: where the function's declaration starts (after template<…>)
  int last_line = 0;      // the line of its closing brace
  std::string signature;  // the first line's text, trimmed
  int lines() const { return last_line - first_line + 1; }
};

// The outermost function bodies of `source`: free and member functions, constructors (with their
// initializer lists), and lambdas outside any function. A lambda inside a function counts toward
// that function. Namespace, class, struct, union, enum and `extern "C"` blocks are not functions;
// neither are initializers (`= {`, `name{…}`, nested lists).
std::vector<function_body> find_functions(std::string_view source);

// A generated file carries the marker "@generated" in a comment of its first five lines (the
// common convention; nothing in src/ is generated today — the provider catalogue's data file is
// generated into the build folder).
bool is_generated(std::string_view source);

int count_lines(std::string_view source);

}  // namespace parley::source_shape
