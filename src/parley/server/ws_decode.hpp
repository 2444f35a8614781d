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
#include "parley/core/vocabulary.hpp"

namespace parley::server {

// The packet types a client sends (the client rows of wire_schema.cpp's protocol table), read
// once here; the session and the input handlers switch on it.
enum class client_packet_type {
  hello,
  subscribe,
  unsubscribe,
  drive_dlg_by_user_msg,
  drive_dialog_by_user_answer,
  interrupt,
  resume,
  declare_subdialog_dead
};

}  // namespace parley::server

namespace parley {

template <>
struct vocabulary<server::client_packet_type> {
  using type = server::client_packet_type;
  static constexpr std::array<std::pair<type, std::string_view>, 8> values{
      {{type::hello, "hello"},
       {type::subscribe, "subscribe"},
       {type::unsubscribe, "unsubscribe"},
       {type::drive_dlg_by_user_msg, "drive_dlg_by_user_msg"},
       {type::drive_dialog_by_user_answer, "drive_dialog_by_user_answer"},
       {type::interrupt, "interrupt"},
       {type::resume, "resume"},
       {type::declare_subdialog_dead, "declare_subdialog_dead"}}};
};

}  // namespace parley

namespace parley::server {

struct client_packet {
  client_packet_type type = client_packet_type::hello;
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
