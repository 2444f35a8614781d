#include "parley/core/json_text.hpp"

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <string>

namespace parley {
namespace {

std::string as_json_string(std::string_view text) {
  std::string out;
  append_json_string(out, text);
  return out;
}

TEST(JsonText, StringsAreEscapedAsBoostJsonEscapesThem) {
  std::string every_byte;
  for (int c = 1; c < 256; ++c) every_byte += static_cast<char>(c);
  const std::string samples[] = {"",
                                 "plain words",
                                 "quote \" and backslash \\",
                                 "tab\tnew line\ncarriage\rform\fback\b",
                                 std::string("nul\0inside", 10),
                                 "\x01\x1f\x7f",
                                 "中文 and emoji \xF0\x9F\x98\x80",
                                 every_byte};
  for (const auto& sample : samples) {
    EXPECT_EQ(as_json_string(sample), boost::json::serialize(boost::json::value(sample))) << sample;
  }
}

TEST(JsonText, EscapedStringsParseBackToTheSameBytes) {
  const std::string text = "line\none \"two\" \\ \x02 中";
  const auto parsed = boost::json::parse(as_json_string(text));
  EXPECT_EQ(parsed.as_string(), text);
}

TEST(JsonText, WriterPutsCommasBetweenMembersAndElementsOnly) {
  std::string out;
  json_text_writer w(out);
  w.begin_object().field("a", "x").key("list").begin_array();
  w.integer(1).boolean(false).null().begin_object().end_object().begin_array().end_array();
  w.end_array().key("raw").raw(R"({"k":[1,2]})").key("value").value(boost::json::value(1.5));
  w.end_object();
  EXPECT_EQ(out, R"({"a":"x","list":[1,false,null,{},[]],"raw":{"k":[1,2]},"value":1.5E0})");
  EXPECT_NO_THROW((void)boost::json::parse(out));
}

}  // namespace
}  // namespace parley
