#include "parley/server/http_response_sink.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/chunk_encode.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>

#include <chrono>

namespace parley::server {

namespace asio = boost::asio;
namespace http = boost::beast::http;
using namespace std::chrono_literals;

namespace {

// How long one write may wait for the client to take it.
constexpr auto kSinkWriteTimeout = 30s;
constexpr auto sink_awaitable = asio::as_tuple(asio::use_awaitable);

}  // namespace

http_response_sink::http_response_sink(boost::beast::tcp_stream& stream, unsigned version, bool keep_alive,
                                       std::string cors_origin, std::string exposed)
    : stream_(stream),
      version_(version),
      keep_alive_(keep_alive),
      cors_origin_(std::move(cors_origin)),
      exposed_(std::move(exposed)) {}

template <class Response>
void http_response_sink::add_headers(Response& response, const header_list& headers) const {
  response.set(http::field::cache_control, "no-store");
  for (const auto& [name, value] : headers) response.set(name, value);
  if (!cors_origin_.empty()) {
    response.set(http::field::access_control_allow_origin, cors_origin_);
    response.set(http::field::access_control_expose_headers, exposed_);
    response.set(http::field::vary, "Origin");
  }
  response.keep_alive(keep_alive_);
}

asio::awaitable<bool> http_response_sink::send_json(unsigned status, header_list headers, std::string body) {
  if (started_) co_return false;  // one response per request
  started_ = true;
  http::response<http::string_body> response{static_cast<http::status>(status), version_};
  response.set(http::field::content_type, "application/json");
  add_headers(response, headers);
  response.body() = std::move(body);
  response.prepare_payload();
  stream_.expires_after(kSinkWriteTimeout);
  auto [ec, written] = co_await http::async_write(stream_, response, sink_awaitable);
  failed_ = static_cast<bool>(ec);
  finished_ = true;
  co_return !failed_;
}

asio::awaitable<bool> http_response_sink::begin_stream(header_list headers) {
  if (started_) co_return false;
  started_ = true;
  streaming_ = true;
  http::response<http::empty_body> response{http::status::ok, version_};
  response.set(http::field::content_type, "text/event-stream; charset=utf-8");
  add_headers(response, headers);
  // Proxies such as nginx buffer responses unless told not to; events must arrive as they happen.
  response.set("X-Accel-Buffering", "no");
  response.chunked(true);
  http::response_serializer<http::empty_body> serializer(response);
  stream_.expires_after(kSinkWriteTimeout);
  auto [ec, written] = co_await http::async_write_header(stream_, serializer, sink_awaitable);
  failed_ = static_cast<bool>(ec);
  co_return !failed_;
}

asio::awaitable<bool> http_response_sink::stream(std::string piece) {
  if (!streaming_ || failed_ || finished_) co_return false;
  if (piece.empty()) co_return true;  // an empty chunk would end the body
  stream_.expires_after(kSinkWriteTimeout);
  const auto chunk = http::make_chunk(asio::buffer(piece));
  auto [ec, written] = co_await asio::async_write(stream_, chunk, sink_awaitable);
  failed_ = static_cast<bool>(ec);
  co_return !failed_;
}

asio::awaitable<bool> http_response_sink::end_stream() {
  if (!streaming_ || failed_ || finished_) co_return false;
  stream_.expires_after(kSinkWriteTimeout);
  const auto last = http::make_chunk_last();
  auto [ec, written] = co_await asio::async_write(stream_, last, sink_awaitable);
  failed_ = static_cast<bool>(ec);
  finished_ = true;
  co_return !failed_;
}

}  // namespace parley::server
