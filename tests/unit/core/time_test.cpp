// read_iso8601_ms: RFC 3339 read strictly — the fields at fixed positions, signs and spaces
// refused, every field in its range, offsets applied, leap seconds as POSIX counts them.
#include <gtest/gtest.h>

#include "parley/core/time.hpp"

namespace parley {
namespace {

constexpr std::int64_t kNoon = 1'763'812'800'000;  // 2025-11-22T12:00:00Z

std::string refusal(std::string_view text) {
  auto read = read_iso8601_ms(text);
  if (read) return "accepted as " + std::to_string(*read);
  EXPECT_EQ(read.err().code, errc::invalid_argument);
  return read.err().message.substr(read.err().message.find(": ") + 2);
}

TEST(Iso8601, ReadsUtcFractionsAndOffsets) {
  EXPECT_EQ(read_iso8601_ms("2025-11-22T12:00:00Z").value(), kNoon);
  EXPECT_EQ(read_iso8601_ms("2025-11-22t12:00:00z").value(), kNoon);
  EXPECT_EQ(read_iso8601_ms("2025-11-22T12:00:00.5Z").value(), kNoon + 500);
  EXPECT_EQ(read_iso8601_ms("2025-11-22T12:00:00.123456789Z").value(), kNoon + 123);
  EXPECT_EQ(read_iso8601_ms("2025-11-22T20:00:00+08:00").value(), kNoon);
  EXPECT_EQ(read_iso8601_ms("2025-11-22T06:30:00-05:30").value(), kNoon);
  EXPECT_EQ(read_iso8601_ms(format_iso8601_ms(kNoon + 7)).value(), kNoon + 7);
}

TEST(Iso8601, ALeapSecondIsTheNextSecondAndOnlyAtTheEndOfAMinute) {
  EXPECT_EQ(read_iso8601_ms("2016-12-31T23:59:60Z").value(), read_iso8601_ms("2017-01-01T00:00:00Z").value());
  EXPECT_EQ(refusal("2016-12-31T23:58:60Z"), "second 60 is out of range");
  EXPECT_EQ(refusal("2016-12-31T23:59:61Z"), "second 61 is out of range");
}

TEST(Iso8601, SignsAndSpacesInsideFieldsAreRefused) {
  EXPECT_EQ(refusal("2026-01-01T-1:-5:00Z"), "the hour is not 2 digits");
  EXPECT_EQ(refusal("2026-01-01T+1:05:00Z"), "the hour is not 2 digits");
  EXPECT_EQ(refusal("2026-01-01T 1:05:00Z"), "the hour is not 2 digits");
  EXPECT_EQ(refusal(" 2026-01-01T01:05:00Z"), "the year is not 4 digits");
  EXPECT_EQ(refusal("2026-01-01 01:05:00Z"), "the date and the time must be joined by 'T'");
  EXPECT_EQ(refusal("2026/01/01T01:05:00Z"), "the date's separators must be '-'");
}

TEST(Iso8601, FieldsOutOfRangeAreNamed) {
  EXPECT_EQ(refusal("2026-13-01T00:00:00Z"), "month 13 is out of range");
  EXPECT_EQ(refusal("2026-00-01T00:00:00Z"), "month 0 is out of range");
  EXPECT_EQ(refusal("2026-02-29T00:00:00Z"), "day 29 is not in that month");
  EXPECT_EQ(read_iso8601_ms("2024-02-29T00:00:00Z").has_value(), true);
  EXPECT_EQ(refusal("2026-01-01T24:00:00Z"), "hour 24 is out of range");
  EXPECT_EQ(refusal("2026-01-01T00:60:00Z"), "minute 60 is out of range");
}

TEST(Iso8601, TheZoneIsRequiredAndNothingMayFollowIt) {
  EXPECT_EQ(refusal("2026-01-01T00:00:00"), "the time must end with its zone, 'Z' or ±HH:MM, and nothing after it");
  EXPECT_EQ(refusal("2026-01-01T00:00:00Zjunk"),
            "the time must end with its zone, 'Z' or ±HH:MM, and nothing after it");
  EXPECT_EQ(refusal("2026-01-01T00:00:00+0800"),
            "the time must end with its zone, 'Z' or ±HH:MM, and nothing after it");
  EXPECT_EQ(refusal("2026-01-01T00:00:00+24:00"), "the offset must be ±HH:MM within a day");
  EXPECT_EQ(refusal("2026-01-01T00:00:00.Z"), "a fraction of a second has 1 to 9 digits");
  EXPECT_EQ(refusal("2026-01-01T00:00:00.1234567890Z"), "a fraction of a second has 1 to 9 digits");
  EXPECT_EQ(refusal("yesterday"), "the year is not 4 digits");
  EXPECT_EQ(refusal(""), "the year is not 4 digits");
}

}  // namespace
}  // namespace parley
