#include "parley/tools/mcp/http_transport.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>

#include <algorithm>
#include <array>
#include <cctype>

#include "parley/core/text.hpp"
#include "parley/http/url.hpp"
#include "parley/tools/mcp/http_answer.hpp"
#include "parley/tools/mcp/http_transport_state.hpp"

namespace parley::tools::mcp {

namespace asio = boost::asio;

namespace {

// Error bodies are read whole, up to this; only an excerpt is quoted.
constexpr std::size_t kMaxErrorBody = std::size_t{1} << 20;

// Headers the transport sets itself: a configured one would contradict them.
constexpr std::array<std::string_view, 9> kTransportHeaders = {
    "host",   "content-length", "transfer-encoding",    "connection",   "content-type",
    "accept", "mcp-session-id", "mcp-protocol-version", "last-event-id"};

bool is_token_char(char c) {
  const auto byte = static_cast<unsigned char>(c);
  if (std::isalnum(byte) != 0) return true;
  return std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

// Field values may hold spaces, tabs and bytes over 0x7F; any other control character could end
// the header or smuggle another one.
bool is_field_value(std::string_view value) {
  return std::none_of(value.begin(), value.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return (byte < 0x20 && byte != '\t') || byte == 0x7F;
  });
}

result<void> check_header(std::string_view server, const http::header_field& field) {
  const std::string shown = body_excerpt(field.name);
  if (field.name.empty() || !std::all_of(field.name.begin(), field.name.end(), is_token_char)) {
    return make_error(errc::invalid_argument,
                      server_says(server, "header '" + shown + "': the name is not an HTTP token"));
  }
  const std::string lower = ascii_lowercase(field.name);
  if (std::find(kTransportHeaders.begin(), kTransportHeaders.end(), lower) != kTransportHeaders.end()) {
    return make_error(errc::invalid_argument,
                      server_says(server, "header '" + shown + "': set by the MCP transport itself, not configurable"));
  }
  // The value may be a secret: named, never quoted.
  if (!is_field_value(field.value)) {
    return make_error(errc::invalid_argument,
                      server_says(server, "header '" + shown + "': the value holds a control character"));
  }
  return ok();
}

bool is_visible_ascii(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return c >= 0x21 && c <= 0x7E; });
}

http::client_options client_options_for(const http_transport_options& options) {
  http::client_options client;
  client.timeouts = options.timeouts;
  client.max_body_bytes = kMaxErrorBody;
  client.proxy = options.proxy;
  client.ca_file = options.ca_file;
  return client;
}

// close()'s DELETE: ends the session on the server, bounded by close_timeout whatever the server
// does. Nothing is reported: the transport is already closed.
asio::awaitable<void> end_session(std::shared_ptr<http_transport::state> shared) {
  // Shared with the timer's handler, which may run after this frame is gone.
  auto stop = std::make_shared<asio::cancellation_signal>();
  asio::steady_timer deadline(shared->executor, shared->options.close_timeout);
  deadline.async_wait([stop](const boost::system::error_code& ec) {
    if (!ec) stop->emit(asio::cancellation_type::terminal);
  });
  const http::request req = shared->request("DELETE", true);
  auto ended = co_await shared->client.send(req, stop->slot());
  (void)ended;  // 405 (the server keeps sessions until they expire) and failures alike: best effort
  deadline.cancel();
}

}  // namespace

http_transport::state::state(asio::any_io_executor executor_in, http_transport_options options_in,
                             http::client_options client_options, std::string host_in)
    : executor(std::move(executor_in)),
      options(std::move(options_in)),
      client(std::move(client_options)),
      inbox(executor),
      host(std::move(host_in)),
      session_id(options.session_id) {}

http::request http_transport::state::request(std::string method, bool with_session) const {
  http::request req;
  req.method = std::move(method);
  req.url = options.url;
  req.headers = options.headers;
  if (with_session && !session_id.empty()) req.headers.push_back({"Mcp-Session-Id", session_id});
  if (with_session && !protocol_version.empty()) req.headers.push_back({"MCP-Protocol-Version", protocol_version});
  return req;
}

error http_transport::state::status_error(const http::response& answer, bool sent_session,
                                          std::string_view what) const {
  std::string status = "HTTP " + std::to_string(answer.status);
  if (!answer.reason.empty()) status += " " + body_excerpt(answer.reason);
  if (answer.status == 404 && sent_session) {
    return make_error(
        errc::not_found,
        server_says(options.server, "session " + session_id + " is gone (" + status + " to " + std::string(what) +
                                        "): it expired or the server ended it; " + body_excerpt(answer.body)));
  }
  return make_error(errc::provider_error,
                    server_says(options.server, status + " from " + host + " to " + std::string(what) + ": " +
                                                    body_excerpt(answer.body)));
}

error http_transport::state::wire_error(const error& failure) const {
  const std::string prefix = server_says(options.server, "");
  if (failure.message.rfind(prefix, 0) == 0) return failure;  // named already (a refused body)
  return make_error(failure.code, prefix + failure.message);
}

result<std::unique_ptr<http_transport>> http_transport::make(asio::any_io_executor executor,
                                                             http_transport_options options) {
  auto target = http::parse_url(options.url);
  if (!target) return make_error(errc::invalid_argument, server_says(options.server, target.err().message));
  for (const auto& field : options.headers) PARLEY_TRY(check_header(options.server, field));
  if (!is_visible_ascii(options.session_id)) {
    return make_error(errc::invalid_argument, server_says(options.server, "sessionId: not visible ASCII"));
  }
  auto client = client_options_for(options);
  auto shared = std::make_shared<state>(std::move(executor), std::move(options), std::move(client), target->authority);
  return std::unique_ptr<http_transport>(new http_transport(std::move(shared)));
}

http_transport::http_transport(std::shared_ptr<state> shared) : state_(std::move(shared)) {}

http_transport::~http_transport() { close(); }

asio::awaitable<result<void>> http_transport::open() {
  if (state_->closed) co_return state_->inbox.failure();
  co_return ok();
}

asio::awaitable<result<void>> http_transport::send(std::string message) {
  // The frame keeps the state, not `this`: the transport may be destroyed while this waits.
  const std::shared_ptr<state> shared = state_;
  if (shared->inbox.failed()) co_return shared->inbox.failure();
  auto parsed = parse_message(message);
  if (!parsed) {
    co_return make_error(
        errc::invalid_argument,
        server_says(shared->options.server, "not sent, not a JSON-RPC message: " + parsed.err().message));
  }
  outgoing_message outgoing;
  if (const auto* request = std::get_if<rpc_request>(&*parsed)) {
    outgoing.id = request->id;
    outgoing.method = request->method;
  } else if (const auto* notification = std::get_if<rpc_notification>(&*parsed)) {
    outgoing.method = notification->method;
  }
  outgoing.text = std::move(message);
  if (outgoing.id) {
    // Answered when the server is done, which may be long: the POST runs on its own.
    asio::co_spawn(shared->executor, post_message(shared, std::move(outgoing)), asio::detached);
    co_return ok();
  }
  // Accepted at once (202): waiting keeps a notification ahead of what is sent after it.
  co_await post_message(shared, std::move(outgoing));
  if (shared->inbox.failed()) co_return shared->inbox.failure();
  co_return ok();
}

asio::awaitable<result<std::string>> http_transport::receive() {
  const std::shared_ptr<state> shared = state_;  // as in send()
  co_return co_await shared->inbox.next();
}

void http_transport::set_protocol_version(std::string version) {
  if (version.empty() || version.size() > 64 || !is_visible_ascii(version)) {
    state_->inbox.fail(make_error(
        errc::provider_error,
        server_says(state_->options.server,
                    "negotiated a protocol version that cannot be sent in a header: " + body_excerpt(version))));
    return;
  }
  state_->protocol_version = std::move(version);
}

void http_transport::close() {
  if (state_->closed) return;
  state_->closed = true;
  state_->inbox.close(make_error(errc::cancelled, server_says(state_->options.server, "the connection was closed")));
  for (auto& signal : state_->in_flight) signal.emit(asio::cancellation_type::terminal);
  if (!state_->session_id.empty()) {
    asio::co_spawn(state_->executor, end_session(state_), asio::detached);
  }
}

const std::string& http_transport::session_id() const { return state_->session_id; }

}  // namespace parley::tools::mcp
