// An HTTP/1.1 client for model providers: http and https (system CA store, hostname checked),
// plain-HTTP proxies, a small keep-alive pool per host, and bodies read whole or streamed piece by
// piece as they arrive. Every wait is bounded by a timeout and every request can be cancelled.
// Failures are result<> values; nothing throws out of this module. Beast and OpenSSL stay in the
// .cpp files so that including this header is cheap.
//
// Connections are created on the executor of the calling coroutine (a dialog's strand, say) and
// reused only by later calls on that same executor, so a connection's operations stay serial. The
// client must be destroyed before the io_context it ran on, and a cancellation slot must be
// emitted on the calling coroutine's executor.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/cancellation_signal.hpp>

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/http/proxy.hpp"

namespace parley::http {

struct timeouts {
  std::chrono::milliseconds connect{10'000};      // resolve, TCP connect, proxy tunnel, TLS handshake
  std::chrono::milliseconds first_byte{120'000};  // request sent → response head and first body bytes
  std::chrono::milliseconds idle{60'000};         // silence between two pieces of the body
};

struct header_field {
  std::string name;
  std::string value;
};
using header_list = std::vector<header_field>;

struct request {
  std::string method = "POST";
  std::string url;  // absolute http:// or https:// URL
  header_list headers;
  std::string body;
};

struct response {
  int status = 0;
  std::string reason;
  header_list headers;
  std::string body;

  bool success() const noexcept { return status >= 200 && status < 300; }
  // First value of the header `name` (case-insensitive), empty when absent.
  std::string_view header(std::string_view name) const;
};

// Receives each piece of a streamed body. An error return aborts the request with that error.
using body_callback = std::function<result<void>(std::string_view piece)>;
// Sees a streamed (2xx) response's status and headers before the first piece of its body, so that
// the caller can choose how to read the body (MCP answers JSON or an event stream). An error
// return aborts the request with that error.
using head_callback = std::function<result<void>(const response& head)>;

struct client_options {
  http::timeouts timeouts;
  std::size_t max_body_bytes = std::size_t{16} * 1024 * 1024;  // bodies read whole; a streamed body is unbounded
  std::optional<proxy_settings> proxy;                         // nullopt: read from the environment once
  // Enough for a team's concurrent calls to one model server: a connection that finds no idle slot is
  // closed, and the next call pays a new TCP (and TLS) handshake.
  std::size_t max_idle_per_host = 64;
  std::chrono::milliseconds max_idle_time{20'000};  // servers close idle connections; don't reuse older
  std::string ca_file;                              // extra trusted CA (PEM), beside the system store
  bool verify_tls = true;
  std::string user_agent = "parley/0.1";
};

class client {
 public:
  explicit client(client_options options = {});
  ~client();
  client(const client&) = delete;
  client& operator=(const client&) = delete;

  // Sends `req` and reads the whole response, body capped at max_body_bytes.
  boost::asio::awaitable<result<response>> send(const request& req, boost::asio::cancellation_slot cancel = {});

  // Sends `req`; a 2xx body goes to `on_body` as it arrives (response.body stays empty). Any other
  // status's body is read whole into response.body, so the caller can report what the server said.
  boost::asio::awaitable<result<response>> stream(const request& req, body_callback on_body,
                                                  boost::asio::cancellation_slot cancel = {});
  // The same, and `on_head` sees a 2xx head before its body.
  boost::asio::awaitable<result<response>> stream(const request& req, head_callback on_head, body_callback on_body,
                                                  boost::asio::cancellation_slot cancel = {});

  std::size_t idle_connections() const;
  const client_options& options() const noexcept;

 private:
  class impl;
  std::unique_ptr<impl> impl_;
};

// Errors: errc::invalid_argument (bad URL), errc::cancelled (the slot fired), errc::limit_exceeded
// (body over the cap), errc::provider_error for everything the network or the server did, with
// the host in the text — "no data from HOST for N ms", "cannot connect to HOST:PORT: ...".

}  // namespace parley::http
