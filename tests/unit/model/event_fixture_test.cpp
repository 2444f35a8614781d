// tests/data/events-v1.jsonl is a log written by the code before typed events (see
// tests/data/README.md). Every line decodes through the typed codec and re-encodes to the same
// JSON, except the fields the codec leaves out at their declared default (docs/events.md, "Fields
// at their default"): the typed events read every payload shape the older code wrote, and lose
// nothing of it.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "parley/model/event_codec.hpp"

namespace parley {
namespace {

// True when `part` is `whole` with some object members left out, at any depth.
bool is_part_of(const boost::json::value& part, const boost::json::value& whole) {
  if (part.is_object() && whole.is_object()) {
    for (const auto& [key, value] : part.as_object()) {
      const auto* there = whole.as_object().if_contains(key);
      if (there == nullptr || !is_part_of(value, *there)) return false;
    }
    return true;
  }
  if (part.is_array() && whole.is_array()) {
    const auto& a = part.as_array();
    const auto& b = whole.as_array();
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (!is_part_of(a[i], b[i])) return false;
    }
    return true;
  }
  return part == whole;
}

TEST(EventFixture, EveryEventOfTheOlderLogDecodesAndReencodesToTheSameJsonLessItsDefaults) {
  const auto file = std::filesystem::path(PARLEY_SOURCE_DIR) / "tests" / "data" / "events-v1.jsonl";
  std::ifstream in(file);
  ASSERT_TRUE(in) << "missing " << file;
  std::string line;
  int number = 0;
  std::set<std::string> types;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty()) continue;
    const auto ev = boost::json::parse(line).as_object();
    const std::string type(ev.at("type").as_string());
    const auto where = file.filename().string() + ":" + std::to_string(number) + " (" + type + ", dialog " +
                       std::string(ev.at("dialogId").as_string()) + " seq " + std::to_string(ev.at("seq").as_int64()) +
                       ")";
    EXPECT_TRUE(is_known_event_type(type)) << where;
    const auto& wire = ev.at("payload").as_object();
    auto typed = decode_payload(type, wire);
    ASSERT_TRUE(typed) << where << ": " << typed.err().message;
    const auto again = encode_payload(*typed);
    EXPECT_TRUE(is_part_of(again, wire)) << where << ": re-encoded as " << boost::json::serialize(again);
    auto read_again = decode_payload(type, again);
    ASSERT_TRUE(read_again) << where << ": " << read_again.err().message;
    EXPECT_EQ(*read_again, *typed) << where << ": re-encoded as " << boost::json::serialize(again);
    types.insert(type);
  }
  // Every type the older code wrote is in the fixture.
  EXPECT_EQ(types.size(), std::variant_size_v<events::event_payload> - 1) << "types in the fixture: " << types.size();
}

}  // namespace
}  // namespace parley
