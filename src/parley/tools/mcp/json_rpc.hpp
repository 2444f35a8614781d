// JSON-RPC 2.0 messages as MCP carries them (one JSON object a message; MCP sends no batches since
// its 2025-06-18 revision, and Parley neither sends nor accepts them). Shared by Parley's MCP client
// (tools/mcp) and its MCP server (server/mcp_*).
//
// Read strictly: a message that is not an object, lacks `"jsonrpc": "2.0"`, has an id that is not a
// string or an integer, or mixes the members of a request and a response, is refused with a
// sentence naming the member — a peer's garbage never becomes a default.
#pragma once

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "parley/core/result.hpp"

namespace parley::tools::mcp {

// A request's id: MCP allows strings and integers (never null, never fractions).
using request_id = std::variant<std::int64_t, std::string>;
std::string to_string(const request_id& id);  // 7 → "7", "a" → "\"a\"": for messages
boost::json::value to_json(const request_id& id);

// JSON-RPC's error codes that MCP uses.
namespace rpc_code {
constexpr int kParseError = -32700;
constexpr int kInvalidRequest = -32600;
constexpr int kMethodNotFound = -32601;
constexpr int kInvalidParams = -32602;
constexpr int kInternalError = -32603;
constexpr int kRequestTimeout = -32001;  // MCP's SDKs: the request took longer than allowed
}  // namespace rpc_code

struct rpc_error {
  int code = rpc_code::kInternalError;
  std::string message;
  std::optional<boost::json::value> data;
};

struct rpc_request {
  request_id id;
  std::string method;
  boost::json::object params;  // absent params read as {}
};

struct rpc_notification {
  std::string method;
  boost::json::object params;
};

struct rpc_response {
  request_id id;
  std::variant<boost::json::value, rpc_error> outcome;  // result, or error
  bool ok() const { return outcome.index() == 0; }
};

using rpc_message = std::variant<rpc_request, rpc_notification, rpc_response>;

// One message from its JSON text. errc::invalid_argument names what is wrong. When the text is an
// object with a usable id but is otherwise not a valid request, `bad_request_id` is set, so that a
// server can answer that id with kInvalidRequest.
result<rpc_message> parse_message(std::string_view text, std::optional<request_id>* bad_request_id = nullptr);

// One message as compact JSON text (no newline).
std::string serialize(const rpc_request& request);
std::string serialize(const rpc_notification& notification);
std::string serialize(const rpc_response& response);
std::string serialize(const rpc_message& message);

// Shorthands for answers.
rpc_response result_response(request_id id, boost::json::value result);
rpc_response error_response(request_id id, int code, std::string message);

}  // namespace parley::tools::mcp
