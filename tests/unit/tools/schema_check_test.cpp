// The keywords added to the argument checks (allOf, not, multipleOf, uniqueItems, min/maxProperties,
// local $ref), and check_tool_schema: a schema with a keyword the checks do not enforce is refused
// when the tool is registered, naming it and where it is — never silently left unchecked.
#include <boost/json/parse.hpp>

#include <gtest/gtest.h>

#include "parley/tools/json_schema.hpp"
#include "parley/tools/schema_check.hpp"
#include "parley/tools/tool.hpp"

namespace parley::tools {
namespace {

namespace json = boost::json;

// "" when valid, else the error message.
std::string argument_problem(std::string_view instance, std::string_view schema) {
  auto outcome = validate_arguments(json::parse(instance), json::parse(schema).as_object());
  if (outcome) return "";
  EXPECT_EQ(outcome.err().code, errc::invalid_argument) << outcome.err().message;
  return outcome.err().message;
}

std::string schema_problem(std::string_view schema) {
  auto outcome = check_tool_schema(json::parse(schema).as_object());
  if (outcome) return "";
  EXPECT_EQ(outcome.err().code, errc::invalid_argument) << outcome.err().message;
  return outcome.err().message;
}

TEST(JsonSchemaKeywords, AllOfRequiresEveryPartAndNotRefusesAMatch) {
  constexpr std::string_view kSchema = R"({"allOf": [{"type": "integer"}, {"minimum": 2}], "not": {"const": 3}})";
  EXPECT_EQ(argument_problem("2", kSchema), "");
  EXPECT_EQ(argument_problem("1", kSchema), "arguments: 1 is less than the minimum 2");
  EXPECT_EQ(argument_problem("2.5", kSchema), "arguments: expected integer, got number");
  EXPECT_EQ(argument_problem("3", kSchema), "arguments: 3 matches the schema under 'not'");
}

TEST(JsonSchemaKeywords, MultipleOfUniqueItemsAndPropertyCounts) {
  EXPECT_EQ(argument_problem("0.3", R"({"multipleOf": 0.1})"), "");
  EXPECT_EQ(argument_problem("7", R"({"multipleOf": 5})"), "arguments: 7 is not a multiple of 5");
  EXPECT_EQ(argument_problem(R"([1, 2, 1])", R"({"uniqueItems": true})"),
            "arguments: items 0 and 2 are equal; expected unique items");
  EXPECT_EQ(argument_problem(R"([1, 2, 1])", R"({"uniqueItems": false})"), "");
  EXPECT_EQ(argument_problem(R"({})", R"({"minProperties": 1})"), "arguments: expected at least 1 property, got 0");
  EXPECT_EQ(argument_problem(R"({"a": 1, "b": 2})", R"({"maxProperties": 1})"),
            "arguments: expected at most 1 property, got 2");
}

TEST(JsonSchemaKeywords, LocalRefsAreFollowedIncludingRecursiveOnes) {
  constexpr std::string_view kTree = R"({
    "$defs": {"node": {"type": "object", "properties": {"name": {"type": "string"},
                                                        "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}},
                       "required": ["name"]}},
    "$ref": "#/$defs/node"
  })";
  EXPECT_EQ(argument_problem(R"({"name": "a", "children": [{"name": "b", "children": []}]})", kTree), "");
  EXPECT_EQ(argument_problem(R"({"name": "a", "children": [{"children": []}]})", kTree),
            "arguments.children[0]: missing required property 'name'");
  EXPECT_EQ(schema_problem(kTree), "");
  // A schema that refers to itself without end stops at a bound instead of the stack's end.
  EXPECT_NE(argument_problem("1", R"({"$ref": "#"})").find("nested deeper than"), std::string::npos);
}

TEST(ToolSchemaCheck, AKeywordTheChecksDoNotEnforceIsRefusedNamingItAndWhere) {
  const auto refused = schema_problem(R"({"type": "object", "properties": {"when": {"type": "string",
                                          "if": {"const": "x"}, "then": {"minLength": 2}}}})");
  EXPECT_EQ(refused.rfind("parameters.properties.when.if: keyword 'if' is not supported", 0), 0U) << refused;
  EXPECT_NE(schema_problem(R"({"patternProperties": {"^x": {}}})").find("keyword 'patternProperties'"),
            std::string::npos);
  EXPECT_NE(schema_problem(R"({"type": "array", "items": [{"type": "string"}]})").find("tuple validation"),
            std::string::npos);
}

TEST(ToolSchemaCheck, TheValuesOfKnownKeywordsAreCheckedToo) {
  EXPECT_EQ(schema_problem(R"({"type": "strin"})"),
            "parameters.type: expected one of string, number, integer, boolean, object, array, null (or a list of "
            "them)");
  EXPECT_EQ(schema_problem(R"({"required": "path"})"), "parameters.required: expected an array of property names");
  EXPECT_EQ(schema_problem(R"({"minLength": -1})"), "parameters.minLength: expected a non-negative integer");
  EXPECT_EQ(schema_problem(R"({"multipleOf": 0})"), "parameters.multipleOf: expected a number above 0");
  EXPECT_NE(schema_problem(R"({"pattern": "(("})").find("parameters.pattern: the pattern does not compile"),
            std::string::npos);
  EXPECT_EQ(schema_problem(R"({"$ref": "#/$defs/missing"})"),
            "parameters.$ref: $ref '#/$defs/missing' names nothing in the schema");
  EXPECT_EQ(schema_problem(R"({"$ref": "https://example.com/s.json"})"),
            "parameters.$ref: $ref 'https://example.com/s.json' is not local; only references into the schema (#/…) "
            "are");
  EXPECT_EQ(schema_problem(R"({"properties": {"a": 3}})"),
            "parameters.properties.a: a schema must be an object or a boolean");
}

TEST(ToolSchemaCheck, AnnotationsAreAllowed) {
  EXPECT_EQ(schema_problem(R"({"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "t",
                              "description": "d", "type": "object", "properties": {"at": {"type": "string",
                              "format": "date-time", "default": "now", "examples": ["x"]}}})"),
            "");
}

TEST(ToolRegistry, AToolFromOutsideWithAnUncheckableSchemaIsNotAdded) {
  tool_registry registry;
  class outside_tool : public tool {
   public:
    outside_tool() {
      spec_.name = "outside";
      spec_.parameters = json::parse(R"({"type": "object", "dependentRequired": {"a": ["b"]}})").as_object();
    }
    const tool_spec& spec() const override { return spec_; }
    boost::asio::awaitable<tool_outcome> invoke(const json::object& /*args*/, const tool_context& /*ctx*/) override {
      co_return tool_outcome{};
    }

   private:
    tool_spec spec_;
  };
  auto added = registry.add_checked(std::make_unique<outside_tool>());
  ASSERT_FALSE(added);
  EXPECT_EQ(added.err().message.rfind("outside.dependentRequired: keyword 'dependentRequired' is not supported", 0), 0U)
      << added.err().message;
  EXPECT_EQ(registry.find("outside"), nullptr);
}

}  // namespace
}  // namespace parley::tools
