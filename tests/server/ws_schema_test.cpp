// docs/protocol-v1.json is the protocol table of wire_schema.cpp, printed. When they differ, the
// test writes the document the code describes next to the build, or over the checked-in file
// with PARLEY_UPDATE_PROTOCOL_SCHEMA=1.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "parley/server/wire_schema.hpp"
#include "support/pretty_json.hpp"

namespace parley::server {
namespace {

std::string schema_text() {
  std::string out;
  test::pretty_json(protocol_schema(), out, 0);
  return out + "\n";
}

TEST(WsProtocolSchema, TheCheckedInSnapshotMatchesTheCode) {
  const std::filesystem::path file = std::filesystem::path(PARLEY_SOURCE_DIR) / "docs" / "protocol-v1.json";
  if (std::getenv("PARLEY_UPDATE_PROTOCOL_SCHEMA") != nullptr) std::ofstream(file) << schema_text();
  std::ifstream in(file);
  ASSERT_TRUE(in) << "missing " << file;
  std::stringstream text;
  text << in.rdbuf();
  boost::system::error_code ec;
  const auto stored = boost::json::parse(text.str(), ec);
  ASSERT_FALSE(ec) << file << ": " << ec.message();
  const boost::json::value expected = protocol_schema();
  if (stored != expected) {
    std::ofstream("protocol-v1.expected.json") << schema_text();
    FAIL() << file << " differs from the protocol table in wire_schema.cpp; the table's version is in "
           << std::filesystem::absolute("protocol-v1.expected.json")
           << " (PARLEY_UPDATE_PROTOCOL_SCHEMA=1 rewrites the snapshot)";
  }
}

TEST(WsProtocolSchema, EveryTypeOfTheDocIsInTheTable) {
  for (const auto type : {"hello", "subscribe", "unsubscribe", "drive_dlg_by_user_msg", "drive_dialog_by_user_answer",
                          "interrupt", "resume", "declare_subdialog_dead"}) {
    EXPECT_NE(find_packet(packet_direction::client, type), nullptr) << type;
  }
  for (const auto type : {"user_message_evt",
                          "generating_start_evt",
                          "thinking_start_evt",
                          "thinking_chunk_evt",
                          "thinking_finish_evt",
                          "saying_start_evt",
                          "saying_chunk_evt",
                          "saying_finish_evt",
                          "generating_finish_evt",
                          "tool_call_evt",
                          "tool_result_evt",
                          "tellask_call_evt",
                          "tellask_result_evt",
                          "subdialog_created_evt",
                          "reminders_update_evt",
                          "course_update_evt",
                          "dialog_state_evt",
                          "stream_error_evt",
                          "questions_count_update",
                          "dialog_list_evt",
                          "welcome",
                          "ack",
                          "error",
                          "resync"}) {
    EXPECT_NE(find_packet(packet_direction::server, type), nullptr) << type;
  }
}

std::string problem(std::string_view text, std::string_view type) {
  const auto packet = boost::json::parse(text).as_object();
  auto checked = validate_packet(packet, *find_packet(packet_direction::client, type));
  return checked ? "" : checked.err().message;
}

TEST(WsProtocolSchema, ValidationNamesTheField) {
  EXPECT_EQ(problem(R"({"type":"subscribe","dialog":{"selfId":"d"}})", "subscribe"), "");
  EXPECT_EQ(problem(R"({"type":"subscribe","dialog":{"selfId":7}})", "subscribe"), "dialog.selfId: expected a string");
  EXPECT_EQ(problem(R"({"type":"subscribe"})", "subscribe"), "dialog: missing (expected an object)");
  EXPECT_EQ(problem(R"({"type":"subscribe","dialog":{"selfId":"d"},"afterSeq":"3"})", "subscribe"),
            "afterSeq: expected an integer");
  EXPECT_EQ(problem(R"({"type":"subscribe","dialog":{"selfId":"d"},"afterSeq":null})", "subscribe"), "");
  EXPECT_EQ(problem(R"({"type":"drive_dialog_by_user_answer","dialog":{"selfId":"d"},"content":"x","msgId":"m",
                       "questionId":"q","continuationType":"later"})",
                    "drive_dialog_by_user_answer"),
            "continuationType: expected \"answer\", got \"later\"");
  EXPECT_EQ(problem(R"({"type":"drive_dlg_by_user_msg","dialog":{"selfId":"d"},"content":true,"msgId":"m"})",
                    "drive_dlg_by_user_msg"),
            "content: expected a string");
}

}  // namespace
}  // namespace parley::server
