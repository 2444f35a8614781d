// Hands an upgraded HTTP connection to the PubChan WebSocket protocol (docs/server.md).
#pragma once

#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include "parley/server/server_context.hpp"

namespace parley::server {

// Takes over `stream` after the HTTP layer saw a WebSocket upgrade request for `/ws`; does the
// token check (close code 4401), the handshake, and runs the session until it closes.
void start_websocket_session(server_context& context, boost::beast::tcp_stream stream,
                             boost::beast::http::request<boost::beast::http::string_body> request);

}  // namespace parley::server
