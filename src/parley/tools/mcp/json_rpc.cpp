#include "parley/tools/mcp/json_rpc.hpp"

#include <boost/json/serialize.hpp>

#include <cstdint>

#include "parley/core/json_read.hpp"

namespace parley::tools::mcp {

namespace json = boost::json;

namespace {

error invalid(std::string message) { return make_error(errc::invalid_argument, std::move(message)); }

// The id member, when it is one MCP allows.
result<request_id> read_id(const json::value& id) {
  if (id.is_int64()) return request_id{id.as_int64()};
  if (id.is_uint64()) {
    if (id.as_uint64() > static_cast<std::uint64_t>(INT64_MAX)) return invalid("JSON-RPC 'id' is out of range");
    return request_id{static_cast<std::int64_t>(id.as_uint64())};
  }
  if (id.is_string()) return request_id{std::string(id.as_string())};
  return invalid(std::string("JSON-RPC 'id' must be a string or an integer, got ") + (id.is_null() ? "null"
                                                                                      : id.is_double()
                                                                                          ? "a fraction"
                                                                                          : "another type"));
}

result<json::object> read_params(const json::object& message) {
  const auto* params = message.if_contains("params");
  if (params == nullptr) return json::object{};
  // MCP's params are always objects; JSON-RPC's positional (array) params are not used by it.
  if (!params->is_object()) return invalid("JSON-RPC 'params' must be an object");
  return params->as_object();
}

result<rpc_error> read_error(const json::value& value) {
  if (!value.is_object()) return invalid("JSON-RPC 'error' must be an object");
  const auto& obj = value.as_object();
  const auto* code = obj.if_contains("code");
  const auto* message = obj.if_contains("message");
  if (code == nullptr || !code->is_int64()) return invalid("JSON-RPC 'error.code' must be an integer");
  if (code->as_int64() < INT32_MIN || code->as_int64() > INT32_MAX)
    return invalid("JSON-RPC 'error.code' is out of range");
  if (message == nullptr || !message->is_string()) return invalid("JSON-RPC 'error.message' must be a string");
  rpc_error out{static_cast<int>(code->as_int64()), std::string(message->as_string()), std::nullopt};
  if (const auto* data = obj.if_contains("data")) out.data = *data;
  return out;
}

bool known_member(std::string_view key) {
  return key == "jsonrpc" || key == "id" || key == "method" || key == "params" || key == "result" || key == "error";
}

}  // namespace

std::string to_string(const request_id& id) {
  if (const auto* number = std::get_if<std::int64_t>(&id)) return std::to_string(*number);
  return json::serialize(json::value(std::get<std::string>(id)));
}

json::value to_json(const request_id& id) {
  if (const auto* number = std::get_if<std::int64_t>(&id)) return *number;
  return json::value(std::get<std::string>(id));
}

result<rpc_message> parse_message(std::string_view text, std::optional<request_id>* bad_request_id) {
  boost::system::error_code ec;
  const json::value doc = read_json(text, ec);
  if (ec) return invalid("not JSON: " + ec.message());
  if (doc.is_array()) return invalid("a JSON-RPC batch (MCP sends one message at a time)");
  if (!doc.is_object()) return invalid("a JSON-RPC message must be an object");
  const auto& obj = doc.as_object();

  const auto* id_value = obj.if_contains("id");
  std::optional<request_id> id;
  if (id_value != nullptr) {
    auto read = read_id(*id_value);
    if (!read) return std::move(read).err();
    id = std::move(*read);
  }
  // From here on, a request with a usable id can be answered with what is wrong with it.
  auto refuse = [&](std::string message) -> result<rpc_message> {
    if (bad_request_id != nullptr && id && obj.contains("method")) *bad_request_id = id;
    return invalid(std::move(message));
  };

  const auto* version = obj.if_contains("jsonrpc");
  if (version == nullptr || !version->is_string() || version->as_string() != "2.0")
    return refuse("JSON-RPC 'jsonrpc' must be \"2.0\"");
  for (const auto& member : obj) {
    if (!known_member(member.key())) return refuse("unknown JSON-RPC member '" + std::string(member.key()) + "'");
  }

  if (const auto* method = obj.if_contains("method")) {
    if (!method->is_string() || method->as_string().empty())
      return refuse("JSON-RPC 'method' must be a non-empty string");
    if (obj.contains("result") || obj.contains("error"))
      return refuse("a JSON-RPC request cannot carry 'result' or 'error'");
    auto params = read_params(obj);
    if (!params) return refuse(params.err().message);
    if (!id) return rpc_message{rpc_notification{std::string(method->as_string()), std::move(*params)}};
    return rpc_message{rpc_request{std::move(*id), std::string(method->as_string()), std::move(*params)}};
  }

  if (!id) return invalid("a JSON-RPC response must carry its request's 'id'");
  if (obj.contains("params")) return invalid("a JSON-RPC response cannot carry 'params'");
  const auto* result_value = obj.if_contains("result");
  const auto* error_value = obj.if_contains("error");
  if ((result_value == nullptr) == (error_value == nullptr))
    return invalid("a JSON-RPC response must carry exactly one of 'result' and 'error'");
  if (result_value != nullptr) return rpc_message{rpc_response{std::move(*id), *result_value}};
  auto err = read_error(*error_value);
  if (!err) return std::move(err).err();
  return rpc_message{rpc_response{std::move(*id), std::move(*err)}};
}

std::string serialize(const rpc_request& request) {
  json::object out{{"jsonrpc", "2.0"}, {"id", to_json(request.id)}, {"method", request.method}};
  if (!request.params.empty()) out["params"] = request.params;
  return json::serialize(out);
}

std::string serialize(const rpc_notification& notification) {
  json::object out{{"jsonrpc", "2.0"}, {"method", notification.method}};
  if (!notification.params.empty()) out["params"] = notification.params;
  return json::serialize(out);
}

std::string serialize(const rpc_response& response) {
  json::object out{{"jsonrpc", "2.0"}, {"id", to_json(response.id)}};
  if (const auto* value = std::get_if<json::value>(&response.outcome)) {
    out["result"] = *value;
  } else {
    const auto& err = std::get<rpc_error>(response.outcome);
    json::object error{{"code", err.code}, {"message", err.message}};
    if (err.data) error["data"] = *err.data;
    out["error"] = std::move(error);
  }
  return json::serialize(out);
}

std::string serialize(const rpc_message& message) {
  return std::visit([](const auto& m) { return serialize(m); }, message);
}

rpc_response result_response(request_id id, json::value result) {
  return rpc_response{std::move(id), std::move(result)};
}

rpc_response error_response(request_id id, int code, std::string message) {
  return rpc_response{std::move(id), rpc_error{code, std::move(message), std::nullopt}};
}

}  // namespace parley::tools::mcp
