// The exact verifier of a Game of 24 answer: the expression (an optional "Answer:" prefix and a
// trailing "= 24" are allowed) must use exactly the puzzle's numbers, each once, with + - × ÷ and
// parentheses, and equal 24 in exact rational arithmetic — 8 / (3 - 8 / 3) counts, 23.99 does not.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"

namespace parley::tot::game24 {

struct verdict {
  bool valid = false;
  std::vector<std::string> errors;  // why not, in words
};

verdict verify_answer(std::string_view puzzle, std::string_view answer);

}  // namespace parley::tot::game24
