#include "parley/core/json_check.hpp"

#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <limits>
#include <random>

#include "parley/core/json_read.hpp"

namespace parley {
namespace {

TEST(JsonCheck, AFiniteUtf8TreeHasNoProblem) {
  const auto value = boost::json::parse(R"({"a":[1,2.5,"x",{"b":null}],"c":"\u00e9"})");
  EXPECT_FALSE(find_unwritable_json(value));
  EXPECT_FALSE(find_unwritable_json(value.as_object()));
}

TEST(JsonCheck, NumbersBeyondDoubleRangeAreNamedByTheirPath) {
  auto parsed = parse_json_strict(R"({"metadata":{"x":1e999}})");
  ASSERT_FALSE(parsed);
  EXPECT_EQ(parsed.err().code, errc::invalid_argument);
  EXPECT_NE(parsed.err().message.find("metadata.x: is not a finite number"), std::string::npos) << parsed.err().message;

  boost::json::object payload{{"parts", boost::json::array{1, std::numeric_limits<double>::quiet_NaN()}}};
  const auto problem = find_unwritable_json(payload, "payload");
  ASSERT_TRUE(problem);
  EXPECT_EQ(problem->field, "payload.parts[1]");
}

TEST(JsonCheck, StringsAndKeysThatAreNotUtf8AreNamed) {
  boost::json::object payload{{"content", "caf\xFF"}};
  auto problem = find_unwritable_json(payload, "payload");
  ASSERT_TRUE(problem);
  EXPECT_EQ(problem->message(), "payload.content: byte 0xff at offset 3 is not valid UTF-8");

  boost::json::object keyed;
  keyed["ok"] = 1;
  keyed["bad\xC0"] = 2;
  problem = find_unwritable_json(keyed);
  ASSERT_TRUE(problem);
  EXPECT_NE(problem->message().find("a key: byte 0xc0"), std::string::npos) << problem->message();
}

TEST(JsonCheck, ProblemsAreReportedInDocumentOrder) {
  const auto value = boost::json::value{{"a", std::numeric_limits<double>::infinity()}, {"b", "\xFF"}};
  const auto problem = find_unwritable_json(value);
  ASSERT_TRUE(problem);
  EXPECT_EQ(problem->field, "a");
}

// The check's promise: a tree it accepts serializes to text that parses back to the same tree,
// and a tree it refuses does not. Random trees mix valid and invalid strings and extreme numbers.
TEST(JsonCheck, AcceptsExactlyWhatSerializesAndParsesBack) {
  std::mt19937 gen(20261126);
  const double numbers[] = {0.0,
                            -1.5,
                            1e308,
                            -1e308,
                            5e-324,
                            std::numeric_limits<double>::infinity(),
                            -std::numeric_limits<double>::infinity(),
                            std::numeric_limits<double>::quiet_NaN()};
  auto random_string = [&] {
    std::string s;
    const int length = static_cast<int>(gen() % 6);
    for (int i = 0; i < length; ++i) s += static_cast<char>(gen() % 2 == 0 ? 'a' + gen() % 26 : gen() % 256);
    return s;
  };
  std::function<boost::json::value(int)> random_value = [&](int depth) -> boost::json::value {
    switch (depth > 3 ? gen() % 3 : gen() % 5) {
      case 0:
        return numbers[gen() % std::size(numbers)];
      case 1:
        return boost::json::string(random_string());
      case 2:
        return static_cast<std::int64_t>(gen());
      case 3: {
        boost::json::array array;
        for (int i = static_cast<int>(gen() % 4); i > 0; --i) array.push_back(random_value(depth + 1));
        return array;
      }
      default: {
        boost::json::object object;
        for (int i = static_cast<int>(gen() % 4); i > 0; --i) object[random_string()] = random_value(depth + 1);
        return object;
      }
    }
  };
  int accepted = 0;
  int refused = 0;
  for (int round = 0; round < 5000; ++round) {
    const auto value = random_value(0);
    const bool writable = !find_unwritable_json(value);
    boost::system::error_code ec;
    const auto back = read_json(boost::json::serialize(value), ec);
    const bool reads_back = !ec && back == value;
    ASSERT_EQ(writable, reads_back) << boost::json::serialize(value);
    (writable ? accepted : refused)++;
  }
  EXPECT_GT(accepted, 500);
  EXPECT_GT(refused, 500);
}

TEST(JsonCheck, RepairingReadReplacesBadBytesAndNonFiniteNumbers) {
  std::string repairs;
  auto plain = parse_json_repairing(R"({"a":1})", repairs);
  ASSERT_TRUE(plain);
  EXPECT_EQ(repairs, "");

  auto bytes = parse_json_repairing("{\"content\":\"caf\xFF\"}", repairs);
  ASSERT_TRUE(bytes);
  EXPECT_EQ(bytes->at("content").as_string(), "caf\xEF\xBF\xBD");
  EXPECT_EQ(repairs, "1 invalid UTF-8 sequence(s) replaced by U+FFFD");

  // What a serializer writes for infinity and NaN; the same words inside strings stay.
  auto numbers = parse_json_repairing(R"({"x":Infinity,"y":[-Infinity,NaN],"s":"Infinity NaN"})", repairs);
  ASSERT_TRUE(numbers);
  EXPECT_TRUE(numbers->at("x").is_null());
  EXPECT_TRUE(numbers->at("y").as_array()[0].is_null());
  EXPECT_EQ(numbers->at("s").as_string(), "Infinity NaN");
  EXPECT_EQ(repairs, "3 non-finite number(s) replaced by null");

  EXPECT_FALSE(parse_json_repairing("{\"truncated\":", repairs));
}

// Found by fuzz/event_codec_fuzzer.cpp: a number the parser reads as infinity (1e999) or NaN
// (Boost.JSON reads 0e400 so) survived a repair, so `parley repair` wrote back a payload that
// still did not read as JSON.
TEST(JsonCheck, ARepairedTreeIsOneTheLogCanHold) {
  std::string repairs;
  auto repaired = parse_json_repairing("{\"n\":1e999,\"z\":[0e400],\"s\":\"caf\xFF\"}", repairs);
  ASSERT_TRUE(repaired);
  EXPECT_FALSE(find_unwritable_json(*repaired));
  EXPECT_TRUE(repaired->at("n").is_null());
  // 0e400 is zero (read exactly: the library's own parser makes it NaN).
  EXPECT_EQ(repaired->at("z").as_array()[0], json::value(0.0));
  EXPECT_EQ(repairs, "1 invalid UTF-8 sequence(s) replaced by U+FFFD; 1 non-finite number(s) replaced by null");

  auto both = parse_json_repairing(R"({"a":Infinity,"b":-1e999})", repairs);
  ASSERT_TRUE(both);
  EXPECT_FALSE(find_unwritable_json(*both));
  EXPECT_EQ(repairs, "2 non-finite number(s) replaced by null");
}

}  // namespace
}  // namespace parley
