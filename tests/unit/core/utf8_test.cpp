#include "parley/core/utf8.hpp"

#include <gtest/gtest.h>

namespace parley {
namespace {

TEST(Utf8, WellFormedTextOfEveryLengthIsValid) {
  EXPECT_FALSE(first_invalid_utf8(""));
  EXPECT_FALSE(first_invalid_utf8("plain ascii"));
  EXPECT_FALSE(first_invalid_utf8("caf\xC3\xA9"));               // é, two bytes
  EXPECT_FALSE(first_invalid_utf8("\xE4\xB8\xAD\xE6\x96\x87"));  // 中文, three bytes each
  EXPECT_FALSE(first_invalid_utf8("\xF0\x9F\x98\x80"));          // 😀, four bytes
  EXPECT_FALSE(first_invalid_utf8("\xF4\x8F\xBF\xBF"));          // U+10FFFF, the last code point
  EXPECT_FALSE(first_invalid_utf8(std::string_view("nul\0inside", 10)));
}

TEST(Utf8, IllFormedSequencesAreFoundAtTheirFirstByte) {
  EXPECT_EQ(first_invalid_utf8("caf\xFF"), 3U);           // a byte no sequence starts with
  EXPECT_EQ(first_invalid_utf8("ab\xC3"), 2U);            // truncated at the end
  EXPECT_EQ(first_invalid_utf8("\xC0\xAF"), 0U);          // overlong '/'
  EXPECT_EQ(first_invalid_utf8("\xE0\x80\xAF"), 0U);      // overlong, three bytes
  EXPECT_EQ(first_invalid_utf8("x\xED\xA0\x80"), 1U);     // a UTF-16 surrogate
  EXPECT_EQ(first_invalid_utf8("\xF4\x90\x80\x80"), 0U);  // above U+10FFFF
  EXPECT_EQ(first_invalid_utf8("ok\x80"), 2U);            // a lone continuation byte
  EXPECT_EQ(first_invalid_utf8("\xE4\xB8x"), 0U);         // a lead whose continuation is missing
}

TEST(Utf8, RepairReplacesEachMaximalIllFormedSubpartWithOneReplacementCharacter) {
  const auto latin1 = repair_utf8("caf\xE9 cr\xE8me");
  EXPECT_EQ(latin1.text,
            "caf\xEF\xBF\xBD cr\xEF\xBF\xBD"
            "me");
  EXPECT_EQ(latin1.replaced, 2U);
  // A truncated three-byte sequence is one subpart; the byte after it is kept.
  const auto truncated = repair_utf8("\xE4\xB8x");
  EXPECT_EQ(truncated.text, "\xEF\xBF\xBDx");
  EXPECT_EQ(truncated.replaced, 1U);
  // Valid text comes back unchanged, and what comes back is always valid.
  EXPECT_EQ(repair_utf8("\xE4\xB8\xAD").text, "\xE4\xB8\xAD");
  EXPECT_EQ(repair_utf8("\xE4\xB8\xAD").replaced, 0U);
  for (int byte = 0; byte < 256; ++byte) {
    std::string text(1, static_cast<char>(byte));
    text += "\xE4\xB8";
    text += static_cast<char>(byte);
    EXPECT_TRUE(is_valid_utf8(repair_utf8(text).text)) << byte;
  }
}

TEST(Utf8, DescribesTheOffendingByteAndWhereItIs) {
  const std::string text = "line one\nab\xFF";
  const auto bad = first_invalid_utf8(text);
  ASSERT_TRUE(bad);
  EXPECT_EQ(describe_invalid_utf8(text, *bad), "byte 0xff at offset 11 is not valid UTF-8");
  const auto at = position_of(text, *bad);
  EXPECT_EQ(at.line, 1U);
  EXPECT_EQ(at.column, 2U);
}

TEST(Utf8, ExcerptIsCutOnACharacterBoundaryAndAlwaysUtf8) {
  EXPECT_EQ(utf8_excerpt("short", 10), "short");
  EXPECT_EQ(utf8_excerpt("abcdef", 3), "abc...");
  // 中 is three bytes: a limit inside it leaves it out rather than cutting it.
  EXPECT_EQ(utf8_excerpt("a\xE4\xB8\xAD\xE4\xB8\xAD", 5), "a\xE4\xB8\xAD...");
  EXPECT_EQ(utf8_excerpt("caf\xE9", 10), "caf\xEF\xBF\xBD");
  const std::string continuation(40, '\x80');
  EXPECT_TRUE(is_valid_utf8(utf8_excerpt(continuation, 10)));
  for (std::size_t limit = 0; limit < 12; ++limit) {
    EXPECT_TRUE(is_valid_utf8(utf8_excerpt("\xF0\x9F\x98\x80\xE4\xB8\xAD\xC3\xA9x\xFF", limit))) << limit;
  }
}

}  // namespace
}  // namespace parley
