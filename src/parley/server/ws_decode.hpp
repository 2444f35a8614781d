// Decoding one text frame of a PubChan client into a checked packet, before anything acts on it:
// the size limit, JSON syntax, a JSON object that JSON text can carry back, a known client packet
// type, and fields of the kinds the protocol table (wire_schema.hpp) gives. Pure: no I/O, so the
// fuzz target fuzz/ws_packet_fuzzer.cpp runs it on its own.
#pragma once

#include <boost/json/object.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "parley/core/result.hpp"

namespace parley::server {

struct client_packet {
  std::string type;
  std::string ref;             // what an error or ack names: msgId when it is a string, else the type
  std::string dialog_id;       // dialog.selfId; empty for hello, the one packet without a dialog
  boost::json::object fields;  // the whole packet, `type` included
};

struct packet_refusal {
  std::string code;  // the error packet's code: too_large | bad_json | bad_field
  std::string message;
  std::string ref;  // empty when the packet is not known well enough to name it
};

// A hello must speak this server's protocol; it is refused here otherwise.
std::variant<client_packet, packet_refusal> decode_client_packet(std::string_view text, std::size_t max_bytes);

// What a subscribe packet asks beyond its dialog (docs/protocol-v1.json: both optional).
struct subscribe_request {
  std::optional<std::int64_t> after_seq;  // absent or null: no replay, only what comes next
  std::string epoch;                      // absent: the client has seen no epoch yet
};
// invalid_argument naming the field when one is of the wrong type.
result<subscribe_request> read_subscribe_request(const boost::json::object& packet);

}  // namespace parley::server
