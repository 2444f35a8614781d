// tests/data/events-v1.jsonl is a log written by the code before typed events (see
// tests/data/README.md). Every line decodes through the typed codec and re-encodes to the same
// JSON: the typed events read every payload shape the older code wrote, and lose nothing of it.
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

TEST(EventFixture, EveryEventOfTheOlderLogDecodesAndReencodesToTheSameJson) {
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
    EXPECT_EQ(again, wire) << where << ": re-encoded as " << boost::json::serialize(again);
    types.insert(type);
  }
  // Every type the older code wrote is in the fixture.
  EXPECT_EQ(types.size(), std::variant_size_v<events::event_payload> - 1) << "types in the fixture: " << types.size();
}

}  // namespace
}  // namespace parley
