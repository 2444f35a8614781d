#include "parley/server/mcp_http.hpp"

#include "parley/core/text.hpp"
#include "parley/server/http_response_sink.hpp"
#include "parley/server/mcp_endpoint.hpp"
#include "parley/server/media_types.hpp"
#include "parley/server/rest_router.hpp"

namespace parley::server {

namespace asio = boost::asio;
namespace beast_http = boost::beast::http;

namespace {

// A request's answer through the sink: JSON, unless progress comes first and the client takes a
// stream, which then carries the progress and the response as SSE events.
class mcp_http_reply final : public mcp_reply {
 public:
  mcp_http_reply(response_sink& sink, header_list headers, bool may_stream)
      : sink_(sink), headers_(std::move(headers)), may_stream_(may_stream) {}

  asio::awaitable<bool> notify(std::string message) override {
    if (!may_stream_) co_return true;  // a client that takes JSON only gets no progress
    if (!streaming_) {
      streaming_ = true;
      header_list headers = headers_;
      if (!co_await sink_.begin_stream(std::move(headers))) co_return false;
    }
    std::string event = sse_event(message);
    co_return co_await sink_.stream(std::move(event));
  }

  asio::awaitable<void> respond(std::string message) override {
    responded_ = true;
    if (streaming_) {
      std::string event = sse_event(message);
      if (co_await sink_.stream(std::move(event))) co_await sink_.end_stream();
      co_return;
    }
    header_list headers = headers_;
    co_await sink_.send_json(200, std::move(headers), std::move(message));
  }

  // After the request's handler: a request that answered nothing (cancelled) ends its stream, or
  // gets an empty 202.
  asio::awaitable<void> finish() {
    if (responded_) co_return;
    if (streaming_) {
      co_await sink_.end_stream();
      co_return;
    }
    header_list headers = headers_;
    std::string empty;
    co_await sink_.send_json(202, std::move(headers), std::move(empty));
  }

 private:
  static std::string sse_event(std::string_view message) {
    return "event: message\ndata: " + std::string(message) + "\n\n";
  }

  response_sink& sink_;
  header_list headers_;
  bool may_stream_;
  bool streaming_ = false;
  bool responded_ = false;
};

// An HTTP refusal whose body is a JSON-RPC error with a null id, as MCP's SDKs send them. Made
// first and then sent: GCC 12 destroys a temporary built in a coroutine's call inside a co_await
// twice, so every value handed to a coroutine here is named.
struct http_refusal {
  unsigned status = 400;
  std::string body;
  header_list headers;
};

http_refusal refusal(unsigned status, std::string_view message, header_list headers = {}) {
  return http_refusal{status, null_id_error(mcp::rpc_code::kInvalidRequest, message), std::move(headers)};
}

asio::awaitable<void> send_refusal(response_sink& sink, http_refusal refused) {
  co_await sink.send_json(refused.status, std::move(refused.headers), std::move(refused.body));
}

asio::awaitable<void> accepted(response_sink& sink) {
  header_list none;
  std::string empty;
  co_await sink.send_json(202, std::move(none), std::move(empty));
}

// Whether an Accept header takes `type` ("application/json"), by its media ranges.
bool accepts(std::string_view accept, std::string_view type) {
  const std::string_view family = type.substr(0, type.find('/'));
  while (!accept.empty()) {
    const auto comma = accept.find(',');
    std::string_view range = trim(accept.substr(0, comma));
    range = trim(range.substr(0, range.find(';')));
    if (iequals_ascii(range, type) || range == "*/*" || iequals_ascii(range, std::string(family) + "/*")) return true;
    if (comma == std::string_view::npos) break;
    accept.remove_prefix(comma + 1);
  }
  return false;
}

// initialize: a new session, listed (and named in the response's header) once it succeeded.
asio::awaitable<void> start_session(server_context& context, const user& who, mcp::rpc_request request,
                                    response_sink& sink) {
  auto session = context.mcp->make(context, who);
  struct kept_reply final : mcp_reply {
    std::string text;
    asio::awaitable<bool> notify(std::string) override { co_return true; }
    asio::awaitable<void> respond(std::string message) override {
      text = std::move(message);
      co_return;
    }
  } kept;
  co_await session->handle_request(std::move(request), kept);
  header_list headers;
  if (session->initialized()) {
    const std::string id = context.mcp->add(session);
    if (id.empty()) {
      auto refused = refusal(503, "too many MCP sessions are busy; end one (DELETE /mcp) or try again later");
      co_await send_refusal(sink, std::move(refused));
      co_return;
    }
    headers.emplace_back(kMcpSessionHeader, id);
  }
  co_await sink.send_json(200, std::move(headers), std::move(kept.text));
}

// The session a request names, checked: its id known to this user, its revision the session's.
asio::awaitable<std::shared_ptr<mcp_session>> session_of(server_context& context, const user& who,
                                                         const mcp_http_request& request, response_sink& sink) {
  if (!request.session_id) {
    auto refused = refusal(400, std::string(kMcpSessionHeader) + ": required; initialize issues one");
    co_await send_refusal(sink, std::move(refused));
    co_return nullptr;
  }
  auto session = context.mcp->find(*request.session_id, who);
  if (session == nullptr) {
    auto refused = refusal(404, std::string(kMcpSessionHeader) + ": no session '" + request.session_id->substr(0, 64) +
                                    "' (ended, or never made); initialize a new one");
    co_await send_refusal(sink, std::move(refused));
    co_return nullptr;
  }
  if (request.protocol_version && *request.protocol_version != session->protocol_version()) {
    auto refused = refusal(400, std::string(kMcpVersionHeader) + ": '" + request.protocol_version->substr(0, 32) +
                                    "' is not this session's revision " + session->protocol_version());
    co_await send_refusal(sink, std::move(refused));
    co_return nullptr;
  }
  co_return session;
}

asio::awaitable<void> post_message(server_context& context, const user& who, const mcp_http_request& request,
                                   response_sink& sink) {
  if (!is_json_media_type(request.content_type)) {
    auto refused =
        refusal(415, "Content-Type: expected application/json, got '" + request.content_type.substr(0, 100) + "'");
    co_await send_refusal(sink, std::move(refused));
    co_return;
  }
  if (!request.accept.empty() && !accepts(request.accept, "application/json")) {
    auto refused = refusal(406, "Accept: must take application/json (and text/event-stream for progress)");
    co_await send_refusal(sink, std::move(refused));
    co_return;
  }
  auto incoming = read_incoming(request.body);
  if (!incoming.message) {
    header_list none;
    co_await sink.send_json(400, std::move(none), std::move(incoming.refusal));
    co_return;
  }
  auto* call = std::get_if<mcp::rpc_request>(&*incoming.message);
  if (call != nullptr && call->method == "initialize") {
    if (request.session_id) {
      auto refused =
          refusal(400, std::string(kMcpSessionHeader) + ": initialize starts a session; send it without one");
      co_await send_refusal(sink, std::move(refused));
      co_return;
    }
    co_await start_session(context, who, std::move(*call), sink);
    co_return;
  }
  auto session = co_await session_of(context, who, request, sink);
  if (session == nullptr) co_return;
  if (call == nullptr) {
    if (const auto* note = std::get_if<mcp::rpc_notification>(&*incoming.message)) session->handle_notification(*note);
    co_await accepted(sink);  // a notification, or a response to nothing we asked: taken
    co_return;
  }
  header_list headers{{kMcpSessionHeader, *request.session_id}};
  mcp_http_reply reply(sink, std::move(headers),
                       request.accept.empty() || accepts(request.accept, "text/event-stream"));
  co_await session->handle_request(std::move(*call), reply);
  co_await reply.finish();
}

}  // namespace

bool is_mcp_path(std::string_view path) { return path == "/mcp"; }

asio::awaitable<void> handle_mcp_request(server_context& context, mcp_http_request request, response_sink& sink) {
  // http_server checked the token before reading the body; this tells who the user is.
  const user* who = authenticate(context, request.authorization);
  if (who == nullptr) {
    auto refused = refusal(401, "Authorization: expected 'Bearer TOKEN'");
    co_await send_refusal(sink, std::move(refused));
    co_return;
  }
  if (context.mcp == nullptr || context.answers == nullptr) {
    auto refused = refusal(404, "this server does not serve MCP (parley serve --mcp)");
    co_await send_refusal(sink, std::move(refused));
    co_return;
  }
  if (request.method == "POST") {
    co_await post_message(context, *who, request, sink);
    co_return;
  }
  if (request.method == "DELETE") {
    if (!request.session_id || !context.mcp->end(*request.session_id, *who)) {
      auto refused = refusal(404, std::string(kMcpSessionHeader) + ": no such session to end");
      co_await send_refusal(sink, std::move(refused));
      co_return;
    }
    header_list none;
    std::string ended = "{}";
    co_await sink.send_json(200, std::move(none), std::move(ended));
    co_return;
  }
  // GET would open a stream of what the server sends unasked; Parley sends nothing unasked.
  header_list allow{{"Allow", "POST, DELETE"}};
  auto refused =
      refusal(405, request.method.substr(0, 16) + " /mcp: method not allowed; use POST (DELETE ends a session)",
              std::move(allow));
  co_await send_refusal(sink, std::move(refused));
}

namespace {

std::optional<std::string> header_of(const beast_http::request<beast_http::string_body>& request,
                                     std::string_view name) {
  const auto found = request.find(name);
  if (found == request.end()) return std::nullopt;
  return std::string(found->value());
}

}  // namespace

asio::awaitable<bool> serve_mcp_request(server_context& context, boost::beast::tcp_stream& stream,
                                        const beast_http::request<beast_http::string_body>& request, bool keep_alive) {
  http_response_sink sink(stream, request.version(), keep_alive, context.options.cors_origin, kMcpSessionHeader);
  mcp_http_request plain;
  plain.method = std::string(request.method_string());
  plain.body = request.body();
  plain.authorization = header_of(request, "Authorization").value_or("");
  plain.content_type = header_of(request, "Content-Type").value_or("");
  plain.accept = header_of(request, "Accept").value_or("");
  plain.session_id = header_of(request, kMcpSessionHeader);
  plain.protocol_version = header_of(request, kMcpVersionHeader);
  co_await handle_mcp_request(context, std::move(plain), sink);
  if (!sink.started()) {
    // A route that answered nothing is a bug; the client still gets an answer.
    std::string body = null_id_error(mcp::rpc_code::kInternalError, "the MCP endpoint gave no answer");
    header_list none;
    co_await sink.send_json(500, std::move(none), std::move(body));
  }
  co_return sink.reusable();
}

}  // namespace parley::server
