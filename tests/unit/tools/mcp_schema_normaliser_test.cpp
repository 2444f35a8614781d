// MCP tool schemas made into what OpenAI's and Anthropic's function-calling APIs accept: the real
// schemas of the reference servers (everything and filesystem, as their tools/list gave them, in
// data/mcp_schemas), and the shapes other servers publish that the APIs refuse.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <fstream>
#include <sstream>
#include <string>

#include "parley/tools/json_schema.hpp"
#include "parley/tools/mcp/schema_normaliser.hpp"
#include "parley/tools/schema_check.hpp"

namespace parley::tools::mcp {
namespace {

namespace json = boost::json;

json::object normalised(std::string_view schema) {
  auto out = normalise_tool_schema(json::parse(schema).as_object());
  EXPECT_TRUE(out) << out.err().message;
  return out ? *out : json::object{};
}

std::string refusal(std::string_view schema) {
  auto out = normalise_tool_schema(json::parse(schema).as_object());
  EXPECT_FALSE(out) << json::serialize(*out);
  return out ? std::string() : out.err().message;
}

// What both APIs require of every level: objects with properties, arrays with items, no boolean
// subschemas, no top-level combiners, and formats both take.
void expect_accepted_by_both_apis(const json::value& schema, const std::string& path, bool top) {
  ASSERT_TRUE(schema.is_object()) << path << " is " << json::serialize(schema);
  const auto& object = schema.get_object();
  EXPECT_FALSE(object.contains("$schema")) << path;
  EXPECT_FALSE(object.contains("prefixItems")) << path;
  if (top) {
    EXPECT_EQ(object.at("type"), "object") << path;
    for (const char* combiner : {"allOf", "anyOf", "oneOf", "not", "enum"}) EXPECT_FALSE(object.contains(combiner));
  }
  const auto* type = object.if_contains("type");
  const auto typed = [&](std::string_view name) {
    if (type == nullptr) return false;
    if (type->is_string()) return type->get_string() == name;
    for (const auto& entry : type->get_array()) {
      if (entry == json::value(name)) return true;
    }
    return false;
  };
  if (typed("object")) EXPECT_TRUE(object.contains("properties")) << path;
  if (typed("array")) EXPECT_TRUE(object.contains("items")) << path;
  if (const auto* format = object.if_contains("format")) EXPECT_NE(*format, "uri") << path;
  for (const char* map : {"properties", "$defs"}) {
    if (const auto* entries = object.if_contains(map)) {
      for (const auto& [name, sub] : entries->get_object()) {
        expect_accepted_by_both_apis(sub, path + "." + map + "." + std::string(name), false);
      }
    }
  }
  if (const auto* items = object.if_contains("items")) expect_accepted_by_both_apis(*items, path + ".items", false);
  for (const char* list : {"allOf", "anyOf", "oneOf"}) {
    if (const auto* entries = object.if_contains(list)) {
      for (const auto& sub : entries->get_array()) expect_accepted_by_both_apis(sub, path + "." + list, false);
    }
  }
}

class McpReferenceSchemas : public ::testing::TestWithParam<const char*> {};

TEST_P(McpReferenceSchemas, EveryToolsSchemaIsAcceptedByBothApisAndByParleysArgumentChecks) {
  std::ifstream file(std::string(PARLEY_SOURCE_DIR) + "/tests/unit/tools/data/mcp_schemas/" + GetParam() + ".json");
  std::stringstream text;
  text << file.rdbuf();
  const auto listed = json::parse(text.str());
  ASSERT_GE(listed.at("tools").as_array().size(), 10u);
  for (const auto& tool : listed.at("tools").as_array()) {
    const std::string name(tool.at("name").as_string());
    auto schema = normalise_tool_schema(tool.at("inputSchema").as_object());
    ASSERT_TRUE(schema) << name << ": " << schema.err().message;
    expect_accepted_by_both_apis(*schema, name, true);
    auto checked = check_tool_schema(*schema, name);
    EXPECT_TRUE(checked) << checked.err().message;
  }
}

INSTANTIATE_TEST_SUITE_P(Servers, McpReferenceSchemas, ::testing::Values("everything", "filesystem"));

TEST(McpSchemaNormaliser, TheArgumentsStillCheckAsTheServerMeantThem) {
  const auto schema = normalised(R"({"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
                                     "required": ["a", "b"], "$schema": "http://json-schema.org/draft-07/schema#"})");
  EXPECT_TRUE(validate_arguments(json::parse(R"({"a": 1, "b": 2})"), schema));
  auto missing = validate_arguments(json::parse(R"({"a": 1})"), schema);
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.err().message.find("b"), std::string::npos);
}

TEST(McpSchemaNormaliser, AnEmptySchemaBecomesAnObjectWithProperties) {
  EXPECT_EQ(normalised("{}"), json::parse(R"({"type": "object", "properties": {}})"));
  EXPECT_EQ(normalised(R"({"type": "object"})"), json::parse(R"({"type": "object", "properties": {}})"));
  EXPECT_EQ(normalised(R"({"type": ["object", "null"], "properties": {}})"),
            json::parse(R"({"type": "object", "properties": {}})"));
}

TEST(McpSchemaNormaliser, ATopLevelTypeOtherThanObjectIsRefused) {
  EXPECT_NE(refusal(R"({"type": "string"})").find("inputSchema.type"), std::string::npos);
  EXPECT_NE(refusal(R"({"type": "array", "items": {}})").find("must be an object"), std::string::npos);
}

TEST(McpSchemaNormaliser, TopLevelAnyOfBecomesOneObjectRequiringWhatEveryAlternativeRequires) {
  const auto schema = normalised(R"({"anyOf": [
      {"type": "object", "properties": {"id": {"type": "string"}, "name": {"type": "string"}}, "required": ["id", "name"]},
      {"type": "object", "properties": {"id": {"type": "integer"}, "path": {"type": "string"}}, "required": ["id"]}]})");
  EXPECT_EQ(schema.at("type"), "object");
  EXPECT_FALSE(schema.contains("anyOf"));
  EXPECT_EQ(schema.at("required"), json::parse(R"(["id"])"));
  EXPECT_EQ(schema.at("properties").at("id"), json::parse(R"({"anyOf": [{"type": "string"}, {"type": "integer"}]})"));
  EXPECT_TRUE(schema.at("properties").as_object().contains("path"));
  EXPECT_TRUE(check_tool_schema(schema));
}

TEST(McpSchemaNormaliser, TopLevelAllOfIsMergedWithTheRequiredNamesOfAllBranches) {
  const auto schema = normalised(R"({"type": "object", "$defs": {"base": {"type": "object",
      "properties": {"x": {"type": "string"}}, "required": ["x"]}},
      "allOf": [{"$ref": "#/$defs/base"}, {"properties": {"y": {"type": "boolean"}}, "required": ["y"]}]})");
  EXPECT_FALSE(schema.contains("allOf"));
  EXPECT_EQ(schema.at("required"), json::parse(R"(["x", "y"])"));
  EXPECT_EQ(schema.at("properties").as_object().size(), 2u);
  EXPECT_TRUE(check_tool_schema(schema));
}

TEST(McpSchemaNormaliser, ArraysGetItemsAndTuplesBecomeOneItemSchema) {
  // FastMCP's Optional[tuple[float, float]] (pydantic), which OpenAI refuses: "array schema missing items".
  const auto schema = normalised(R"({"type": "object", "properties": {
      "figsize": {"anyOf": [{"maxItems": 2, "minItems": 2, "prefixItems": [{"type": "number"}, {"type": "number"}],
                             "type": "array"}, {"type": "null"}], "default": [10, 6]},
      "tags": {"type": "array"},
      "pair": {"type": "array", "items": [{"type": "string"}, {"type": "integer"}], "additionalItems": false}}})");
  const auto& properties = schema.at("properties");
  EXPECT_EQ(properties.at("figsize").at("anyOf").at(0).at("items"), json::parse(R"({"type": "number"})"));
  EXPECT_EQ(properties.at("tags").at("items"), json::object{});
  EXPECT_EQ(properties.at("pair").at("items"), json::parse(R"({"anyOf": [{"type": "string"}, {"type": "integer"}]})"));
  EXPECT_FALSE(properties.at("pair").as_object().contains("additionalItems"));
  expect_accepted_by_both_apis(schema, "schema", true);
  EXPECT_TRUE(check_tool_schema(schema));
  EXPECT_TRUE(validate_arguments(json::parse(R"({"figsize": [3, 4]})"), schema));
}

TEST(McpSchemaNormaliser, FormatsBothApisTakeAreKeptOthersAndSchemaIdsDropped) {
  const auto schema = normalised(R"({"$id": "x", "$schema": "y", "properties": {
      "when": {"type": "string", "format": "date-time"}, "link": {"type": "string", "format": "uri"},
      "n": {"type": "integer", "format": "int64", "$comment": "c"}}})");
  const auto& properties = schema.at("properties");
  EXPECT_EQ(properties.at("when").at("format"), "date-time");
  EXPECT_FALSE(properties.at("link").as_object().contains("format"));
  EXPECT_EQ(properties.at("n"), json::parse(R"({"type": "integer"})"));
  EXPECT_FALSE(schema.contains("$id"));
  EXPECT_FALSE(schema.contains("$schema"));
}

TEST(McpSchemaNormaliser, BooleanSubschemasBecomeObjectsButAdditionalPropertiesKeepsItsBoolean) {
  const auto schema = normalised(R"({"type": "object", "properties": {"any": true, "never": false},
                                     "additionalProperties": false})");
  EXPECT_EQ(schema.at("properties").at("any"), json::object{});
  EXPECT_EQ(schema.at("properties").at("never"), json::parse(R"({"not": {}})"));
  EXPECT_EQ(schema.at("additionalProperties"), false);
}

TEST(McpSchemaNormaliser, APropertyNameAnthropicRefusesIsRefusedNamingIt) {
  const auto problem = refusal(R"({"type": "object", "properties": {"file name": {"type": "string"}}})");
  EXPECT_NE(problem.find("inputSchema.properties"), std::string::npos) << problem;
  EXPECT_NE(problem.find("'file name'"), std::string::npos) << problem;
}

TEST(McpSchemaNormaliser, ASchemaNestedTooDeeplyOrTooLargeIsRefused) {
  json::value deep = json::object{{"type", "string"}};
  for (int i = 0; i < 40; ++i) deep = json::object{{"type", "array"}, {"items", std::move(deep)}};
  json::object wrapped{{"type", "object"}, {"properties", json::object{{"x", std::move(deep)}}}};
  auto nested = normalise_tool_schema(wrapped);
  ASSERT_FALSE(nested);
  EXPECT_NE(nested.err().message.find("nested deeper than 32"), std::string::npos) << nested.err().message;

  json::object properties;
  for (int i = 0; i < 2000; ++i) {
    properties["p" + std::to_string(i)] = json::object{{"type", "string"}, {"description", std::string(40, 'd')}};
  }
  auto large = normalise_tool_schema(json::object{{"type", "object"}, {"properties", properties}});
  ASSERT_FALSE(large);
  EXPECT_NE(large.err().message.find("more than the 65536"), std::string::npos) << large.err().message;
}

}  // namespace
}  // namespace parley::tools::mcp
