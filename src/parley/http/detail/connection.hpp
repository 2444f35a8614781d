// Internal: one client connection, plain TCP or TLS over TCP, with the read buffer that must
// live as long as the connection for keep-alive. Includes Beast — never include from a public header.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

#include <chrono>
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <variant>

#include "parley/core/result.hpp"

namespace parley::http::detail {

namespace asio = boost::asio;
namespace beast = boost::beast;
using tls_stream = beast::ssl_stream<beast::tcp_stream>;

class connection {
 public:
  connection(const asio::any_io_executor& executor, std::string pool_key);
  connection(const connection&) = delete;
  connection& operator=(const connection&) = delete;

  const std::string& pool_key() const noexcept { return pool_key_; }
  const asio::any_io_executor& executor() const noexcept { return executor_; }
  bool is_tls() const noexcept { return std::holds_alternative<tls_stream>(stream_); }
  beast::tcp_stream& tcp() noexcept;
  tls_stream& tls() noexcept { return std::get<tls_stream>(stream_); }
  beast::flat_buffer& buffer() noexcept { return buffer_; }
  // Where response bodies are read into, piece by piece: made once per connection and never
  // zeroed, because each exchange's reader only looks at the bytes the parser wrote.
  std::span<char> body_piece();

  // Wraps the connected TCP stream (possibly a proxy tunnel) in TLS; the handshake is the caller's.
  result<void> start_tls(asio::ssl::context& context);
  // Closes the socket at once; pending operations complete with operation_aborted.
  void close() noexcept;
  bool is_open() const noexcept;

  std::chrono::steady_clock::time_point idle_since() const noexcept { return idle_since_; }
  void mark_idle() noexcept { idle_since_ = std::chrono::steady_clock::now(); }

 private:
  std::string pool_key_;
  asio::any_io_executor executor_;
  std::variant<beast::tcp_stream, tls_stream> stream_;
  beast::flat_buffer buffer_;
  std::unique_ptr<char[]> body_piece_;  // NOLINT(*-avoid-c-arrays): a fixed buffer, sized once
  std::chrono::steady_clock::time_point idle_since_{};
};

}  // namespace parley::http::detail
