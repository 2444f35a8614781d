// A Game of 24 state: the numbers left, each with the expression that made it from the puzzle's
// numbers. A step combines two of them with + - × ÷ into one; after three steps one is left.
// Steps are written as the paper's proposals are: "13 - 9 = 4 (left: 4 4 10)".
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/json.hpp"
#include "parley/core/result.hpp"
#include "parley/tot/game24/rational.hpp"

namespace parley::tot::game24 {

struct number {
  rational value;
  std::string expression;  // "(13 - 9)" ... or the puzzle's number itself
};

struct step {
  rational left_operand;
  char op = '+';  // + - * /
  rational right_operand;
  rational result;
};

class state {
 public:
  // "4 9 10 13": four integers 1–99 separated by spaces (also "用4、9、10、13得到24": the integers in it).
  static result<state> from_puzzle(std::string_view text);
  // Reads a state written by to_metadata.
  static result<state> from_metadata(const json::object& metadata);

  const std::vector<number>& numbers() const noexcept { return numbers_; }
  // The numbers left, sorted, as text: "4 4 10". Equal keys are equivalent states.
  std::string key() const;
  bool is_final() const noexcept { return numbers_.size() == 1; }
  bool is_solved() const;

  // Applies `s` when its operands are among the numbers and its result is exact arithmetic;
  // otherwise says why not ("13 - 9 = 5: 13 - 9 is 4").
  result<state> apply(const step& s) const;
  // Every distinct step from here (a - b and b - a, a / b when b is not 0), in a stable order.
  std::vector<step> moves() const;

  json::object to_metadata() const;

 private:
  std::vector<number> numbers_;
};

// "13 - 9 = 4 (left: 4 4 10)"; `after` is the state the step leads to.
std::string describe_step(const step& s, const state& after);
// Reads "a op b = c" from the start of a proposal line (op one of + - * / × ÷ x); nullopt when the
// text does not start so. The "(left: …)" part is not trusted: the state is recomputed.
std::optional<step> parse_step(std::string_view text);
// The rationals of a text: "8/3" is one number. Used to read numbers a model lists.
std::vector<rational> numbers_in(std::string_view text);

}  // namespace parley::tot::game24
