// WebSocket packet decoding (server/ws_decode.hpp): an input is one text frame from a client.
//  - Refused: one of the three codes, a message; the error packet that carries it is a valid
//    server packet whose JSON text reads back (checked by encode_packet in this build).
//  - Accepted: a client packet type whose fields match the protocol table; the tree writes and
//    reads back as is; every packet but hello names a dialog (dialog.selfId, a string), which the
//    session and run_input read without further checks; ref is msgId or the type; a hello speaks
//    this protocol; an answer says continuationType "answer"; a subscribe's replay fields read typed
//    (read_subscribe_request) whenever the table took them.
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <cstdint>
#include <string>
#include <variant>

#include "fuzz_support.hpp"
#include "parley/core/json.hpp"
#include "parley/core/json_check.hpp"
#include "parley/core/utf8.hpp"
#include "parley/server/wire_packet.hpp"
#include "parley/server/wire_schema.hpp"
#include "parley/server/ws_decode.hpp"
#include "parley/server/ws_inputs.hpp"

namespace {

using namespace parley;
using parley::fuzz::as_text;

// Small, so that the fuzzer reaches it.
constexpr std::size_t kMaxPacketBytes = 2048;

void check_refusal(const server::packet_refusal& refused, std::string_view text) {
  FUZZ_CHECK(refused.code == "too_large" || refused.code == "bad_json" || refused.code == "bad_field",
             "unknown error code " + refused.code);
  FUZZ_CHECK((refused.code == "too_large") == (text.size() > kMaxPacketBytes), "too_large for the wrong size");
  FUZZ_CHECK(!refused.message.empty(), "a refusal without a message");
  boost::json::object fields{{"code", refused.code}, {"message", refused.message}};
  if (!refused.ref.empty()) fields["ref"] = refused.ref;
  // What the client gets must be JSON it can read.
  FUZZ_CHECK(!find_unwritable_json(fields), "the error packet cannot be written: " + refused.message);
  const auto packet = server::encode_packet("error", std::move(fields));
  FUZZ_CHECK(parse_json(packet->json).has_value(), "the error packet is not JSON: " + packet->json);
}

void check_packet(const server::client_packet& packet, std::string_view text) {
  using type = server::client_packet_type;
  const std::string type_name(to_name(packet.type));
  const auto* spec = server::find_packet(server::packet_direction::client, type_name);
  FUZZ_CHECK(spec != nullptr, "accepted an unknown type " + type_name);
  FUZZ_CHECK(server::validate_packet(packet.fields, *spec).has_value(), "accepted fields the table refuses");
  FUZZ_CHECK(json_string_or(packet.fields, "type") == type_name, "type differs from the packet's");
  FUZZ_CHECK(!find_unwritable_json(packet.fields), "accepted a tree that cannot be written");
  const std::string written = boost::json::serialize(packet.fields);
  auto again = parse_json(written);
  FUZZ_CHECK(again && *again == boost::json::value(packet.fields), "the packet does not read back as written");

  const auto* msg_id = packet.fields.if_contains("msgId");
  const std::string expected_ref =
      msg_id != nullptr && msg_id->is_string() ? std::string(msg_id->get_string()) : type_name;
  FUZZ_CHECK(packet.ref == expected_ref, "ref is '" + packet.ref + "'");
  FUZZ_CHECK(is_valid_utf8(packet.ref), "ref is not UTF-8");

  if (packet.type == type::hello) {
    FUZZ_CHECK(json_int_or(packet.fields, "protocol") == server::protocol_version, "a hello of another protocol");
    FUZZ_CHECK(packet.dialog_id.empty(), "a hello with a dialog");
    return;
  }
  const auto* dialog = json_object_at(packet.fields, "dialog");
  FUZZ_CHECK(dialog != nullptr, "a packet without a dialog object: " + std::string(text));
  const auto* self_id = dialog->if_contains("selfId");
  FUZZ_CHECK(self_id != nullptr && self_id->is_string(), "dialog.selfId is not a string");
  FUZZ_CHECK(packet.dialog_id == self_id->get_string(), "dialog_id differs from dialog.selfId");
  if (server::is_input_packet(packet.type)) {
    if (packet.type == type::drive_dlg_by_user_msg || packet.type == type::drive_dialog_by_user_answer) {
      const auto* content = packet.fields.if_contains("content");
      FUZZ_CHECK(content != nullptr && content->is_string(), "a message without content");
      FUZZ_CHECK(msg_id != nullptr && msg_id->is_string(), "a message without msgId");
    }
    if (packet.type == type::drive_dialog_by_user_answer) {
      FUZZ_CHECK(json_string_or(packet.fields, "continuationType") == "answer", "an answer of another kind");
      const auto* question = packet.fields.if_contains("questionId");
      FUZZ_CHECK(question != nullptr && question->is_string(), "an answer without questionId");
    }
  } else {
    FUZZ_CHECK(packet.type == type::subscribe || packet.type == type::unsubscribe, "unexpected type " + type_name);
    if (const auto* after = packet.fields.if_contains("afterSeq"); after != nullptr && !after->is_null()) {
      FUZZ_CHECK(after->is_int64() || after->is_uint64(), "afterSeq is not an integer");
    }
    // The session reads a subscribe's replay fields typed: what the protocol table took must read.
    if (packet.type == type::subscribe) {
      auto asked = server::read_subscribe_request(packet.fields);
      FUZZ_CHECK(asked.has_value(), "a subscribe the table took does not read: " + asked.err().message);
      const auto* after = packet.fields.if_contains("afterSeq");
      FUZZ_CHECK(asked->after_seq.has_value() == (after != nullptr && !after->is_null()), "afterSeq read wrongly");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = as_text(data, size);
  auto decoded = server::decode_client_packet(text, kMaxPacketBytes);
  if (const auto* refused = std::get_if<server::packet_refusal>(&decoded)) {
    check_refusal(*refused, text);
  } else {
    FUZZ_CHECK(text.size() <= kMaxPacketBytes, "accepted a packet over the limit");
    check_packet(std::get<server::client_packet>(decoded), text);
  }
  return 0;
}
