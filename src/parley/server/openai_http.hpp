// Where http_server.cpp hands a request under /v1/ to the OpenAI-compatible endpoint
// (openai_router.hpp): it turns the Beast request into plain data and answers through an
// http_response_sink, and it gives the refusals made before the body is read (token, Host,
// Origin, size) OpenAI's error shape, which OpenAI clients read.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include <string>
#include <string_view>

#include "parley/server/server_context.hpp"

namespace parley::server {

// "/v1" and everything under "/v1/".
bool is_openai_path(std::string_view path);

// Answers one request under /v1/ on `stream`; whether the connection can take the next request.
boost::asio::awaitable<bool> serve_openai_request(
    server_context& context, boost::beast::tcp_stream& stream,
    const boost::beast::http::request<boost::beast::http::string_body>& request, bool keep_alive);

// A refusal in OpenAI's error shape: {"error": {message, type, param: null, code}}.
boost::beast::http::response<boost::beast::http::string_body> openai_refusal(unsigned version, unsigned status,
                                                                             std::string_view code,
                                                                             std::string message);

}  // namespace parley::server
