// `parley serve --mcp`: MCP's streamable HTTP transport at /mcp (docs/mcp.md, "Parley as an MCP
// server"). A POST carries one JSON-RPC message: a request is answered with application/json, or
// with text/event-stream when it sends progress first and the client's Accept takes a stream; a
// notification or a response gets 202. initialize issues the session id (Mcp-Session-Id), which
// every later request must carry (unknown: 404); MCP-Protocol-Version, when sent, must be the
// session's. GET is 405 (Parley sends nothing unasked), DELETE ends the session.
//
// The token, Host, Origin and body-size checks are http_server's, as for every route: a request
// gets here authenticated and within the body limit. Free of Beast like openai_router.hpp: a
// request in plain data, a response_sink for the answer.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include <optional>
#include <string>
#include <string_view>

#include "parley/server/openai_router.hpp"
#include "parley/server/server_context.hpp"

namespace parley::server {

inline constexpr const char* kMcpSessionHeader = "Mcp-Session-Id";
inline constexpr const char* kMcpVersionHeader = "MCP-Protocol-Version";

bool is_mcp_path(std::string_view path);

struct mcp_http_request {
  std::string method;
  std::string body;
  std::string authorization;
  std::string content_type;
  std::string accept;
  std::optional<std::string> session_id;
  std::optional<std::string> protocol_version;
};

// Answers one request at /mcp into `sink`. context.mcp must be set.
boost::asio::awaitable<void> handle_mcp_request(server_context& context, mcp_http_request request, response_sink& sink);

// The Beast side: answers one request at /mcp on `stream`; whether the connection can take the
// next request.
boost::asio::awaitable<bool> serve_mcp_request(
    server_context& context, boost::beast::tcp_stream& stream,
    const boost::beast::http::request<boost::beast::http::string_body>& request, bool keep_alive);

}  // namespace parley::server
