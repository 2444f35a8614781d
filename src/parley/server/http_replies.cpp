// The HTTP server's own answers (http_replies.hpp).
#include "parley/server/http_replies.hpp"

#include <boost/json/serialize.hpp>

#include <utility>

#include "parley/server/mcp_http.hpp"
#include "parley/server/mcp_protocol.hpp"
#include "parley/server/openai_http.hpp"
#include "parley/server/rest_router.hpp"
#include "parley/server/static_files.hpp"

namespace parley::server {

namespace http = boost::beast::http;

std::string_view path_of(std::string_view target) { return target.substr(0, target.find_first_of("?#")); }

void http_replies::add_cors(http_response& response) const {
  if (options_.cors_origin.empty()) return;
  response.set(http::field::access_control_allow_origin, options_.cors_origin);
  response.set(http::field::vary, "Origin");
}

http_response http_replies::json_reply(const http_request& request, unsigned status,
                                       const boost::json::value& body) const {
  return serialized_json_reply(request, status, boost::json::serialize(body));
}

http_response http_replies::serialized_json_reply(const http_request& request, unsigned status,
                                                  std::string body) const {
  http_response response{static_cast<http::status>(status), request.version()};
  response.set(http::field::content_type, "application/json");
  response.set(http::field::cache_control, "no-store");
  response.body() = std::move(body);
  add_cors(response);
  return response;
}

http_response http_replies::raw_reply(const http_request& request, rest_response& answered) const {
  http_response response{static_cast<http::status>(answered.status), request.version()};
  response.set(http::field::content_type, answered.raw_content_type);
  response.set(http::field::cache_control, "private, max-age=3600");
  response.set("X-Content-Type-Options", "nosniff");
  response.set("Content-Security-Policy", "default-src 'none'; sandbox");
  response.body() = std::move(answered.raw_body);
  add_cors(response);
  return response;
}

http_response http_replies::error_reply(const http_request& request, unsigned status, std::string_view code,
                                        std::string message) const {
  if (is_openai_path(path_of(request.target()))) {
    auto response = openai_refusal(request.version(), status, code, std::move(message));
    add_cors(response);
    return response;
  }
  if (is_mcp_path(path_of(request.target()))) {
    http_response response{static_cast<http::status>(status), request.version()};
    response.set(http::field::content_type, "application/json");
    response.set(http::field::cache_control, "no-store");
    response.body() = null_id_error(tools::mcp::rpc_code::kInvalidRequest, message);
    add_cors(response);
    return response;
  }
  boost::json::object inner{{"code", code}, {"message", std::move(message)}};
  return json_reply(request, status, boost::json::object{{"error", std::move(inner)}});
}

http_response http_replies::text_reply(const http_request& request, unsigned status, std::string_view content_type,
                                       std::string body) const {
  http_response response{static_cast<http::status>(status), request.version()};
  response.set(http::field::content_type, content_type);
  response.set(http::field::cache_control, "no-store");
  response.body() = std::move(body);
  return response;
}

bool http_replies::is_preflight(const http_request& request) const {
  return request.method() == http::verb::options && !options_.cors_origin.empty();
}

http_response http_replies::preflight_reply(const http_request& request) const {
  http_response response{http::status::no_content, request.version()};
  add_cors(response);
  response.set(http::field::access_control_allow_methods, "GET, POST, PUT, DELETE, OPTIONS");
  response.set(http::field::access_control_allow_headers,
               "Authorization, Content-Type, Idempotency-Key, X-Parley-Dialog-Id, Mcp-Session-Id, "
               "MCP-Protocol-Version, Last-Event-ID");
  response.set(http::field::access_control_max_age, "600");
  return response;
}

http_response http_replies::static_file(const http_request& request) const {
  if (request.method() != http::verb::get && request.method() != http::verb::head) {
    http_response refused{http::status::method_not_allowed, request.version()};
    refused.set(http::field::allow, "GET, HEAD");
    refused.set(http::field::content_type, "text/plain; charset=utf-8");
    refused.body() = "method not allowed\n";
    return refused;
  }
  auto file = serve_static_file(options_.web_root, request.target());
  http_response response{static_cast<http::status>(file.status), request.version()};
  response.set(http::field::content_type, file.content_type);
  response.set("X-Content-Type-Options", "nosniff");
  // No other site may frame the UI: clicks tricked into a framed page would drive the team.
  response.set("X-Frame-Options", "DENY");
  response.set("Content-Security-Policy", "frame-ancestors 'none'");
  if (file.app_page && options_.token_in_page) {
    file.body = embed_token_in_page(file.body, options_.token);
    response.set(http::field::cache_control, "no-store");  // the secret of this process only
    response.set("Referrer-Policy", "no-referrer");
  } else {
    response.set(http::field::cache_control, file.cacheable ? "public, max-age=3600" : "no-cache");
  }
  response.body() = std::move(file.body);
  return response;
}

}  // namespace parley::server
