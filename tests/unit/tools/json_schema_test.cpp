// validate_arguments and parse_tool_arguments: each keyword, nested paths and the error texts.
#include <boost/json/parse.hpp>

#include <gtest/gtest.h>

#include "parley/core/utf8.hpp"
#include "parley/tools/json_schema.hpp"

namespace parley::tools {
namespace {

namespace json = boost::json;

json::object schema_of(std::string_view text) { return json::parse(text).as_object(); }

// "" when valid, else the error message.
std::string problem(std::string_view instance, std::string_view schema) {
  auto outcome = validate_arguments(json::parse(instance), schema_of(schema));
  if (outcome) return "";
  EXPECT_EQ(outcome.err().code, errc::invalid_argument) << outcome.err().message;
  return outcome.err().message;
}

constexpr std::string_view kFileSchema = R"({
  "type": "object",
  "properties": {
    "path": {"type": "string"},
    "mode": {"enum": ["a", "b"]},
    "max_bytes": {"type": "integer", "minimum": 1, "maximum": 100}
  },
  "required": ["path"],
  "additionalProperties": false
})";

TEST(JsonSchema, AcceptsValidArguments) {
  EXPECT_EQ(problem(R"({"path": "a.md"})", kFileSchema), "");
  EXPECT_EQ(problem(R"({"path": "a.md", "mode": "b", "max_bytes": 100})", kFileSchema), "");
}

TEST(JsonSchema, TypeMismatchNamesPathAndBothTypes) {
  EXPECT_EQ(problem(R"({"path": 3})", kFileSchema), "arguments.path: expected string, got integer");
  EXPECT_EQ(problem(R"([1])", kFileSchema), "arguments: expected object, got array");
  EXPECT_EQ(problem(R"({"path": "x", "max_bytes": 2.5})", kFileSchema),
            "arguments.max_bytes: expected integer, got number");
  EXPECT_EQ(problem(R"({"path": "x", "max_bytes": 2.0})", kFileSchema), "");  // 2.0 is an integer
}

TEST(JsonSchema, EachTypeNameAndTypeArrays) {
  EXPECT_EQ(problem("true", R"({"type": "boolean"})"), "");
  EXPECT_EQ(problem("null", R"({"type": "null"})"), "");
  EXPECT_EQ(problem("1.5", R"({"type": "number"})"), "");
  EXPECT_EQ(problem("7", R"({"type": "number"})"), "");
  EXPECT_EQ(problem("[]", R"({"type": "array"})"), "");
  EXPECT_EQ(problem("\"s\"", R"({"type": "boolean"})"), "arguments: expected boolean, got string");
  EXPECT_EQ(problem("null", R"({"type": ["string", "null"]})"), "");
  EXPECT_EQ(problem("1", R"({"type": ["string", "null"]})"), "arguments: expected string or null, got integer");
  EXPECT_EQ(problem("{}", R"({"type": ["string", "integer", "null"]})"),
            "arguments: expected string, integer or null, got object");
}

TEST(JsonSchema, MissingRequiredProperty) {
  EXPECT_EQ(problem(R"({})", kFileSchema), "arguments: missing required property 'path'");
}

TEST(JsonSchema, EnumListsTheAllowedValues) {
  EXPECT_EQ(problem(R"({"path": "p", "mode": "x"})", kFileSchema), R"(arguments.mode: 'x' is not one of ["a","b"])");
  EXPECT_EQ(problem("2.0", R"({"enum": [1, 2]})"), "");  // numbers compare by value
  EXPECT_EQ(problem("3", R"({"enum": [1, 2]})"), "arguments: 3 is not one of [1,2]");
  // A near miss gets the nearest choice as a hint (a member id in the Tellask tools' targetAgentId).
  EXPECT_EQ(problem(R"("wroker")", R"({"enum": ["lead", "worker"]})"),
            R"(arguments: 'wroker' is not one of ["lead","worker"] (did you mean 'worker'?))");
  EXPECT_EQ(problem(R"("zzz")", R"({"enum": ["lead", "worker"]})"),
            R"(arguments: 'zzz' is not one of ["lead","worker"])");
}

TEST(JsonSchema, ConstRequiresOneValue) {
  EXPECT_EQ(problem(R"("a")", R"({"const": "a"})"), "");
  EXPECT_EQ(problem(R"("b")", R"({"const": "a"})"), R"(arguments: must be "a", got 'b')");
  EXPECT_EQ(problem(R"({"k": [1]})", R"({"const": {"k": [1.0]}})"), "");
}

TEST(JsonSchema, UnknownPropertySuggestsTheClosestKnownOne) {
  EXPECT_EQ(problem(R"({"pth": "a"})", kFileSchema), "arguments: unknown property 'pth' (did you mean 'path'?)");
  EXPECT_EQ(problem(R"({"path": "a", "zzzzzz": 1})", kFileSchema), "arguments: unknown property 'zzzzzz'");
}

TEST(JsonSchema, AdditionalPropertiesSchemaChecksTheExtras) {
  constexpr std::string_view schema = R"({"properties": {"a": {}}, "additionalProperties": {"type": "integer"}})";
  EXPECT_EQ(problem(R"({"a": "any", "b": 1})", schema), "");
  EXPECT_EQ(problem(R"({"b": "x"})", schema), "arguments.b: expected integer, got string");
  EXPECT_EQ(problem(R"({"b c": "x"})", schema), R"(arguments["b c"]: expected integer, got string)");
  EXPECT_EQ(problem(R"({"b": "x"})", R"({"additionalProperties": true})"), "");
}

TEST(JsonSchema, NumericBounds) {
  EXPECT_EQ(problem(R"({"path": "p", "max_bytes": 0})", kFileSchema),
            "arguments.max_bytes: 0 is less than the minimum 1");
  EXPECT_EQ(problem(R"({"path": "p", "max_bytes": 101})", kFileSchema),
            "arguments.max_bytes: 101 is greater than the maximum 100");
  EXPECT_EQ(problem("1", R"({"exclusiveMinimum": 1})"), "arguments: 1 must be greater than 1");
  EXPECT_EQ(problem("1.5", R"({"exclusiveMaximum": 1.5})"), "arguments: 1.5 must be less than 1.5");
}

TEST(JsonSchema, StringLengthCountsCharactersAndPatternSearches) {
  EXPECT_EQ(problem(R"("你好")", R"({"minLength": 2, "maxLength": 2})"), "");
  EXPECT_EQ(problem(R"("a")", R"({"minLength": 2})"), "arguments: expected at least 2 characters, got 1");
  EXPECT_EQ(problem(R"("abc")", R"({"maxLength": 1})"), "arguments: expected at most 1 character, got 3");
  EXPECT_EQ(problem(R"("notes.md")", R"({"pattern": "\\.md$"})"), "");
  EXPECT_EQ(problem(R"("notes.txt")", R"({"pattern": "\\.md$"})"),
            R"(arguments: 'notes.txt' does not match the pattern '\.md$')");
}

TEST(JsonSchema, InvalidPatternIsTheSchemasFaultNotTheModels) {
  const auto outcome = validate_arguments(json::parse(R"("x")"), schema_of(R"({"pattern": "("})"));
  ASSERT_FALSE(outcome.has_value());
  EXPECT_EQ(outcome.err().code, errc::internal);
  EXPECT_EQ(outcome.err().message.rfind("the tool's schema has an invalid pattern '(': ", 0), 0U);
}

TEST(JsonSchema, ArraysCheckSizeAndEveryItemWithIndexedPaths) {
  constexpr std::string_view schema = R"({
    "type": "object",
    "properties": {"files": {"type": "array", "minItems": 1, "maxItems": 2,
                             "items": {"type": "object", "properties": {"name": {"type": "string"}},
                                       "required": ["name"]}}}
  })";
  EXPECT_EQ(problem(R"({"files": [{"name": "a"}]})", schema), "");
  EXPECT_EQ(problem(R"({"files": []})", schema), "arguments.files: expected at least 1 item, got 0");
  EXPECT_EQ(problem(R"({"files": [{"name": "a"}, {"name": "b"}, {"name": "c"}]})", schema),
            "arguments.files: expected at most 2 items, got 3");
  EXPECT_EQ(problem(R"({"files": [{"name": "a"}, {"name": 5}]})", schema),
            "arguments.files[1].name: expected string, got integer");
  EXPECT_EQ(problem(R"({"files": [{"name": "a"}, {}]})", schema),
            "arguments.files[1]: missing required property 'name'");
}

TEST(JsonSchema, AnyOfNeedsOneAlternativeAndExplainsEach) {
  constexpr std::string_view schema = R"({"anyOf": [{"type": "string"}, {"type": "integer", "minimum": 0}]})";
  EXPECT_EQ(problem(R"("s")", schema), "");
  EXPECT_EQ(problem("4", schema), "");
  EXPECT_EQ(problem("-1", schema),
            "arguments: matches none of the anyOf alternatives: [1] arguments: expected string, got integer; "
            "[2] arguments: -1 is less than the minimum 0");
}

TEST(JsonSchema, OneOfNeedsExactlyOneAlternative) {
  constexpr std::string_view schema = R"({"oneOf": [{"type": "integer"}, {"type": "number"}]})";
  EXPECT_EQ(problem("1.5", schema), "");
  EXPECT_EQ(problem("1", schema), "arguments: matches alternatives 1 and 2 of oneOf; expected exactly one");
  EXPECT_EQ(problem(R"("x")", schema),
            "arguments: matches none of the oneOf alternatives: [1] arguments: expected integer, got string; "
            "[2] arguments: expected number, got string");
}

TEST(JsonSchema, BooleanSubschemas) {
  EXPECT_EQ(problem(R"({"a": 1})", R"({"properties": {"a": true}})"), "");
  EXPECT_EQ(problem(R"({"a": 1})", R"({"properties": {"a": false}})"), "arguments.a: no value is allowed here");
}

TEST(ParseToolArguments, EmptyTextIsAnEmptyObject) {
  const auto parsed = parse_tool_arguments("  ", schema_of(R"({"type": "object"})"));
  ASSERT_TRUE(parsed.has_value());
  EXPECT_TRUE(parsed->empty());
  const auto missing = parse_tool_arguments("", schema_of(kFileSchema));
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.err().message, "arguments: missing required property 'path'");
}

TEST(ParseToolArguments, ReturnsTheValidatedObject) {
  const auto parsed = parse_tool_arguments(R"({"path": "a.md", "max_bytes": 5})", schema_of(kFileSchema));
  ASSERT_TRUE(parsed.has_value()) << parsed.err().message;
  EXPECT_EQ(parsed->at("path").as_string(), "a.md");
  EXPECT_EQ(parsed->at("max_bytes").as_int64(), 5);
}

TEST(ParseToolArguments, InvalidJsonNamesTheOffset) {
  const auto broken = parse_tool_arguments(R"({"path": "a.md",, "x": 1})", schema_of(kFileSchema));
  ASSERT_FALSE(broken.has_value());
  EXPECT_EQ(broken.err().code, errc::invalid_argument);
  EXPECT_EQ(broken.err().message, R"(arguments are not valid JSON: syntax error at offset 16 (near ', "x": 1}'))");
  const auto cut = parse_tool_arguments(R"({"path": )", schema_of(kFileSchema));
  ASSERT_FALSE(cut.has_value());
  EXPECT_EQ(cut.err().message, "arguments are not valid JSON: incomplete JSON at offset 9 (at the end of the text)");
  const auto trailing = parse_tool_arguments(R"({"path": "a"} extra)", schema_of(kFileSchema));
  ASSERT_FALSE(trailing.has_value());
  EXPECT_EQ(trailing.err().message, "arguments are not valid JSON: extra data at offset 14 (near 'extra')");
}

TEST(ParseToolArguments, RequiresAnObject) {
  const auto array = parse_tool_arguments("[1, 2]", schema_of(kFileSchema));
  ASSERT_FALSE(array.has_value());
  EXPECT_EQ(array.err().message, "arguments must be a JSON object, got array");
}

TEST(ParseToolArguments, SchemaErrorsPassThrough) {
  const auto wrong = parse_tool_arguments(R"({"path": 1})", schema_of(kFileSchema));
  ASSERT_FALSE(wrong.has_value());
  EXPECT_EQ(wrong.err().message, "arguments.path: expected string, got integer");
}

// Found by fuzz/tool_arguments_fuzzer.cpp: a long value was shown cut after 60 bytes, inside a
// character. The message is a tool result in the log, which refused it, and the dialog with it.
TEST(JsonSchema, ALongValueIsShownCutOnACharacterBoundary) {
  std::string selector;
  for (int i = 0; i < 30; ++i) selector += "\xE7\x9B\xAE\xE6\xA0\x87";  // 目标
  const std::string message =
      problem(R"({"selector": ")" + selector + R"("})", R"({"properties": {"selector": {"enum": ["goals"]}}})");
  EXPECT_TRUE(is_valid_utf8(message)) << message;
  EXPECT_NE(message.find("...' is not one of [\"goals\"]"), std::string::npos) << message;
}

}  // namespace
}  // namespace parley::tools
