// Tellasks written as text, for members whose models have no function calling. Seed 000 (the
// earlier Dominds document) specifies a line-prefix syntax — `!?@agent …` headlines, `!?` body
// lines, `!tellaskSession <slug>` — and this module turns such a saying into the same function
// calls the function-calling path produces (seed 001: `tellask`, `tellaskSessionless`,
// `askHuman`, `freshBootsReasoning`, `tellaskBack`), and renders a call back into that syntax so
// a text-mode model sees its own past calls the way it writes them. Pure: no I/O, no Asio.
//
// Grammar (details and the choices where seed 000 is silent are in text_tellask.cpp):
//   block     := headline-line (headline-line | body-line)*       ; consecutive lines only
//   headline  := "!?@" at column 0: targets, directives, free text ; all `!?@` lines of a block
//   body-line := "!?" at column 0, not followed by "@"            ; "!?\@…" escapes a leading @
//   directive := "!tellaskSession" ws slug, slug := [a-zA-Z][a-zA-Z0-9_-]*
// Any other line (blank included) ends a block; fenced code blocks are never parsed.
#pragma once

#include <boost/json/object.hpp>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace parley::engine {

struct text_tellask_call {
  std::string name;  // "tellask" | "tellaskSessionless" | "askHuman" | "freshBootsReasoning" | "tellaskBack"
  boost::json::object arguments;  // exactly the function-tool arguments of `name`

  friend bool operator==(const text_tellask_call&, const text_tellask_call&) = default;
};

struct text_tellask_error {
  std::size_t line = 0;  // 1-based line of the saying where the problem is
  std::string message;   // names the problem and, where there is one, the offending text

  friend bool operator==(const text_tellask_error&, const text_tellask_error&) = default;
};

struct text_tellask_parse {
  std::string prose;                       // the saying with the well-formed Tellask blocks removed
  std::vector<text_tellask_call> calls;    // in text order; one per target of a block
  std::vector<text_tellask_error> errors;  // malformed blocks, which yield no calls and stay in `prose`
};

text_tellask_parse parse_text_tellasks(std::string_view saying);

// The inverse, for putting a call back into a text-mode model's context: one block in seed-000
// syntax, ending with a newline. parse_text_tellasks(render_text_tellask(c)) yields exactly `c`
// whenever c's arguments satisfy the grammar: a valid target id that is not `human`, `self` or
// `tellasker`, a valid slug, non-blank content whose line breaks are "\n".
// An unknown call name renders as an empty string.
std::string render_text_tellask(const text_tellask_call& call);

}  // namespace parley::engine
