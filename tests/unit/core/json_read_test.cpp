// read_json: the project's JSON reader, exact for every double (Boost 1.81's own parse is not).
#include <gtest/gtest.h>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <cmath>
#include <cstring>
#include <random>

#include "parley/core/json.hpp"
#include "parley/core/json_read.hpp"

namespace parley {
namespace {

json::value read_ok(std::string_view text) {
  boost::system::error_code ec;
  auto value = read_json(text, ec);
  EXPECT_FALSE(ec) << text << ": " << ec.message();
  return value;
}

TEST(JsonRead, EveryFiniteDoubleReadsBackAsWritten) {
  std::mt19937_64 gen(7);
  int misread_by_boost = 0;
  for (int round = 0; round < 200000; ++round) {
    const std::uint64_t bits = gen();
    double number = 0;
    std::memcpy(&number, &bits, sizeof number);
    if (!std::isfinite(number)) continue;
    const std::string text = json::serialize(json::value(number));
    const auto back = read_ok(text);
    ASSERT_TRUE(back.is_double()) << text;
    ASSERT_EQ(back.get_double(), number) << text;
    if (json::parse(text).get_double() != number) ++misread_by_boost;
  }
  // Why this reader exists: the library's parser misreads some of the same texts.
  EXPECT_GT(misread_by_boost, 0);
}

TEST(JsonRead, NumbersAreTheClosestDoubleToTheirText) {
  EXPECT_EQ(read_ok("5.409760742964738E124").get_double(), 5.409760742964738E124);
  EXPECT_EQ(read_ok("-2.128409656321987E-239").get_double(), -2.128409656321987E-239);
  EXPECT_EQ(read_ok("0.1").get_double(), 0.1);
  EXPECT_EQ(read_ok("[1.5e-320]").as_array()[0].get_double(), 1.5e-320);  // a subnormal
  EXPECT_TRUE(std::signbit(read_ok("-0.0").get_double()));
  EXPECT_EQ(read_ok("1e-400").get_double(), 0.0);          // below the smallest subnormal
  EXPECT_TRUE(std::isinf(read_ok("1e999").get_double()));  // refused later, by find_unwritable_json
  EXPECT_EQ(read_ok("-9223372036854775808").get_int64(), INT64_MIN);
  EXPECT_EQ(read_ok("18446744073709551615").get_uint64(), UINT64_MAX);
}

TEST(JsonRead, ReadsTheSameTreeAsTheLibrary) {
  const std::string text =
      R"({"a":[1,-2,3.25,"x\u00e9",{"b":null,"c":true,"d":false}],"long key with \"escapes\"":"v","a":2})";
  EXPECT_EQ(read_ok(text), json::parse(text));
}

TEST(JsonRead, RefusesWhatTheLibraryRefuses) {
  for (const std::string_view text : {"", "{", "[1,]", "{\"a\":1} x", "nul", "{\"a\" 1}", "// c\n1", "01"}) {
    boost::system::error_code ec;
    const auto value = read_json(text, ec);
    EXPECT_TRUE(ec) << text;
    EXPECT_TRUE(value.is_null()) << text;
  }
  // The default depth limit holds.
  boost::system::error_code ec;
  (void)read_json(std::string(40, '[') + std::string(40, ']'), ec);
  EXPECT_TRUE(ec);
}

TEST(JsonRead, ParseJsonIsExactToo) {
  const auto parsed = parse_json(R"({"x":1.3927926388013963E-143})");
  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed->as_object().at("x").get_double(), 1.3927926388013963E-143);
}

}  // namespace
}  // namespace parley
