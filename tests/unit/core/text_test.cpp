#include <gtest/gtest.h>

#include "parley/core/ids.hpp"
#include "parley/core/text.hpp"
#include "parley/core/time.hpp"

namespace parley {
namespace {

TEST(EditDistance, CountsInsertionsDeletionsAndSubstitutions) {
  EXPECT_EQ(edit_distance("provider", "provider"), 0U);
  EXPECT_EQ(edit_distance("providr", "provider"), 1U);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3U);
  EXPECT_EQ(edit_distance("", "abc"), 3U);
}

TEST(DidYouMean, SuggestsTheClosestKnownKeyOnly) {
  const std::vector<std::string> keys{"provider", "persona", "model", "tools"};
  EXPECT_EQ(did_you_mean("providr", keys), " (did you mean 'provider'?)");
  EXPECT_EQ(did_you_mean("modle", keys), " (did you mean 'model'?)");
  EXPECT_EQ(did_you_mean("zzzzzzzz", keys), "");
}

TEST(Iso8601, FormatsUtcWithMillisecondsAndParsesBack) {
  EXPECT_EQ(format_iso8601_ms(0), "1970-01-01T00:00:00.000Z");
  EXPECT_EQ(format_iso8601_ms(1700000000123LL), "2023-11-14T22:13:20.123Z");
  const auto parsed = parse_iso8601_ms("2023-11-14T22:13:20.123Z");
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(*parsed, 1700000000123LL);
  EXPECT_FALSE(parse_iso8601_ms("2023-13-14T22:13:20Z").has_value());
  EXPECT_FALSE(parse_iso8601_ms("yesterday").has_value());
}

TEST(Ids, UuidsHaveVersionFourShapeAndDiffer) {
  const std::string a = new_uuid();
  const std::string b = new_uuid();
  ASSERT_EQ(a.size(), 36U);
  EXPECT_EQ(a[14], '4');
  EXPECT_NE(a, b);
}

TEST(Ids, DialogIdsAreSixteenHexDigitsAndIncrease) {
  std::string previous = new_dialog_id();
  for (int i = 0; i < 10000; ++i) {
    const std::string next = new_dialog_id();
    ASSERT_EQ(next.size(), 16U);
    ASSERT_EQ(next.find_first_not_of("0123456789abcdef"), std::string::npos);
    ASSERT_LT(previous.substr(0, 13), next.substr(0, 13));
    previous = next;
  }
}

TEST(FirstControlCharacter, NamesTheByteAndItsCodeAndPassesWhatIsAllowed) {
  EXPECT_EQ(first_control_character("title"), std::nullopt);
  EXPECT_EQ(first_control_character(std::string_view("t\0t", 3)), "control character U+0000 at byte 1");
  EXPECT_EQ(first_control_character("a\x1b[31m"), "control character U+001B at byte 1");
  EXPECT_EQ(first_control_character("del\x7f"), "control character U+007F at byte 3");
  EXPECT_EQ(first_control_character("two\nlines\tok", "\t\n"), std::nullopt);
  EXPECT_EQ(first_control_character("two\nlines", "\t"), "control character U+000A at byte 3");
  EXPECT_EQ(first_control_character("caf\xc3\xa9"), std::nullopt);  // UTF-8 is text
}

TEST(IequalsAscii, IgnoresTheCaseOfAsciiLettersOnly) {
  EXPECT_TRUE(iequals_ascii("Content-Type", "content-type"));
  EXPECT_FALSE(iequals_ascii("Bearer", "Bearer "));
  EXPECT_FALSE(iequals_ascii("\xc3\xa9", "\xc3\x89"));  // é and É differ beyond ASCII
}

}  // namespace
}  // namespace parley
