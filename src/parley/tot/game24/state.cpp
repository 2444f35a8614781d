#include "parley/tot/game24/state.hpp"

#include <algorithm>
#include <cctype>
#include <set>

namespace parley::tot::game24 {
namespace {

std::optional<rational> apply_op(rational a, char op, rational b) {
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      return divide(a, b);
    default:
      return std::nullopt;
  }
}

char op_of(std::string_view text, std::size_t& at) {
  static constexpr std::string_view kTimes = "×";
  static constexpr std::string_view kDivide = "÷";
  if (text.substr(at, kTimes.size()) == kTimes) {
    at += kTimes.size();
    return '*';
  }
  if (text.substr(at, kDivide.size()) == kDivide) {
    at += kDivide.size();
    return '/';
  }
  if (at < text.size() && std::string_view("+-*/xX").find(text[at]) != std::string_view::npos) {
    const char c = text[at++];
    return (c == 'x' || c == 'X') ? '*' : c;
  }
  return 0;
}

void skip_spaces(std::string_view text, std::size_t& at) {
  while (at < text.size() && (text[at] == ' ' || text[at] == '\t')) ++at;
}

// An integer or a fraction "a/b" without spaces, with an optional minus sign.
std::optional<rational> read_number(std::string_view text, std::size_t& at) {
  std::size_t i = at;
  const bool negative = i < text.size() && text[i] == '-';
  if (negative) ++i;
  auto digits = [&](std::int64_t& out) {
    const std::size_t start = i;
    out = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) != 0 && i - start < 9) {
      out = out * 10 + (text[i++] - '0');
    }
    return i > start;
  };
  std::int64_t num = 0;
  if (!digits(num)) return std::nullopt;
  std::int64_t den = 1;
  if (i + 1 < text.size() && text[i] == '/' && std::isdigit(static_cast<unsigned char>(text[i + 1])) != 0) {
    ++i;
    if (!digits(den) || den == 0) return std::nullopt;
  }
  at = i;
  return rational::make(negative ? -num : num, den);
}

}  // namespace

result<state> state::from_puzzle(std::string_view text) {
  std::vector<rational> values = numbers_in(text);
  if (values.size() == 5 && values.back() == rational(24)) values.pop_back();  // "use 4 9 10 13 to make 24"
  if (values.size() != 4) {
    return make_error(errc::invalid_argument,
                      "problem: a Game of 24 puzzle has four numbers, this one has " + std::to_string(values.size()));
  }
  state out;
  for (const auto& value : values) {
    if (!value.is_integer() || value.num() < 1 || value.num() > 99) {
      return make_error(errc::invalid_argument, "problem: " + value.text() + " is not an integer 1–99");
    }
    out.numbers_.push_back({value, value.text()});
  }
  return out;
}

result<state> state::from_metadata(const json::object& metadata) {
  const auto* values = json_array_at(metadata, "numbers");
  const auto* expressions = json_array_at(metadata, "expressions");
  if (values == nullptr || expressions == nullptr || values->size() != expressions->size() || values->empty()) {
    return make_error(errc::invalid_argument, "metadata: needs 'numbers' and 'expressions' of equal length");
  }
  state out;
  for (std::size_t i = 0; i < values->size(); ++i) {
    const auto* text = (*values)[i].if_string();
    const auto* expression = (*expressions)[i].if_string();
    if (text == nullptr || expression == nullptr)
      return make_error(errc::invalid_argument, "metadata: strings expected");
    std::size_t at = 0;
    auto value = read_number(*text, at);
    if (!value || at != text->size())
      return make_error(errc::invalid_argument, "metadata.numbers: '" + std::string(*text) + "'");
    out.numbers_.push_back({*value, std::string(*expression)});
  }
  return out;
}

std::string state::key() const {
  std::vector<rational> values;
  for (const auto& n : numbers_) values.push_back(n.value);
  std::sort(values.begin(), values.end());
  std::string out;
  for (const auto& v : values) out += (out.empty() ? "" : " ") + v.text();
  return out;
}

bool state::is_solved() const { return is_final() && numbers_[0].value == rational(24); }

result<state> state::apply(const step& s) const {
  const std::string shown = s.left_operand.text() + " " + s.op + " " + s.right_operand.text() + " = " + s.result.text();
  auto truth = apply_op(s.left_operand, s.op, s.right_operand);
  if (!truth) return make_error(errc::invalid_argument, shown + ": division by zero");
  if (*truth != s.result) {
    return make_error(errc::invalid_argument, shown + ": " + s.left_operand.text() + " " + s.op + " " +
                                                  s.right_operand.text() + " is " + truth->text());
  }
  std::vector<number> rest = numbers_;
  auto take = [&](rational value) -> std::optional<number> {
    const auto found = std::find_if(rest.begin(), rest.end(), [&](const number& n) { return n.value == value; });
    if (found == rest.end()) return std::nullopt;
    number taken = *found;
    rest.erase(found);
    return taken;
  };
  const auto a = take(s.left_operand);
  const auto b = a ? take(s.right_operand) : std::nullopt;
  if (!a || !b) return make_error(errc::invalid_argument, shown + ": its operands are not among " + key());
  state out;
  out.numbers_ = std::move(rest);
  out.numbers_.push_back({s.result, "(" + a->expression + " " + s.op + " " + b->expression + ")"});
  return out;
}

std::vector<step> state::moves() const {
  std::vector<step> out;
  std::set<std::string> seen;
  for (std::size_t i = 0; i < numbers_.size(); ++i) {
    for (std::size_t j = 0; j < numbers_.size(); ++j) {
      if (i == j) continue;
      const rational a = numbers_[i].value;
      const rational b = numbers_[j].value;
      for (char op : {'+', '-', '*', '/'}) {
        if ((op == '+' || op == '*') && b < a) continue;  // commutative: once
        auto value = apply_op(a, op, b);
        if (!value) continue;
        step s{a, op, b, *value};
        if (seen.insert(a.text() + op + b.text()).second) out.push_back(s);
      }
    }
  }
  return out;
}

json::object state::to_metadata() const {
  json::array values;
  json::array expressions;
  for (const auto& n : numbers_) {
    values.emplace_back(n.value.text());
    expressions.emplace_back(n.expression);
  }
  return json::object{{"numbers", std::move(values)}, {"expressions", std::move(expressions)}};
}

std::string describe_step(const step& s, const state& after) {
  return s.left_operand.text() + " " + s.op + " " + s.right_operand.text() + " = " + s.result.text() +
         " (left: " + after.key() + ")";
}

std::optional<step> parse_step(std::string_view text) {
  std::size_t at = 0;
  skip_spaces(text, at);
  step s;
  auto a = read_number(text, at);
  if (!a) return std::nullopt;
  skip_spaces(text, at);
  s.op = op_of(text, at);
  if (s.op == 0) return std::nullopt;
  skip_spaces(text, at);
  auto b = read_number(text, at);
  if (!b) return std::nullopt;
  skip_spaces(text, at);
  if (at >= text.size() || text[at] != '=') return std::nullopt;
  ++at;
  skip_spaces(text, at);
  auto c = read_number(text, at);
  if (!c) return std::nullopt;
  s.left_operand = *a;
  s.right_operand = *b;
  s.result = *c;
  return s;
}

std::vector<rational> numbers_in(std::string_view text) {
  std::vector<rational> out;
  std::size_t at = 0;
  while (at < text.size()) {
    if (std::isdigit(static_cast<unsigned char>(text[at])) != 0) {
      if (auto value = read_number(text, at)) {
        out.push_back(*value);
        continue;
      }
    }
    ++at;
  }
  return out;
}

}  // namespace parley::tot::game24
