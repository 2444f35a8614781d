#include "parley/server/ws_decode.hpp"

#include "parley/core/json_check.hpp"
#include "parley/core/json_fields.hpp"
#include "parley/core/json_read.hpp"
#include "parley/server/wire_schema.hpp"

namespace parley::server {

std::variant<client_packet, packet_refusal> decode_client_packet(std::string_view text, std::size_t max_bytes) {
  if (text.size() > max_bytes) {
    return packet_refusal{
        "too_large",
        "packet: " + std::to_string(text.size()) + " bytes, over the limit of " + std::to_string(max_bytes), ""};
  }
  boost::system::error_code parse_error;
  auto parsed = read_json(text, parse_error);
  if (parse_error) return packet_refusal{"bad_json", "not JSON: " + parse_error.message(), ""};
  if (!parsed.is_object()) {
    return packet_refusal{"bad_json", std::string("expected a JSON object, got ") + json_kind_name(parsed), ""};
  }
  auto& packet = parsed.as_object();
  if (auto problem = find_unwritable_json(packet)) return packet_refusal{"bad_field", problem->message(), ""};
  const auto* type_value = packet.if_contains("type");
  if (type_value == nullptr || !type_value->is_string())
    return packet_refusal{"bad_field", "type: expected a string", ""};
  std::string type(type_value->as_string());
  const auto* spec = find_packet(packet_direction::client, type);
  const auto kind = from_name<client_packet_type>(type);
  if (spec == nullptr || !kind) return packet_refusal{"bad_field", "type: unknown packet type '" + type + "'", type};
  const auto* msg_id = packet.if_contains("msgId");
  std::string ref = msg_id != nullptr && msg_id->is_string() ? std::string(msg_id->as_string()) : type;
  if (auto valid = validate_packet(packet, *spec); !valid) return packet_refusal{"bad_field", valid.err().message, ref};
  std::string dialog_id;
  json_fields in(packet);
  if (*kind == client_packet_type::hello) {
    const std::int64_t protocol = in.integer("protocol");
    if (!in.ok()) return packet_refusal{"bad_field", in.message(), ref};
    if (protocol != protocol_version) {
      return packet_refusal{"bad_field", "protocol: this server speaks protocol " + std::to_string(protocol_version),
                            ref};
    }
  } else {
    if (const auto* dialog = in.object("dialog")) {
      auto dialog_fields = in.nested(*dialog, "dialog");
      dialog_id = dialog_fields.string("selfId");
      in.adopt(dialog_fields);
    }
    if (!in.ok()) return packet_refusal{"bad_field", in.message(), ref};
  }
  return client_packet{*kind, std::move(ref), std::move(dialog_id), std::move(packet)};
}

result<subscribe_request> read_subscribe_request(const boost::json::object& packet) {
  json_fields in(packet);
  subscribe_request out;
  out.after_seq = in.optional_integer("afterSeq");
  out.epoch = in.optional_string("epoch").value_or("");
  PARLEY_TRY(in.status());
  return out;
}

}  // namespace parley::server
