// The server module's request readers (server/rest_support.hpp) and the WebSocket packet decoder
// (server/ws_decode.hpp), on their own: what the fuzz targets rest_api and ws_packet check at scale,
// pinned down case by case.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>

#include <string>
#include <variant>

#include "parley/core/json.hpp"
#include "parley/core/utf8.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/server/rest_support.hpp"
#include "parley/server/ws_decode.hpp"
#include "parley/store/store.hpp"
#include "unit/engine/engine_test_support.hpp"

namespace parley::server {
namespace {

// Found by fuzz/rest_api_fuzzer.cpp: an unknown id from a percent-decoded path (%FF) was quoted
// in the error as it was, so the response was not UTF-8 and not JSON a client could read.
TEST(RestSupport, ErrorMessagesAreUtf8WhateverTheyQuote) {
  const auto response = error_response(404, "not_found", "no dialog with id '\xFF\xFEno'");
  ASSERT_TRUE(response.body.is_object());
  const std::string message = json_string_or(*json_object_at(response.body.get_object(), "error"), "message");
  EXPECT_EQ(message, "no dialog with id '\xEF\xBF\xBD\xEF\xBF\xBDno'");
}

class ReadUserInput : public ::testing::Test {
 protected:
  void SetUp() override {
    auto created = engine::engine::create(io_.get_executor(), *log_, team_.load(),
                                          engine::build_providers(team_.load()).value(), engine::build_builtin_tools());
    ASSERT_TRUE(created) << created.err().message;
    eng_ = std::move(*created);
  }

  boost::asio::io_context io_;
  engine::testing::temp_team team_{engine::testing::kOneMemberTeam, "members:\n  \"*\":\n    - emit: [{saying: ok}]\n"};
  std::unique_ptr<store> log_ = make_memory_store();
  std::unique_ptr<engine::engine> eng_;
};

// Found by fuzz/rest_api_fuzzer.cpp: the Idempotency-Key header became the message's msgId as it
// was; bytes that are not UTF-8 made the log refuse the user_message, and the dialog with it.
TEST_F(ReadUserInput, AnIdempotencyKeyThatIsNotUtf8IsRefused) {
  const boost::json::object body{{"content", "hello"}};
  auto refused = read_user_input(*eng_, body, "key-\xFF");
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.err().code, errc::invalid_argument);
  EXPECT_EQ(refused.err().message, "Idempotency-Key: byte 0xff at offset 4 is not valid UTF-8; use UTF-8 text");

  auto taken = read_user_input(*eng_, body, "key-\xE4\xB8\xAD");
  ASSERT_TRUE(taken) << taken.err().message;
  EXPECT_EQ(taken->msg_id, "key-\xE4\xB8\xAD");
  EXPECT_TRUE(taken->msg_id_from_client);
}

client_packet decoded(std::string_view text) {
  auto result = decode_client_packet(text, 1024);
  if (auto* refused = std::get_if<packet_refusal>(&result)) {
    ADD_FAILURE() << "refused: " << refused->code << " " << refused->message;
    return {};
  }
  return std::get<client_packet>(std::move(result));
}

packet_refusal refusal(std::string_view text) {
  auto result = decode_client_packet(text, 64);
  if (!std::holds_alternative<packet_refusal>(result)) {
    ADD_FAILURE() << "accepted " << text;
    return {};
  }
  return std::get<packet_refusal>(std::move(result));
}

TEST(WsDecode, AnInputPacketNamesItsDialogAndIsReferredToByItsMsgId) {
  const auto packet =
      decoded(R"({"type":"drive_dlg_by_user_msg","dialog":{"selfId":"d1"},"content":"hi","msgId":"m1"})");
  EXPECT_EQ(packet.type, client_packet_type::drive_dlg_by_user_msg);
  EXPECT_EQ(packet.dialog_id, "d1");
  EXPECT_EQ(packet.ref, "m1");
  const auto hello = decoded(R"({"type":"hello","protocol":1})");
  EXPECT_EQ(hello.type, client_packet_type::hello);
  EXPECT_EQ(hello.ref, "hello");
  EXPECT_EQ(hello.dialog_id, "");
}

TEST(WsDecode, RefusalsSayWhyWithTheWireCode) {
  const auto large = refusal(std::string(65, ' '));
  EXPECT_EQ(large.code, "too_large");
  EXPECT_EQ(large.message, "packet: 65 bytes, over the limit of 64");
  EXPECT_EQ(refusal("[1]").message, "expected a JSON object, got array");
  EXPECT_EQ(refusal("{").code, "bad_json");
  EXPECT_EQ(refusal(R"({"type":"subscribe","x":1e999})").code, "bad_field");
  const auto unknown = refusal(R"({"type":"nope"})");
  EXPECT_EQ(unknown.message, "type: unknown packet type 'nope'");
  EXPECT_EQ(unknown.ref, "nope");
  const auto no_dialog = refusal(R"({"type":"resume","msgId":"m2"})");
  EXPECT_EQ(no_dialog.message, "dialog: missing (expected an object)");
  EXPECT_EQ(no_dialog.ref, "m2");
  EXPECT_EQ(refusal(R"({"type":"hello","protocol":2})").message, "protocol: this server speaks protocol 1");
}

// A subscribe's replay fields, typed: a wrong-typed epoch is an error naming it, where it used to
// read as "" (a subscription with no epoch, replaying from the wrong place).
TEST(WsDecode, ASubscribeReadsItsReplayFieldsStrictly) {
  auto asked = read_subscribe_request(
      parse_json(R"({"type":"subscribe","dialog":{"selfId":"d1"},"afterSeq":7,"epoch":"e1"})")->as_object());
  ASSERT_TRUE(asked) << asked.err().message;
  EXPECT_EQ(asked->after_seq, 7);
  EXPECT_EQ(asked->epoch, "e1");
  auto fresh = read_subscribe_request(parse_json(R"({"type":"subscribe","afterSeq":null})")->as_object());
  ASSERT_TRUE(fresh);
  EXPECT_FALSE(fresh->after_seq);
  EXPECT_EQ(fresh->epoch, "");
  auto wrong = read_subscribe_request(parse_json(R"({"type":"subscribe","epoch":5})")->as_object());
  ASSERT_FALSE(wrong);
  EXPECT_EQ(wrong.err().message, "field 'epoch': expected a string, got an integer");
  auto seq = read_subscribe_request(parse_json(R"({"type":"subscribe","afterSeq":"3"})")->as_object());
  ASSERT_FALSE(seq);
  EXPECT_EQ(seq.err().message, "field 'afterSeq': expected an integer, got a string");
}

}  // namespace
}  // namespace parley::server
