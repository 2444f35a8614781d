#include "parley/server/http_server.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/beast/websocket/rfc6455.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>

#include "parley/http/request_target.hpp"
#include "parley/server/http_replies.hpp"
#include "parley/server/mcp_http.hpp"
#include "parley/server/metrics_endpoint.hpp"
#include "parley/server/openai_http.hpp"
#include "parley/server/request_guard.hpp"
#include "parley/server/rest_router.hpp"
#include "parley/server/websocket_session.hpp"

namespace parley::server {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using namespace std::chrono_literals;

namespace {

constexpr auto kIdleTimeout = 30s;        // a keep-alive connection with no request is closed
constexpr auto kLingerAfterRefusal = 2s;  // reading what a refused client still sends, so it sees our reply
constexpr auto tuple_awaitable = asio::as_tuple(asio::use_awaitable);

using request_type = http_request;
using response_type = http_response;

bool is_api_path(std::string_view path) { return path == "/api" || path.rfind("/api/", 0) == 0; }

// Paths that answer without a token: a load balancer's probes, which tell nothing of the team.
bool is_probe_path(std::string_view path) { return path == "/healthz" || path == "/readyz"; }
// The routes that need the token: the REST API, the OpenAI-compatible endpoint, the MCP endpoint
// and the metrics.
bool needs_token(std::string_view path) {
  return is_api_path(path) || is_openai_path(path) || is_mcp_path(path) || path == "/metrics";
}

}  // namespace

struct http_server::state {
  state(asio::any_io_executor executor, server_context& shared_context)
      : context(shared_context), replies(shared_context.options), guard(shared_context.options), acceptor(executor) {}

  server_context& context;
  http_replies replies;
  request_guard guard;
  tcp::acceptor acceptor;
  std::set<beast::tcp_stream*> sessions;  // connections between requests or in one; closed on stop()
  std::map<asio::ip::address, std::size_t> sessions_by_client;  // the same, counted by remote address
  bool stopping = false;

  asio::awaitable<response_type> answer_api(const request_type& request) {
    const auto target = request.target();
    if (replies.is_preflight(request)) co_return replies.preflight_reply(request);
    rest_request rest;
    rest.method = std::string(request.method_string());
    auto parsed = parley::http::parse_request_target(target);
    if (!parsed) co_return replies.error_reply(request, 400, "bad_request", parsed.err().message);
    rest.path = std::move(parsed->path);
    rest.segments = std::move(parsed->segments);
    rest.query = std::move(parsed->query);
    rest.body = request.body();
    if (const auto auth = request.find(http::field::authorization); auth != request.end()) {
      rest.authorization = std::string(auth->value());
    }
    if (const auto type = request.find(http::field::content_type); type != request.end()) {
      rest.content_type = std::string(type->value());
    }
    if (const auto key = request.find("Idempotency-Key"); key != request.end()) {
      rest.idempotency_key = std::string(key->value());
    }
    auto answered = co_await handle_rest_request(context, std::move(rest));
    if (!answered.raw_content_type.empty()) co_return replies.raw_reply(request, answered);
    // A view read off the loop comes serialized already (store_reads.hpp `read_reply`).
    auto response = answered.serialized_body.empty()
                        ? replies.json_reply(request, answered.status, answered.body)
                        : replies.serialized_json_reply(request, answered.status, std::move(answered.serialized_body));
    if (!answered.allow.empty()) response.set(http::field::allow, answered.allow);
    if (answered.retry_after_seconds > 0) {
      response.set(http::field::retry_after, std::to_string(answered.retry_after_seconds));
    }
    co_return response;
  }

  // The reply to a request the guard refuses (request_guard.hpp); nothing when it may go on.
  std::optional<response_type> refusal_for(const request_type& request) const {
    guarded_request facts;
    facts.method = request.method_string();
    facts.http_1_1 = request.version() >= 11;
    if (const auto host = request.find(http::field::host); host != request.end()) facts.host = host->value();
    facts.repeated_host = request.count(http::field::host) > 1;
    if (const auto origin = request.find(http::field::origin); origin != request.end()) facts.origin = origin->value();
    facts.fetch_site = request["Sec-Fetch-Site"];
    facts.websocket_upgrade = beast::websocket::is_upgrade(request);
    if (auto refused = guard.check(facts)) {
      return replies.error_reply(request, refused->status, refused->code, std::move(refused->message));
    }
    // The token is checked on the header too, so that nobody without one can make the server
    // read (and hold) a body of up to the upload limit.
    if (needs_token(path_of(request.target())) && request.method() != http::verb::options &&
        authenticate(context, request[http::field::authorization]) == nullptr) {
      const auto refused = unauthorized_response(context);
      const auto& message = refused.body.at("error").at("message").as_string();
      return replies.error_reply(request, refused.status, "unauthorized", std::string(message));
    }
    return std::nullopt;
  }

  // /metrics, /healthz and /readyz: GET or HEAD only.
  asio::awaitable<response_type> answer_monitoring(const request_type& request, std::string_view path) {
    if (request.method() != http::verb::get && request.method() != http::verb::head) {
      auto refused = replies.error_reply(
          request, 405, "method_not_allowed",
          std::string(request.method_string()) + " " + std::string(path) + ": method not allowed; use GET, HEAD");
      refused.set(http::field::allow, "GET, HEAD");
      co_return refused;
    }
    if (path == "/healthz") co_return replies.text_reply(request, 200, "text/plain; charset=utf-8", "ok\n");
    if (path == "/readyz") {
      const auto ready = check_readiness(context);
      co_return replies.text_reply(request, ready.ready ? 200 : 503, "text/plain; charset=utf-8",
                                   ready.ready ? std::string("ready\n") : "not ready: " + ready.problem + "\n");
    }
    auto text = co_await render_metrics(context, http_figures{sessions.size()});
    co_return replies.text_reply(request, 200, "text/plain; version=0.0.4; charset=utf-8", std::move(text));
  }

  asio::awaitable<response_type> answer(const request_type& request) {
    const auto path = path_of(request.target());
    if (path == "/metrics" || is_probe_path(path)) co_return co_await answer_monitoring(request, path);
    if (is_api_path(path)) co_return co_await answer_api(request);
    if (is_openai_path(path) || is_mcp_path(path)) co_return replies.preflight_reply(request);  // the rest is theirs
    co_return replies.static_file(request);
  }
};

namespace {

// Keeps a session in the server's set while its coroutine owns the stream.
class session_registration {
 public:
  session_registration(http_server::state& owner, beast::tcp_stream& stream) : owner_(&owner), stream_(&stream) {
    owner_->sessions.insert(stream_);
    beast::error_code ec;
    client_ = stream.socket().remote_endpoint(ec).address();
    ++owner_->sessions_by_client[client_];
  }
  ~session_registration() { release(); }
  session_registration(const session_registration&) = delete;
  session_registration& operator=(const session_registration&) = delete;
  void release() {
    if (owner_ == nullptr) return;
    owner_->sessions.erase(stream_);
    if (const auto it = owner_->sessions_by_client.find(client_); it != owner_->sessions_by_client.end()) {
      if (--it->second == 0) owner_->sessions_by_client.erase(it);
    }
    owner_ = nullptr;
  }

 private:
  http_server::state* owner_;
  beast::tcp_stream* stream_;
  asio::ip::address client_;
};

// Whether a new connection from `client` would go past the server's limits (server_options).
bool over_connection_limits(const http_server::state& server, const asio::ip::address& client) {
  const auto& options = server.context.options;
  if (server.sessions.size() >= options.max_connections) return true;
  const auto it = server.sessions_by_client.find(client);
  return it != server.sessions_by_client.end() && it->second >= options.max_connections_per_client;
}

// After refusing a request whose body we will not read, read (and drop) what the client still
// sends for a moment before closing: closing with unread data makes the kernel reset the
// connection, and the client could lose our response.
asio::awaitable<void> linger_and_close(beast::tcp_stream& stream) {
  beast::error_code ec;
  stream.socket().shutdown(tcp::socket::shutdown_send, ec);
  stream.expires_after(kLingerAfterRefusal);
  std::array<char, 16384> sink{};
  for (;;) {
    auto buffer = asio::buffer(sink);
    auto [read_ec, n] = co_await stream.async_read_some(buffer, tuple_awaitable);
    if (read_ec) break;
  }
  stream.close();
}

bool is_upload_post(const http::request_parser<http::string_body>::value_type& request) {
  return request.method() == http::verb::post && path_of(request.target()) == "/api/uploads";
}

// A refusal ends the connection: the answer, then what the client still sends is read and dropped.
asio::awaitable<void> refuse_and_close(beast::tcp_stream& stream, response_type& refusal) {
  refusal.keep_alive(false);
  refusal.prepare_payload();
  auto [write_ec, written] = co_await http::async_write(stream, refusal, tuple_awaitable);
  if (!write_ec) co_await linger_and_close(stream);
}

// A request that does not parse (it gets a 400), unlike a connection closed or timed out.
bool is_malformed_request(const beast::error_code& read_ec) {
  return read_ec.category() == beast::error_code(http::error::end_of_stream).category() &&
         read_ec != http::error::end_of_stream;
}

// HEAD gets the header with the Content-Length of the GET, and no body.
asio::awaitable<beast::error_code> write_answer(beast::tcp_stream& stream, response_type& response, bool head_only) {
  if (head_only) {
    http::response_serializer<http::string_body> serializer(response);
    auto [header_ec, written] = co_await http::async_write_header(stream, serializer, tuple_awaitable);
    co_return header_ec;
  }
  auto [body_ec, written] = co_await http::async_write(stream, response, tuple_awaitable);
  co_return body_ec;
}

// The OpenAI-compatible endpoint and MCP write their own answers: whole, or streamed as the dialog
// works. Whether the connection can take the next request; nullopt for any other route.
asio::awaitable<std::optional<bool>> serve_answering_route(http_server::state& server, beast::tcp_stream& stream,
                                                           const request_type& request) {
  const auto path = path_of(request.target());
  if (server.replies.is_preflight(request)) co_return std::nullopt;
  const bool keep_alive = request.keep_alive() && !server.stopping;
  if (is_openai_path(path)) co_return co_await serve_openai_request(server.context, stream, request, keep_alive);
  if (is_mcp_path(path)) co_return co_await serve_mcp_request(server.context, stream, request, keep_alive);
  co_return std::nullopt;
}

asio::awaitable<void> run_session(std::shared_ptr<http_server::state> server, beast::tcp_stream stream) {
  session_registration registration(*server, stream);
  beast::flat_buffer buffer;
  for (;;) {
    http::request_parser<http::string_body> parser;
    // Beast weighs a Content-Length against the limit as the header completes, so the header is
    // read under the larger limit and the route's own limit is applied here.
    const auto& options = server->context.options;
    parser.body_limit(std::max(options.max_body_bytes, options.max_upload_bytes));
    stream.expires_after(kIdleTimeout);
    auto [read_ec, read_bytes] = co_await http::async_read_header(stream, buffer, parser, tuple_awaitable);
    // The route's limit, named in a 413: Beast stops at a Content-Length over the larger limit
    // with the header parsed, so an upload's 413 names the upload limit, not the JSON one.
    const bool header_read = !read_ec || read_ec == http::error::body_limit;
    std::size_t body_limit =
        header_read && is_upload_post(parser.get()) ? options.max_upload_bytes : options.max_body_bytes;
    if (!read_ec && !server->stopping) {
      // Checked on the header, before a body is read: a refused client gets no upgrade, no
      // answer and no second request on this connection.
      if (auto refused = server->refusal_for(parser.get())) {
        if (parser.get().method() == http::verb::head) refused->body().clear();
        co_await refuse_and_close(stream, *refused);
        co_return;
      }
    }
    if (!read_ec) {
      if (const auto declared = parser.content_length(); declared && *declared > body_limit) {
        read_ec = http::error::body_limit;
      } else {
        parser.body_limit(body_limit);  // a chunked body is counted as it comes
        std::tie(read_ec, read_bytes) = co_await http::async_read(stream, buffer, parser, tuple_awaitable);
      }
    }
    if (read_ec == http::error::body_limit) {
      auto& partial = parser.get();
      auto refused = server->replies.error_reply(partial, 413, "too_large",
                                                 "body: larger than " + std::to_string(body_limit) + " bytes");
      co_await refuse_and_close(stream, refused);
      co_return;
    }
    if (read_ec) {
      // A request that does not parse gets a 400; a closed or timed-out connection just ends.
      if (is_malformed_request(read_ec) && !server->stopping) {
        request_type unknown;
        auto refused =
            server->replies.error_reply(unknown, 400, "bad_request", "malformed HTTP request: " + read_ec.message());
        co_await refuse_and_close(stream, refused);
      }
      break;
    }
    if (server->stopping) break;

    auto& request = parser.get();
    if (beast::websocket::is_upgrade(request) && path_of(request.target()) == "/ws") {
      // The WebSocket side takes the connection over; it is no longer an HTTP session of ours.
      registration.release();
      stream.expires_never();
      start_websocket_session(server->context, std::move(stream), parser.release());
      co_return;
    }

    const auto self_answered = co_await serve_answering_route(*server, stream, request);
    if (self_answered) {
      if (!*self_answered || server->stopping) break;
      continue;
    }
    const bool head = request.method() == http::verb::head;
    auto response = co_await server->answer(request);
    response.keep_alive(request.keep_alive() && !server->stopping);
    response.prepare_payload();
    stream.expires_after(kIdleTimeout);
    const beast::error_code write_ec = co_await write_answer(stream, response, head);
    if (write_ec || !response.keep_alive()) break;
  }
  beast::error_code ec;
  stream.socket().shutdown(tcp::socket::shutdown_send, ec);
  stream.close();
}

void report_session_failure(std::exception_ptr thrown) {
  if (!thrown) return;
  try {
    std::rethrow_exception(thrown);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "parley: an HTTP session failed: %s\n", e.what());
  }
}

asio::awaitable<void> accept_loop(std::shared_ptr<http_server::state> server) {
  while (server->acceptor.is_open()) {
    auto [ec, socket] = co_await server->acceptor.async_accept(tuple_awaitable);
    if (ec) {
      if (ec == asio::error::operation_aborted || !server->acceptor.is_open()) co_return;
      // Out of file descriptors and the like: back off a little instead of spinning.
      asio::steady_timer pause(server->acceptor.get_executor(), 50ms);
      co_await pause.async_wait(tuple_awaitable);
      continue;
    }
    beast::error_code ignored;
    if (over_connection_limits(*server, socket.remote_endpoint(ignored).address())) {
      socket.close(ignored);
      continue;
    }
    socket.set_option(tcp::no_delay(true), ignored);
    beast::tcp_stream stream(std::move(socket));
    auto session = run_session(server, std::move(stream));
    asio::co_spawn(server->acceptor.get_executor(), std::move(session), report_session_failure);
  }
}

result<tcp::endpoint> endpoint_for(asio::any_io_executor executor, const std::string& host, std::uint16_t port) {
  std::string literal = host;
  if (literal.size() > 2 && literal.front() == '[' && literal.back() == ']')
    literal = literal.substr(1, literal.size() - 2);
  beast::error_code ec;
  const auto address = asio::ip::make_address(literal == "localhost" ? "127.0.0.1" : literal, ec);
  if (!ec) return tcp::endpoint(address, port);
  // A host name: resolved once, at start (blocking here is fine, nothing else runs yet).
  tcp::resolver resolver(executor);
  const auto found = resolver.resolve(literal, std::to_string(port), ec);
  if (ec || found.empty())
    return make_error(errc::invalid_argument, "--host: cannot resolve '" + host + "': " + ec.message());
  return found.begin()->endpoint();
}

}  // namespace

http_server::http_server(std::shared_ptr<state> shared) : state_(std::move(shared)) {}

http_server::~http_server() { stop(); }

result<std::unique_ptr<http_server>> http_server::listen(asio::any_io_executor executor, server_context& context) {
  auto endpoint = endpoint_for(executor, context.options.host, context.options.port);
  if (!endpoint) return std::move(endpoint).err();
  auto shared = std::make_shared<state>(executor, context);
  auto& acceptor = shared->acceptor;
  beast::error_code ec;
  const auto fail = [&](const char* what) {
    return make_error(errc::io_error, std::string("cannot listen on ") + context.options.host + ":" +
                                          std::to_string(context.options.port) + ": " + what + ": " + ec.message());
  };
  if (acceptor.open(endpoint->protocol(), ec); ec) return fail("open");
  if (acceptor.set_option(asio::socket_base::reuse_address(true), ec); ec) return fail("SO_REUSEADDR");
  if (acceptor.bind(*endpoint, ec); ec) return fail("bind");
  if (acceptor.listen(asio::socket_base::max_listen_connections, ec); ec) return fail("listen");
  return std::make_unique<http_server>(std::move(shared));
}

std::uint16_t http_server::port() const noexcept {
  beast::error_code ec;
  const auto endpoint = state_->acceptor.local_endpoint(ec);
  return ec ? 0 : endpoint.port();
}

void http_server::start() {
  asio::co_spawn(state_->acceptor.get_executor(), accept_loop(state_), report_session_failure);
}

void http_server::stop() {
  state_->stopping = true;
  beast::error_code ec;
  state_->acceptor.close(ec);
  // Closing makes pending reads fail, so idle keep-alive sessions end now instead of at their timeout.
  // A session in the middle of a request notices `stopping` after its response.
  const auto sessions = state_->sessions;
  for (auto* stream : sessions) stream->socket().cancel(ec);
}

}  // namespace parley::server
