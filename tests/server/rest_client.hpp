// A small synchronous HTTP/1.1 client for the black-box REST tests: one request per connection,
// JSON bodies parsed on demand, and a raw mode that sends bytes exactly as given (for malformed
// requests and path traversal). Every read times out, so a hung server fails a test instead of
// hanging it. Header-only.
#pragma once

#include <sys/socket.h>
#include <sys/time.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <thread>

namespace parley::test {

struct http_reply {
  int status = 0;  // 0: no response (connection failed or closed)
  std::string body;
  std::map<std::string, std::string> headers;  // names as the server wrote them
  boost::json::value json() const {
    boost::system::error_code ec;
    auto parsed = boost::json::parse(body, ec);
    return ec ? boost::json::value() : parsed;
  }
  std::string header(const std::string& name) const {
    const auto found = headers.find(name);
    return found == headers.end() ? std::string() : found->second;
  }
};

class rest_client {
 public:
  explicit rest_client(std::uint16_t port, std::string token = {}) : port_(port), token_(std::move(token)) {}

  http_reply get(const std::string& target) const { return request("GET", target, {}); }
  http_reply post(const std::string& target, const std::string& body) const { return request("POST", target, body); }
  http_reply post(const std::string& target, const boost::json::value& body) const {
    return request("POST", target, boost::json::serialize(body));
  }

  http_reply request(const std::string& method, const std::string& target, const std::string& body,
                     const std::map<std::string, std::string>& headers = {}) const {
    namespace http = boost::beast::http;
    http::request<http::string_body> req{http::string_to_verb(method), target, 11};
    req.set(http::field::host, "127.0.0.1:" + std::to_string(port_));  // as a browser names the server
    if (!token_.empty()) req.set(http::field::authorization, "Bearer " + token_);
    for (const auto& [name, value] : headers) req.set(name, value);
    if (!body.empty() || method == "POST") {
      if (headers.count("Content-Type") == 0) req.set(http::field::content_type, "application/json");
      req.body() = body;
      req.prepare_payload();
    }
    http_reply reply;
    boost::asio::io_context io;
    boost::asio::ip::tcp::socket socket(io);
    if (!connect(socket)) return reply;
    boost::system::error_code ec;
    http::write(socket, req, ec);
    if (ec) return reply;
    return read_reply(socket, method == "HEAD");
  }

  // Sends `bytes` as they are and reads one response.
  http_reply raw(const std::string& bytes) const {
    http_reply reply;
    boost::asio::io_context io;
    boost::asio::ip::tcp::socket socket(io);
    if (!connect(socket)) return reply;
    boost::system::error_code ec;
    boost::asio::write(socket, boost::asio::buffer(bytes), ec);
    if (ec) return reply;
    return read_reply(socket);
  }

 private:
  bool connect(boost::asio::ip::tcp::socket& socket) const {
    boost::system::error_code ec;
    socket.connect({boost::asio::ip::make_address("127.0.0.1"), port_}, ec);
    if (ec) return false;
    timeval timeout{30, 0};  // a blocking read gives up after 30 s
    ::setsockopt(socket.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    return true;
  }

  // A HEAD response announces a body it does not carry, so only its header is read.
  static http_reply read_reply(boost::asio::ip::tcp::socket& socket, bool head_request = false) {
    namespace http = boost::beast::http;
    http_reply reply;
    boost::beast::flat_buffer buffer;
    http::response_parser<http::string_body> parser;
    parser.body_limit(64 << 20);
    boost::system::error_code ec;
    if (head_request) {
      http::read_header(socket, buffer, parser, ec);
    } else {
      http::read(socket, buffer, parser, ec);
    }
    if (ec) return reply;
    const auto& res = parser.get();
    reply.status = static_cast<int>(res.result_int());
    reply.body = res.body();
    for (const auto& field : res) reply.headers[std::string(field.name_string())] = std::string(field.value());
    return reply;
  }

  std::uint16_t port_;
  std::string token_;
};

// Polls `probe` until it returns true or `timeout` passes; the test asserts on the outcome, never
// on how long it took.
template <class Probe>
bool eventually(Probe probe, std::chrono::milliseconds timeout = std::chrono::seconds(60)) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (probe()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return probe();
}

}  // namespace parley::test
