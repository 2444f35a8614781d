#include "parley/server/openai_http.hpp"

#include "parley/http/request_target.hpp"
#include "parley/server/http_response_sink.hpp"
#include "parley/server/openai_router.hpp"
#include "parley/server/openai_wire.hpp"

namespace parley::server {

namespace beast_http = boost::beast::http;

namespace {

std::string header_text(const beast_http::request<beast_http::string_body>& request, beast_http::field field) {
  const auto found = request.find(field);
  return found == request.end() ? std::string() : std::string(found->value());
}

}  // namespace

bool is_openai_path(std::string_view path) { return path == "/v1" || path.rfind("/v1/", 0) == 0; }

boost::asio::awaitable<bool> serve_openai_request(server_context& context, boost::beast::tcp_stream& stream,
                                                  const beast_http::request<beast_http::string_body>& request,
                                                  bool keep_alive) {
  http_response_sink sink(stream, request.version(), keep_alive, context.options.cors_origin);
  auto parsed = parley::http::parse_request_target(request.target());
  if (!parsed) {
    std::string body = error_json(openai_error{400, parsed.err().message, {}, "bad_request"});
    header_list none;
    co_await sink.send_json(400, std::move(none), std::move(body));
    co_return sink.reusable();
  }
  openai_request plain;
  plain.method = std::string(request.method_string());
  plain.path = std::move(parsed->path);
  plain.segments = std::move(parsed->segments);
  plain.body = request.body();
  plain.authorization = header_text(request, beast_http::field::authorization);
  plain.content_type = header_text(request, beast_http::field::content_type);
  if (const auto dialog = request.find(kDialogIdHeader); dialog != request.end()) {
    plain.dialog_id = std::string(dialog->value());
  }
  co_await handle_openai_request(context, std::move(plain), sink);
  if (!sink.started()) {
    // A route that answered nothing is a bug; the client still gets an answer.
    // (Named before the call: GCC 12 destroys temporaries built in a coroutine's call twice.)
    std::string body = error_json(openai_error{500, "the endpoint gave no answer", {}, "internal", "server_error"});
    header_list none;
    co_await sink.send_json(500, std::move(none), std::move(body));
  }
  co_return sink.reusable();
}

beast_http::response<beast_http::string_body> openai_refusal(unsigned version, unsigned status, std::string_view code,
                                                             std::string message) {
  beast_http::response<beast_http::string_body> response{static_cast<beast_http::status>(status), version};
  response.set(beast_http::field::content_type, "application/json");
  response.set(beast_http::field::cache_control, "no-store");
  // OpenAI names a missing or wrong key "invalid_api_key"; its clients raise AuthenticationError.
  const std::string wire_code = status == 401 ? "invalid_api_key" : std::string(code);
  response.body() = error_json(openai_error{status, std::move(message), {}, wire_code});
  return response;
}

}  // namespace parley::server
