// A small blocking WebSocket client for the PubChan tests: every wait has a deadline, and a
// timeout or a close is a value the test can assert on, never a hang.
#pragma once

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace parley::test {

class ws_client {
 public:
  using clock = std::chrono::steady_clock;

  // "parley.v1", plus the token as the `parley-token.T` subprotocol when there is one (what the web
  // UI offers).
  static std::string protocols_with_token(const std::string& token) {
    return token.empty() ? "parley.v1" : "parley.v1, parley-token." + token;
  }

  // Connects to ws://127.0.0.1:PORT/ws offering `protocols` (comma-separated; empty: none), with
  // `headers` added to the upgrade request (Authorization, Origin, Host, ...).
  bool connect_with_headers(std::uint16_t port, std::string protocols, std::map<std::string, std::string> headers) {
    namespace beast = boost::beast;
    namespace websocket = beast::websocket;
    boost::system::error_code ec;
    const boost::asio::ip::tcp::endpoint endpoint(boost::asio::ip::make_address("127.0.0.1"), port);
    beast::get_lowest_layer(ws_).expires_after(std::chrono::seconds(10));
    beast::get_lowest_layer(ws_).socket().connect(endpoint, ec);
    if (ec) return false;
    std::string host = "127.0.0.1:" + std::to_string(port);
    if (const auto given = headers.find("Host"); given != headers.end()) host = given->second;
    ws_.set_option(websocket::stream_base::decorator([protocols, headers](websocket::request_type& request) {
      if (!protocols.empty()) request.set(beast::http::field::sec_websocket_protocol, protocols);
      for (const auto& [name, value] : headers) {
        if (name != "Host") request.set(name, value);
      }
    }));
    websocket::response_type response;
    ws_.handshake(response, host, "/ws", ec);
    handshake_status_ = response.result_int();
    if (ec) return false;
    accepted_protocol_ = std::string(response[beast::http::field::sec_websocket_protocol]);
    beast::get_lowest_layer(ws_).expires_never();
    ws_.read_message_max(64 << 20);
    return true;
  }

  bool connect(std::uint16_t port, std::string protocols = "parley.v1", std::string authorization = {}) {
    std::map<std::string, std::string> headers;
    if (!authorization.empty()) headers["Authorization"] = authorization;
    return connect_with_headers(port, std::move(protocols), std::move(headers));
  }

  // The status of the handshake's HTTP response: 101 when accepted, else the refusal (403 ...).
  unsigned handshake_status() const noexcept { return handshake_status_; }

  void send(std::string_view text) {
    boost::system::error_code ec;
    ws_.text(true);
    ws_.write(boost::asio::buffer(text.data(), text.size()), ec);
  }
  void send(const boost::json::object& packet) { send(boost::json::serialize(packet)); }

  // The next packet, or nothing on timeout or close (see closed() / close_code()).
  std::optional<boost::json::object> next(std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    if (closed_) return std::nullopt;
    if (!pending_) {
      pending_ = true;
      done_ = false;
      ws_.async_read(buffer_, [this](boost::system::error_code ec, std::size_t) {
        done_ = true;
        error_ = ec;
      });
    }
    const auto deadline = clock::now() + timeout;
    io_.restart();
    while (!done_ && clock::now() < deadline) io_.run_one_until(deadline);
    if (!done_) return std::nullopt;
    pending_ = false;
    if (error_) {
      closed_ = true;
      close_code_ = ws_.reason().code;
      return std::nullopt;
    }
    const auto text = boost::beast::buffers_to_string(buffer_.data());
    buffer_.consume(buffer_.size());
    boost::system::error_code ec;
    auto value = boost::json::parse(text, ec);
    if (ec || !value.is_object()) return boost::json::object{{"type", "<not a JSON object>"}, {"text", text}};
    return std::move(value.as_object());
  }

  // Skips packets until one of `type` arrives.
  std::optional<boost::json::object> next_of(std::string_view type,
                                             std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    const auto deadline = clock::now() + timeout;
    while (clock::now() < deadline) {
      auto packet = next(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now()));
      if (!packet) return std::nullopt;
      if (packet->at("type").as_string() == type) return packet;
    }
    return std::nullopt;
  }

  // Waits for the server to close the socket; its close code, or 0 on timeout.
  std::uint16_t wait_closed(std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    const auto deadline = clock::now() + timeout;
    while (!closed_ && clock::now() < deadline) {
      (void)next(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now()));
    }
    return closed_ ? close_code_ : 0;
  }

  // Drops the connection without a close handshake, like a client that lost its network.
  void drop() {
    boost::system::error_code ec;
    boost::beast::get_lowest_layer(ws_).socket().close(ec);
    closed_ = true;
  }

  bool closed() const noexcept { return closed_; }
  std::uint16_t close_code() const noexcept { return close_code_; }
  const std::string& accepted_protocol() const noexcept { return accepted_protocol_; }

 private:
  boost::asio::io_context io_;
  boost::beast::websocket::stream<boost::beast::tcp_stream> ws_{io_};
  boost::beast::flat_buffer buffer_;
  bool pending_ = false;
  bool done_ = false;
  bool closed_ = false;
  boost::system::error_code error_;
  std::uint16_t close_code_ = 0;
  std::string accepted_protocol_;
  unsigned handshake_status_ = 0;
};

}  // namespace parley::test
