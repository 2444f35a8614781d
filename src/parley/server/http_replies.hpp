// The HTTP server's own answers, shaped the same way everywhere: JSON with `Cache-Control:
// no-store`, an error in the dialect of the endpoint asked (OpenAI's under /v1/, JSON-RPC at /mcp,
// the REST API's elsewhere), CORS headers when --cors-origin is set, uploaded media under a sandbox,
// and the web UI's files with the headers that keep other sites from framing it. http_server.cpp
// decides which answer a request gets; this file only builds it.
#pragma once

#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/json/value.hpp>

#include <string>
#include <string_view>

#include "parley/server/server_options.hpp"

namespace parley::server {

struct rest_response;

using http_request = boost::beast::http::request<boost::beast::http::string_body>;
using http_response = boost::beast::http::response<boost::beast::http::string_body>;

// The path of a request target: what comes before its query or fragment.
std::string_view path_of(std::string_view target);

class http_replies {
 public:
  // Keeps a reference: the options outlive the server.
  explicit http_replies(const server_options& options) : options_(options) {}

  void add_cors(http_response& response) const;
  http_response json_reply(const http_request& request, unsigned status, const boost::json::value& body) const;
  http_response serialized_json_reply(const http_request& request, unsigned status, std::string body) const;
  // Uploaded media: never interpreted by the browser as anything but what it was checked to be.
  http_response raw_reply(const http_request& request, rest_response& answered) const;
  // Under /v1/ in OpenAI's error shape, which OpenAI clients read; at /mcp as a JSON-RPC error;
  // elsewhere in the REST API's.
  http_response error_reply(const http_request& request, unsigned status, std::string_view code,
                            std::string message) const;
  http_response text_reply(const http_request& request, unsigned status, std::string_view content_type,
                           std::string body) const;

  bool is_preflight(const http_request& request) const;
  // CORS preflight: browsers send it without credentials, so it is answered before the token check.
  http_response preflight_reply(const http_request& request) const;

  // A file of the web UI (GET or HEAD), the loopback secret in its page when the server has one.
  http_response static_file(const http_request& request) const;

 private:
  const server_options& options_;
};

}  // namespace parley::server
