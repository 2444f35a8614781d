#include "parley/http/detail/connector.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>

#include <openssl/ssl.h>

#include "parley/http/detail/awaiting.hpp"

namespace parley::http::detail {

namespace {

namespace http = beast::http;

std::string host_port(std::string_view host, std::uint16_t port) {
  const bool ipv6 = host.find(':') != std::string_view::npos;
  return (ipv6 ? "[" + std::string(host) + "]" : std::string(host)) + ":" + std::to_string(port);
}

error failure(const cancel_guard& guard, std::string message) {
  if (guard.fired()) return make_error(errc::cancelled, "request cancelled");
  return make_error(errc::provider_error, std::move(message));
}

asio::awaitable<result<void>> connect_tcp(connection& conn, const std::string& host, std::uint16_t port,
                                          const connect_params& params, cancel_guard& guard) {
  boost::system::error_code connect_ec;
  boost::system::error_code not_literal;
  const auto literal = asio::ip::make_address(host, not_literal);
  if (!not_literal) {
    // A literal address (a local model server, a mock) skips the resolver, which runs getaddrinfo on
    // a helper thread: a thread hop and a wake-up for every new connection.
    const asio::ip::tcp::endpoint target(literal, port);
    conn.tcp().expires_after(params.limits.connect);
    auto [ec] = co_await conn.tcp().async_connect(target, kAwait);
    connect_ec = ec;
  } else {
    asio::ip::tcp::resolver resolver(co_await asio::this_coro::executor);
    guard.watch(&resolver);
    auto [resolve_ec, endpoints] = co_await resolver.async_resolve(host, std::to_string(port), kAwait);
    guard.watch(static_cast<asio::ip::tcp::resolver*>(nullptr));
    if (resolve_ec) co_return failure(guard, "cannot resolve " + host + ": " + resolve_ec.message());
    conn.tcp().expires_after(params.limits.connect);
    auto [ec, endpoint] = co_await conn.tcp().async_connect(endpoints, kAwait);
    connect_ec = ec;
  }
  if (connect_ec == beast::error::timeout) {
    co_return failure(guard, "connect to " + host_port(host, port) + " timed out after " + ms(params.limits.connect));
  }
  if (connect_ec) co_return failure(guard, "cannot connect to " + host_port(host, port) + ": " + connect_ec.message());
  boost::system::error_code ignored;
  conn.tcp().socket().set_option(asio::ip::tcp::no_delay(true), ignored);
  co_return ok();
}

// Asks the proxy for a tunnel to the target; the TLS session then runs inside it.
asio::awaitable<result<void>> open_tunnel(connection& conn, const connect_params& params, cancel_guard& guard) {
  const proxy_endpoint& proxy = *params.proxy;
  const std::string destination = host_port(params.target.host, params.target.port);
  http::request<http::empty_body> connect_request{http::verb::connect, destination, 11};
  connect_request.set(http::field::host, destination);
  if (!proxy.authorization.empty()) connect_request.set(http::field::proxy_authorization, proxy.authorization);

  const std::string via = "proxy " + host_port(proxy.host, proxy.port);
  auto [write_ec, written] = co_await http::async_write(conn.tcp(), connect_request, kAwait);
  if (write_ec) co_return failure(guard, via + ": cannot send CONNECT: " + write_ec.message());

  http::response_parser<http::empty_body> parser;
  parser.skip(true);  // a CONNECT response has no body; what follows belongs to the tunnel
  auto [read_ec, read] = co_await http::async_read_header(conn.tcp(), conn.buffer(), parser, kAwait);
  if (read_ec == beast::error::timeout) {
    co_return failure(guard, via + ": no answer to CONNECT within " + ms(params.limits.connect));
  }
  if (read_ec) co_return failure(guard, via + ": bad answer to CONNECT: " + read_ec.message());
  const auto& answer = parser.get();
  if (answer.result_int() / 100 != 2) {
    co_return failure(guard, via + " refused CONNECT to " + destination + ": " + std::to_string(answer.result_int()) +
                                 " " + std::string(answer.reason()));
  }
  if (conn.buffer().size() != 0) co_return failure(guard, via + ": unexpected bytes after CONNECT answer");
  co_return ok();
}

asio::awaitable<result<void>> handshake(connection& conn, const connect_params& params, cancel_guard& guard) {
  if (auto started = conn.start_tls(*params.tls_context); !started) co_return started;
  auto& stream = conn.tls();
  const std::string& host = params.target.host;
  boost::system::error_code ec;
  const bool ip_literal = (asio::ip::make_address(host, ec), !ec);
  // SNI is for names only (RFC 6066); certificates for IP addresses are checked all the same.
  if (!ip_literal && SSL_set_tlsext_host_name(stream.native_handle(), host.c_str()) != 1) {
    co_return failure(guard, "cannot set TLS server name " + host);
  }
  if (params.verify_tls) {
    stream.set_verify_mode(asio::ssl::verify_peer, ec);
    if (!ec) stream.set_verify_callback(asio::ssl::host_name_verification(host), ec);
    if (ec) co_return failure(guard, "cannot set up TLS verification for " + host + ": " + ec.message());
  } else {
    stream.set_verify_mode(asio::ssl::verify_none, ec);
  }
  auto [handshake_ec] = co_await stream.async_handshake(asio::ssl::stream_base::client, kAwait);
  if (handshake_ec == beast::error::timeout) {
    co_return failure(guard, "TLS handshake with " + host + " timed out after " + ms(params.limits.connect));
  }
  if (handshake_ec) co_return failure(guard, "TLS handshake with " + host + " failed: " + handshake_ec.message());
  co_return ok();
}

}  // namespace

asio::awaitable<result<std::unique_ptr<connection>>> open_connection(const connect_params& params, std::string pool_key,
                                                                     cancel_guard& guard) {
  auto conn = std::make_unique<connection>(co_await asio::this_coro::executor, std::move(pool_key));
  guard.watch(conn.get());
  const std::string& host = params.proxy ? params.proxy->host : params.target.host;
  const std::uint16_t port = params.proxy ? params.proxy->port : params.target.port;
  if (auto connected = co_await connect_tcp(*conn, host, port, params, guard); !connected) {
    co_return std::move(connected).err();
  }
  // One deadline covers the tunnel and the handshake: both are part of getting connected.
  conn->tcp().expires_after(params.limits.connect);
  if (params.proxy && params.target.tls) {
    if (auto tunnel = co_await open_tunnel(*conn, params, guard); !tunnel) co_return std::move(tunnel).err();
  }
  if (params.target.tls) {
    if (auto secured = co_await handshake(*conn, params, guard); !secured) co_return std::move(secured).err();
  }
  conn->tcp().expires_never();
  guard.watch(static_cast<connection*>(nullptr));
  co_return conn;
}

}  // namespace parley::http::detail
