// The PubChan protocol v1 as data: one table lists every client packet and server packet with its
// fields and JSON types. The same table validates what clients send (with messages that name the
// field), checks what the encoder produces (debug builds and tests) and is printed as the schema
// snapshot docs/protocol-v1.json, so the three cannot drift apart.
#pragma once

#include <boost/json/object.hpp>

#include <span>
#include <string_view>

#include "parley/core/result.hpp"

namespace parley::server {

enum class json_kind { string, integer, boolean, object, array, any };

struct field_spec {
  std::string_view name;
  json_kind kind = json_kind::string;
  bool required = true;
  std::span<const field_spec> fields;  // the members of an object field, when fixed
  std::string_view only_value;         // a string field that must have exactly this value
  std::string_view shape;              // a named shape documented in docs/server.md, e.g. "DialogSummary"
};

enum class packet_direction { client, server };

struct packet_spec {
  std::string_view type;
  packet_direction direction = packet_direction::server;
  std::span<const field_spec> fields;  // every field except `type`, common ones included
  std::string_view doc;
};

inline constexpr int protocol_version = 1;
inline constexpr std::string_view protocol_subprotocol = "parley.v1";

std::span<const packet_spec> protocol_packets();
const packet_spec* find_packet(packet_direction direction, std::string_view type);

// Checks `packet` against its spec: required fields present, every known field of the right JSON
// type. The error message names the field path, e.g. "dialog.selfId: expected a string".
result<void> validate_packet(const boost::json::object& packet, const packet_spec& spec);

// The document checked in as docs/protocol-v1.json.
boost::json::object protocol_schema();

}  // namespace parley::server
