#include "parley/tools/basic_tools.hpp"

#include <boost/json/array.hpp>

#include "parley/core/json_fields.hpp"
#include "parley/core/text.hpp"
#include "parley/tools/expression.hpp"
#include "parley/tools/function_tool.hpp"

namespace parley::tools {
namespace {

constexpr std::int64_t kMaxExpressionLength = 10000;

tool_spec calculate_spec() {
  boost::json::object expression{{"type", "string"},
                                 {"minLength", 1},
                                 {"maxLength", kMaxExpressionLength},
                                 {"description", "Arithmetic with + - * / and parentheses, e.g. (2 + 3.5) * 4"}};
  return {"calculate", "Evaluate an arithmetic expression exactly as written and return the number.",
          boost::json::object{{"type", "object"},
                              {"properties", boost::json::object{{"expression", std::move(expression)}}},
                              {"required", boost::json::array{"expression"}},
                              {"additionalProperties", false}}};
}

tool_outcome calculate(const boost::json::object& args, const tool_context& /*ctx*/) {
  json_fields in(args);
  const std::string expression = in.string("expression");
  if (!in.ok()) return tool_outcome{false, in.message()};
  auto value = evaluate_expression(expression);
  if (!value) return tool_outcome{false, "cannot evaluate '" + expression + "': " + value.err().message};
  return tool_outcome{true, format_number(*value)};
}

}  // namespace

void register_basic_tools(tool_registry& registry) {
  registry.add(std::make_unique<function_tool>(calculate_spec(), calculate, function_tool::effects::none));
  registry.add_toolset("basic", {"calculate"});
}

}  // namespace parley::tools
