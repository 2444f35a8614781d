// The expression evaluator and the `calculate` tool.
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>

#include <gtest/gtest.h>

#include "parley/core/text.hpp"
#include "parley/tools/basic_tools.hpp"
#include "parley/tools/expression.hpp"
#include "parley/tools/json_schema.hpp"

namespace parley::tools {
namespace {

std::string evaluate(std::string_view expression) {
  auto value = evaluate_expression(expression);
  return value ? format_number(*value) : "error: " + value.err().message;
}

TEST(Expression, FollowsPrecedenceAndParentheses) {
  EXPECT_EQ(evaluate("2 + 3 * 4"), "14");
  EXPECT_EQ(evaluate("(2 + 3) * 4"), "20");
  EXPECT_EQ(evaluate("10 - 4 - 3"), "3");
  EXPECT_EQ(evaluate("2 * (3 + (4 - 1)) / 4"), "3");
  EXPECT_EQ(evaluate("-3 + +5"), "2");
  EXPECT_EQ(evaluate("-(2 * 3)"), "-6");
  EXPECT_EQ(evaluate("8 / 3 * 3"), "8");
}

TEST(Expression, HandlesDecimals) {
  EXPECT_EQ(evaluate("0.1 + 0.2"), "0.3");
  EXPECT_EQ(evaluate("1.5 * 4"), "6");
  EXPECT_EQ(evaluate(".5 + 1."), "1.5");
  EXPECT_EQ(evaluate("1 / 3"), "0.333333333333333");
}

TEST(Expression, ReportsBadInputWithPositions) {
  EXPECT_EQ(evaluate(""), "error: the expression is empty");
  EXPECT_EQ(evaluate("   "), "error: the expression is empty");
  EXPECT_EQ(evaluate("1 +"), "error: expected a number at position 4");
  EXPECT_EQ(evaluate("2 * x"), "error: expected a number, got 'x' at position 5");
  EXPECT_EQ(evaluate("(1 + 2"), "error: missing ')' at position 7");
  EXPECT_EQ(evaluate("1 + 2)"), "error: unexpected ')' at position 6");
  EXPECT_EQ(evaluate("1.2.3"), "error: '1.2.3' is not a number at position 1");
  EXPECT_EQ(evaluate("4 / (2 - 2)"), "error: division by zero at position 5");
  EXPECT_EQ(evaluate(std::string(300, '(') + "1" + std::string(300, ')')),
            "error: the expression is nested too deeply at position 201");
}

tool_outcome calculate(std::string_view arguments) {
  tool_registry registry;
  register_basic_tools(registry);
  tool* t = registry.find("calculate");
  if (t == nullptr) return {false, "calculate is not registered"};
  auto args = parse_tool_arguments(arguments, t->spec().parameters);
  if (!args) return {false, "invalid arguments: " + args.err().message};
  boost::asio::io_context io;
  tool_outcome out{false, "<not run>"};
  boost::asio::co_spawn(io, t->invoke(*args, tool_context{}), [&](std::exception_ptr failure, tool_outcome o) {
    if (failure) std::rethrow_exception(failure);
    out = std::move(o);
  });
  io.run();
  return out;
}

TEST(CalculateTool, ReturnsTheNumber) {
  const auto out = calculate(R"({"expression": "(2 + 3.5) * 4"})");
  EXPECT_TRUE(out.ok) << out.content;
  EXPECT_EQ(out.content, "22");
}

TEST(CalculateTool, ExplainsAFailure) {
  const auto out = calculate(R"({"expression": "1 / 0"})");
  EXPECT_FALSE(out.ok);
  EXPECT_EQ(out.content, "cannot evaluate '1 / 0': division by zero at position 5");
  EXPECT_EQ(calculate(R"({"expression": ""})").content,
            "invalid arguments: arguments.expression: expected at least 1 character, got 0");
}

TEST(CalculateTool, IsInTheBasicToolset) {
  tool_registry registry;
  register_basic_tools(registry);
  ASSERT_NE(registry.toolset("basic"), nullptr);
  EXPECT_EQ(*registry.toolset("basic"), (std::vector<std::string>{"calculate"}));
}

}  // namespace
}  // namespace parley::tools
