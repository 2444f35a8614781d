// json_fields: required and optional members read strictly, each error naming the field by its path.
#include <gtest/gtest.h>

#include <limits>

#include "parley/core/json.hpp"
#include "parley/core/json_fields.hpp"

namespace parley {
namespace {

json::object object_of(std::string_view text) { return parse_json(text).value().as_object(); }

TEST(JsonFields, RequiredMembersAreReadOrNamedWhenMissingOrOfTheWrongType) {
  const auto obj = object_of(R"({"path":"a.txt","line":3,"whole":4.0,"on":true,"tags":["x","y"]})");
  json_fields in(obj);
  EXPECT_EQ(in.string("path"), "a.txt");
  EXPECT_EQ(in.integer("line"), 3);
  EXPECT_EQ(in.integer("whole"), 4);  // JSON Schema's integer takes 4.0
  EXPECT_TRUE(in.boolean("on"));
  EXPECT_EQ(in.strings("tags"), (std::vector<std::string>{"x", "y"}));
  EXPECT_TRUE(in.ok());
  EXPECT_TRUE(in.status());

  json_fields missing(obj);
  EXPECT_EQ(missing.string("content"), "");
  EXPECT_FALSE(missing.ok());
  EXPECT_EQ(missing.message(), "field 'content': missing (expected a string)");
  EXPECT_EQ(missing.status().err().code, errc::invalid_argument);

  json_fields wrong(obj);
  (void)wrong.string("line");
  EXPECT_EQ(wrong.message(), "field 'line': expected a string, got an integer");
}

TEST(JsonFields, OptionalMembersAreAbsentOrNullOrOfTheirTypeNeverASilentDefault) {
  const auto obj = object_of(R"({"cwd":null,"max":"ten","ratio":0.5,"flag":1})");
  json_fields in(obj);
  EXPECT_FALSE(in.optional_string("absent"));
  EXPECT_FALSE(in.optional_string("cwd"));  // null reads as absent
  EXPECT_EQ(in.optional_number("ratio"), 0.5);
  EXPECT_TRUE(in.ok());
  EXPECT_FALSE(in.optional_integer("max"));
  EXPECT_EQ(in.message(), "field 'max': expected an integer, got a string");
  // Only the first error is kept.
  (void)in.optional_boolean("flag");
  EXPECT_EQ(in.message(), "field 'max': expected an integer, got a string");

  json_fields flag(obj);
  EXPECT_FALSE(flag.optional_boolean("flag"));
  EXPECT_EQ(flag.message(), "field 'flag': expected a boolean, got an integer");
  json_fields ratio(obj);
  EXPECT_FALSE(ratio.optional_integer("ratio"));
  EXPECT_EQ(ratio.message(), "field 'ratio': expected an integer, got a fractional number");
}

TEST(JsonFields, NestedObjectsAndArrayElementsAreNamedByTheirPath) {
  const auto obj = object_of(R"({"dialog":{"selfId":7},"glob":["*.cpp",3],"huge":18446744073709551615})");
  json_fields in(obj, "packet");
  const auto* dialog = in.object("dialog");
  ASSERT_NE(dialog, nullptr);
  auto dialog_fields = in.nested(*dialog, "dialog");
  (void)dialog_fields.string("selfId");
  in.adopt(dialog_fields);
  EXPECT_EQ(in.message(), "field 'packet.dialog.selfId': expected a string, got an integer");

  json_fields globs(obj);
  EXPECT_FALSE(globs.optional_strings("glob"));
  EXPECT_EQ(globs.message(), "field 'glob[1]': expected a string, got an integer");

  json_fields huge(obj);
  EXPECT_EQ(huge.integer("huge"), std::numeric_limits<std::int64_t>::max());  // clamped, as the schema takes it
  EXPECT_TRUE(huge.ok());

  json_fields object_expected(obj);
  EXPECT_EQ(object_expected.optional_object("glob"), nullptr);
  EXPECT_EQ(object_expected.message(), "field 'glob': expected an object, got an array");
}

}  // namespace
}  // namespace parley
