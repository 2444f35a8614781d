#include "support/fake_http_server.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>

#include <algorithm>
#include <cctype>
#include <deque>
#include <future>
#include <list>
#include <mutex>
#include <sstream>
#include <thread>

namespace parley::testing {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
using asio::ip::tcp;
constexpr auto kAwait = asio::as_tuple(asio::use_awaitable);

fake_response fake_response::json(std::string body, int status) {
  fake_response response;
  response.status = status;
  response.headers = {{"Content-Type", "application/json"}};
  response.body = std::move(body);
  return response;
}

fake_response fake_response::sse(std::vector<std::string> pieces, fake_ending ending) {
  fake_response response;
  response.headers = {{"Content-Type", "text/event-stream"}, {"Cache-Control", "no-cache"}};
  for (auto& piece : pieces) response.pieces.push_back({std::move(piece), {}});
  response.ending = ending;
  return response;
}

std::string received_request::header(std::string_view name) const {
  for (const auto& [key, value] : headers) {
    if (key.size() == name.size() && std::equal(key.begin(), key.end(), name.begin(), [](char a, char b) {
          return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
        })) {
      return value;
    }
  }
  return {};
}

struct fake_http_server::state {
  asio::io_context io;
  tcp::acceptor acceptor{io};
  std::thread thread;
  std::list<tcp::socket*> open_sockets;  // touched on the server thread only
  std::uint16_t port = 0;
  std::optional<asio::ssl::context> tls;

  mutable std::mutex mutex;
  std::deque<fake_response> script;        // guarded by mutex
  std::vector<received_request> received;  // guarded by mutex
  std::size_t accepted = 0;                // guarded by mutex
  std::string server_name;                 // guarded by mutex
  fake_http_server::responder answer;      // guarded by mutex

  fake_response next_response() {
    std::lock_guard lock(mutex);
    if (script.empty() && answer && !received.empty()) return answer(received.back());
    if (script.empty()) return fake_response::json(R"({"error":{"message":"fake server: no scripted response"}})", 500);
    fake_response response = std::move(script.front());
    script.pop_front();
    return response;
  }

  void record(const bhttp::request<bhttp::string_body>& message) {
    received_request request{std::string(message.method_string()), std::string(message.target()), {}, message.body()};
    for (const auto& field : message) request.headers.emplace_back(field.name_string(), field.value());
    std::lock_guard lock(mutex);
    received.push_back(std::move(request));
  }

  static std::string head_text(const fake_response& response) {
    std::ostringstream out;
    out << "HTTP/1.1 " << response.status << " " << (response.status < 400 ? "OK" : "Error") << "\r\n";
    for (const auto& [name, value] : response.headers) out << name << ": " << value << "\r\n";
    if (response.pieces.empty()) {
      out << "Content-Length: " << response.body.size() << "\r\n";
    } else {
      out << "Transfer-Encoding: chunked\r\n";
    }
    if (response.close) out << "Connection: close\r\n";
    out << "\r\n";
    if (response.pieces.empty()) out << response.body;
    return out.str();
  }

  static std::string chunk(std::string_view bytes) {
    std::ostringstream out;
    out << std::hex << bytes.size() << "\r\n" << bytes << "\r\n";
    return out.str();
  }

  // Returns whether the connection can take another request.
  template <class Stream>
  asio::awaitable<bool> respond(Stream& socket, const fake_response& response) {
    asio::steady_timer timer(socket.get_executor());
    if (response.head_delay.count() > 0) {
      timer.expires_after(response.head_delay);
      co_await timer.async_wait(kAwait);
    }
    auto [head_ec, head_n] = co_await asio::async_write(socket, asio::buffer(head_text(response)), kAwait);
    if (head_ec) co_return false;
    for (const auto& piece : response.pieces) {
      if (piece.delay.count() > 0) {
        timer.expires_after(piece.delay);
        co_await timer.async_wait(kAwait);
      }
      auto [ec, n] = co_await asio::async_write(socket, asio::buffer(chunk(piece.bytes)), kAwait);
      if (ec) co_return false;
    }
    if (response.pieces.empty()) co_return !response.close && !response.drop_after;
    switch (response.ending) {
      case fake_ending::complete: {
        auto [ec, n] = co_await asio::async_write(socket, asio::buffer(std::string_view("0\r\n\r\n")), kAwait);
        co_return !ec && !response.close && !response.drop_after;
      }
      case fake_ending::disconnect:
        co_return false;
      case fake_ending::never_end: {
        char byte = 0;  // the client sends nothing more: this read ends when it closes
        co_await socket.async_read_some(asio::buffer(&byte, 1), kAwait);
        co_return false;
      }
    }
    co_return false;
  }

  template <class Stream>
  asio::awaitable<void> serve(Stream& stream, tcp::socket& socket) {
    auto entry = open_sockets.insert(open_sockets.end(), &socket);
    beast::flat_buffer buffer;
    for (;;) {
      bhttp::request_parser<bhttp::string_body> parser;
      parser.body_limit(64 * 1024 * 1024);
      auto [ec, n] = co_await bhttp::async_read(stream, buffer, parser, kAwait);
      if (ec) break;
      record(parser.get());
      if (!co_await respond(stream, next_response())) break;
    }
    boost::system::error_code ignored;
    socket.shutdown(tcp::socket::shutdown_both, ignored);
    socket.close(ignored);
    open_sockets.erase(entry);
  }

  asio::awaitable<void> session(tcp::socket socket) {
    if (!tls) {
      co_await serve(socket, socket);
      co_return;
    }
    asio::ssl::stream<tcp::socket> stream(std::move(socket), *tls);
    auto [ec] = co_await stream.async_handshake(asio::ssl::stream_base::server, kAwait);
    if (ec) co_return;
    if (const char* name = SSL_get_servername(stream.native_handle(), TLSEXT_NAMETYPE_host_name)) {
      std::lock_guard lock(mutex);
      server_name = name;
    }
    co_await serve(stream, stream.next_layer());
  }

  asio::awaitable<void> accept_loop() {
    for (;;) {
      auto [ec, socket] = co_await acceptor.async_accept(kAwait);
      if (ec) co_return;
      {
        std::lock_guard lock(mutex);
        ++accepted;
      }
      asio::co_spawn(io, session(std::move(socket)), asio::detached);
    }
  }
};

fake_http_server::fake_http_server(std::optional<test_certificate> tls) : state_(std::make_unique<state>()) {
  if (tls) {
    auto& context = state_->tls.emplace(asio::ssl::context::tls_server);
    context.use_certificate_chain(asio::buffer(tls->cert_pem));
    context.use_private_key(asio::buffer(tls->key_pem), asio::ssl::context::pem);
  }
  const tcp::endpoint endpoint(asio::ip::make_address("127.0.0.1"), 0);
  state_->acceptor.open(endpoint.protocol());
  state_->acceptor.set_option(tcp::acceptor::reuse_address(true));
  state_->acceptor.bind(endpoint);
  state_->acceptor.listen();
  state_->port = state_->acceptor.local_endpoint().port();
  asio::co_spawn(state_->io, state_->accept_loop(), asio::detached);
  state_->thread = std::thread([this] { state_->io.run(); });
}

fake_http_server::~fake_http_server() {
  std::promise<void> closed;
  asio::post(state_->io, [this, &closed] {
    boost::system::error_code ignored;
    state_->acceptor.close(ignored);
    for (tcp::socket* socket : state_->open_sockets) socket->close(ignored);
    closed.set_value();
  });
  closed.get_future().wait();
  state_->io.stop();
  state_->thread.join();
}

void fake_http_server::push(fake_response response) {
  std::lock_guard lock(state_->mutex);
  state_->script.push_back(std::move(response));
}

void fake_http_server::answer_with(responder answer) {
  std::lock_guard lock(state_->mutex);
  state_->answer = std::move(answer);
}

std::uint16_t fake_http_server::port() const { return state_->port; }

std::string fake_http_server::base_url() const {
  return (state_->tls ? "https://127.0.0.1:" : "http://127.0.0.1:") + std::to_string(port());
}

std::string fake_http_server::last_server_name() const {
  std::lock_guard lock(state_->mutex);
  return state_->server_name;
}

std::vector<received_request> fake_http_server::requests() const {
  std::lock_guard lock(state_->mutex);
  return state_->received;
}

std::size_t fake_http_server::connections_accepted() const {
  std::lock_guard lock(state_->mutex);
  return state_->accepted;
}

}  // namespace parley::testing
