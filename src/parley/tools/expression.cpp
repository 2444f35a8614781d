// A recursive-descent evaluator:
//   expr   := term (('+' | '-') term)*
//   term   := factor (('*' | '/') factor)*
//   factor := ('+' | '-') factor | number | '(' expr ')'
#include "parley/tools/expression.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace parley::tools {
namespace {

constexpr int kMaxDepth = 200;  // bounds the recursion on inputs like "((((((..."

class parser {
 public:
  explicit parser(std::string_view text) : text_(text) {}

  result<double> parse_all() {
    skip_spaces();
    if (pos_ == text_.size()) return fail_plain("the expression is empty");
    auto value = expr();
    if (!value) return value;
    if (pos_ != text_.size()) return fail_here("unexpected '" + std::string(1, text_[pos_]) + "'");
    if (!std::isfinite(*value)) return fail_plain("the result is too large");
    return value;
  }

 private:
  static error fail_plain(std::string message) { return make_error(errc::invalid_argument, std::move(message)); }
  error fail_here(const std::string& problem) const {
    return fail_plain(problem + " at position " + std::to_string(pos_ + 1));
  }

  void skip_spaces() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n')) ++pos_;
  }
  bool accept(char c) {
    skip_spaces();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  result<double> expr() {
    auto left = term();
    while (left) {
      if (accept('+')) {
        auto right = term();
        if (!right) return right;
        *left += *right;
      } else if (accept('-')) {
        auto right = term();
        if (!right) return right;
        *left -= *right;
      } else {
        break;
      }
    }
    return left;
  }

  result<double> term() {
    auto left = factor();
    while (left) {
      if (accept('*')) {
        auto right = factor();
        if (!right) return right;
        *left *= *right;
      } else if (accept('/')) {
        skip_spaces();
        const std::size_t divisor_at = pos_;
        auto right = factor();
        if (!right) return right;
        if (*right == 0) return fail_plain("division by zero at position " + std::to_string(divisor_at + 1));
        *left /= *right;
      } else {
        break;
      }
    }
    return left;
  }

  result<double> factor() {
    if (++depth_ > kMaxDepth) return fail_here("the expression is nested too deeply");
    auto value = factor_inner();
    --depth_;
    return value;
  }

  result<double> factor_inner() {
    if (accept('-')) {
      auto inner = factor();
      if (inner) *inner = -*inner;
      return inner;
    }
    if (accept('+')) return factor();
    if (accept('(')) {
      auto inner = expr();
      if (!inner) return inner;
      if (!accept(')')) return fail_here("missing ')'");
      return inner;
    }
    return number();
  }

  result<double> number() {
    skip_spaces();
    const std::size_t start = pos_;
    while (pos_ < text_.size() && ((text_[pos_] >= '0' && text_[pos_] <= '9') || text_[pos_] == '.')) ++pos_;
    if (start == pos_) {
      if (pos_ == text_.size()) return fail_here("expected a number");
      return fail_here("expected a number, got '" + std::string(1, text_[pos_]) + "'");
    }
    const std::string_view digits = text_.substr(start, pos_ - start);
    double value = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (ec == std::errc::result_out_of_range) {
      pos_ = start;
      return fail_here("'" + std::string(digits) + "' is out of range");
    }
    if (ec != std::errc{} || end != digits.data() + digits.size()) {
      pos_ = start;
      return fail_here("'" + std::string(digits) + "' is not a number");
    }
    return value;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace

result<double> evaluate_expression(std::string_view expression) { return parser(expression).parse_all(); }

}  // namespace parley::tools
