// docs/events.json is the codec's schema of the log, printed: every event type, its fields, their
// wire types, which are required, their defaults and enum values. When the code and the file
// differ, the test writes the code's version next to the build, or over the checked-in file with
// PARLEY_UPDATE_SNAPSHOTS=1 — so every change to the log's format shows in review.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "parley/model/event_codec.hpp"
#include "support/pretty_json.hpp"

namespace parley {
namespace {

boost::json::object document() {
  return {{"log", 1},
          {"note",
           "generated from the field lists of src/parley/model/events/*.hpp by the codec "
           "(model/event_codec.hpp); see docs/events.md. Readers ignore fields and event types they do not know."},
          {"events", event_schema()}};
}

std::string document_text() {
  std::string out;
  test::pretty_json(document(), out, 0);
  return out + "\n";
}

TEST(EventSchema, TheCheckedInSnapshotMatchesTheCodec) {
  const std::filesystem::path file = std::filesystem::path(PARLEY_SOURCE_DIR) / "docs" / "events.json";
  if (std::getenv("PARLEY_UPDATE_SNAPSHOTS") != nullptr) std::ofstream(file) << document_text();
  std::ifstream in(file);
  ASSERT_TRUE(in) << "missing " << file << " (PARLEY_UPDATE_SNAPSHOTS=1 writes it)";
  std::stringstream text;
  text << in.rdbuf();
  boost::system::error_code ec;
  const auto stored = boost::json::parse(text.str(), ec);
  ASSERT_FALSE(ec) << file << ": " << ec.message();
  if (stored != boost::json::value(document())) {
    std::ofstream("events.expected.json") << document_text();
    FAIL() << file << " differs from the codec's schema; the codec's version is in "
           << std::filesystem::absolute("events.expected.json") << " (PARLEY_UPDATE_SNAPSHOTS=1 rewrites the snapshot)";
  }
}

TEST(EventSchema, EveryTypeNamedInTheDocIsInTheSchema) {
  const auto schema = event_schema();
  std::ifstream in(std::filesystem::path(PARLEY_SOURCE_DIR) / "docs" / "events.md");
  std::stringstream text;
  text << in.rdbuf();
  for (const auto& [type, entry] : schema) {
    EXPECT_NE(text.str().find("`" + std::string(type) + "`"), std::string::npos)
        << type << " is not in docs/events.md's table";
  }
}

}  // namespace
}  // namespace parley
