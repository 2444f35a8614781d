#include "parley/tot/game24/verifier.hpp"

#include <algorithm>
#include <cctype>
#include <optional>

#include "parley/tot/game24/rational.hpp"
#include "parley/tot/game24/state.hpp"

namespace parley::tot::game24 {
namespace {

// Recursive descent over expr := term (('+'|'-') term)*, term := factor (('*'|'/') factor)*,
// factor := integer | '(' expr ')'. Literals are collected to check the numbers used.
class expression_reader {
 public:
  explicit expression_reader(std::string_view text) : text_(text) {}

  std::optional<rational> read_all() {
    auto value = expression(0);
    skip();
    if (value && at_ != text_.size()) return fail("unexpected '" + std::string(1, text_[at_]) + "'");
    return value;
  }
  const std::vector<rational>& literals() const noexcept { return literals_; }
  const std::string& problem() const noexcept { return problem_; }

 private:
  static constexpr int kMaxNesting = 32;

  std::optional<rational> fail(std::string why) {
    if (problem_.empty()) problem_ = std::move(why);
    return std::nullopt;
  }
  void skip() {
    while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_])) != 0) ++at_;
  }
  char peek_op() {
    skip();
    static constexpr std::string_view kTimes = "×";
    static constexpr std::string_view kDivide = "÷";
    if (text_.substr(at_, kTimes.size()) == kTimes) return 'x';
    if (text_.substr(at_, kDivide.size()) == kDivide) return 'd';
    return at_ < text_.size() ? text_[at_] : '\0';
  }
  void take_op(char peeked) {
    at_ += peeked == 'x' ? std::string_view("×").size() : peeked == 'd' ? std::string_view("÷").size() : 1;
  }

  std::optional<rational> expression(int depth) {
    auto value = term(depth);
    while (value) {
      const char op = peek_op();
      if (op != '+' && op != '-') break;
      take_op(op);
      auto rhs = term(depth);
      if (!rhs) return std::nullopt;
      value = op == '+' ? *value + *rhs : *value - *rhs;
    }
    return value;
  }

  std::optional<rational> term(int depth) {
    auto value = factor(depth);
    while (value) {
      const char op = peek_op();
      const bool times = op == '*' || op == 'x' || op == 'X';
      const bool over = op == '/' || op == 'd';
      if (!times && !over) break;
      take_op(op);
      auto rhs = factor(depth);
      if (!rhs) return std::nullopt;
      if (times) {
        value = *value * *rhs;
      } else {
        value = divide(*value, *rhs);
        if (!value) return fail("division by zero");
      }
    }
    return value;
  }

  std::optional<rational> factor(int depth) {
    skip();
    if (at_ >= text_.size()) return fail("the expression ends early");
    if (text_[at_] == '(') {
      if (depth >= kMaxNesting) return fail("too deeply nested");
      ++at_;
      auto value = expression(depth + 1);
      skip();
      if (!value) return std::nullopt;
      if (at_ >= text_.size() || text_[at_] != ')') return fail("a '(' is not closed");
      ++at_;
      return value;
    }
    if (std::isdigit(static_cast<unsigned char>(text_[at_])) == 0) {
      return fail("unexpected '" + std::string(1, text_[at_]) + "'");
    }
    std::int64_t value = 0;
    const std::size_t start = at_;
    while (at_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[at_])) != 0) {
      if (at_ - start >= 9) return fail("a number is too long");
      value = value * 10 + (text_[at_++] - '0');
    }
    if (at_ < text_.size() && text_[at_] == '.') return fail("only integers may be used");
    literals_.emplace_back(value);
    return rational(value);
  }

  std::string_view text_;
  std::size_t at_ = 0;
  std::vector<rational> literals_;
  std::string problem_;
};

std::string_view left_hand_side(std::string_view answer) {
  for (std::string_view prefix : {"Answer:", "answer:", "ANSWER:"}) {
    const auto found = answer.find(prefix);
    if (found != std::string_view::npos) answer = answer.substr(found + prefix.size());
  }
  if (const auto eq = answer.find('='); eq != std::string_view::npos) answer = answer.substr(0, eq);
  return answer;
}

std::string joined(std::vector<rational> values) {
  std::sort(values.begin(), values.end());
  std::string out;
  for (const auto& v : values) out += (out.empty() ? "" : " ") + v.text();
  return out;
}

}  // namespace

verdict verify_answer(std::string_view puzzle, std::string_view answer) {
  verdict out;
  auto start = state::from_puzzle(puzzle);
  if (!start) {
    out.errors.push_back(start.err().message);
    return out;
  }
  expression_reader reader(left_hand_side(answer));
  const auto value = reader.read_all();
  if (!value) {
    out.errors.push_back("the answer is not an arithmetic expression: " + reader.problem());
    return out;
  }
  std::vector<rational> expected;
  for (const auto& n : start->numbers()) expected.push_back(n.value);
  if (joined(reader.literals()) != joined(expected)) {
    out.errors.push_back("uses the numbers " + joined(reader.literals()) + ", the puzzle's are " + joined(expected));
  }
  if (*value != rational(24)) out.errors.push_back("evaluates to " + value->text() + ", not 24");
  out.valid = out.errors.empty();
  return out;
}

}  // namespace parley::tot::game24
