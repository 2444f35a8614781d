#include "parley/http/detail/exchange.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/http/buffer_body.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>

#include <limits>
#include <span>

#include "parley/http/detail/awaiting.hpp"

namespace parley::http::detail {

namespace {

namespace bhttp = beast::http;
constexpr std::uint32_t kHeaderLimit = 64 * 1024;

bool has_line_break(std::string_view text) { return text.find_first_of("\r\n") != std::string_view::npos; }

result<bhttp::request<bhttp::string_body>> build_message(const exchange_params& params) {
  const auto verb = bhttp::string_to_verb(params.req.method);
  if (verb == bhttp::verb::unknown) {
    return make_error(errc::invalid_argument, "unknown HTTP method '" + params.req.method + "'");
  }
  const auto& target = params.target;
  bhttp::request<bhttp::string_body> message{verb, params.absolute_target ? target.absolute() : target.target, 11};
  message.set(bhttp::field::host, target.authority);
  message.set(bhttp::field::user_agent, params.options.user_agent);
  for (const auto& field : params.req.headers) {
    if (field.name.empty() || has_line_break(field.name) || has_line_break(field.value)) {
      return make_error(errc::invalid_argument, "invalid HTTP header '" + field.name + "'");
    }
    message.set(field.name, field.value);
  }
  if (params.absolute_target && !params.proxy_authorization.empty()) {
    message.set(bhttp::field::proxy_authorization, params.proxy_authorization);
  }
  message.body() = params.req.body;
  message.keep_alive(true);
  message.prepare_payload();
  return message;
}

// Reads one response; a class so that the phases share the parser and the deadlines.
template <class Stream>
class response_reader {
 public:
  response_reader(Stream& stream, connection& conn, const exchange_params& params, exchange_state& state,
                  cancel_guard& guard)
      : stream_(stream), conn_(conn), params_(params), state_(state), guard_(guard), host_(params.target.authority) {
    parser_.header_limit(kHeaderLimit);
    parser_.body_limit(std::numeric_limits<std::uint64_t>::max());  // the deliver step enforces caps
    if (params.req.method == "HEAD") parser_.skip(true);
  }

  asio::awaitable<result<response>> run() {
    auto message = build_message(params_);
    if (!message) co_return std::move(message).err();
    const auto& limits = params_.options.timeouts;
    conn_.tcp().expires_after(limits.first_byte);
    auto [write_ec, written] = co_await bhttp::async_write(stream_, *message, kAwait);
    if (write_ec) {
      state_.stale = true;
      co_return failure("cannot send request to " + host_ + ": " + write_ec.message());
    }
    auto [head_ec, head_bytes] = co_await bhttp::async_read_header(stream_, conn_.buffer(), parser_, kAwait);
    if (head_ec) co_return head_failure(head_ec);

    response head = take_head();
    const bool streamed = params_.on_body != nullptr && head.success();
    if (streamed && params_.on_head != nullptr) {
      if (auto seen = (*params_.on_head)(head); !seen) co_return std::move(seen).err();
    }
    auto body = co_await read_body([&](std::string_view piece) -> result<void> {
      if (streamed) return (*params_.on_body)(piece);
      if (head.body.size() + piece.size() > params_.options.max_body_bytes) {
        return make_error(errc::limit_exceeded, "response body from " + host_ + " exceeds " +
                                                    std::to_string(params_.options.max_body_bytes) + " bytes");
      }
      head.body.append(piece);
      return ok();
    });
    if (!body) co_return std::move(body).err();
    conn_.tcp().expires_never();
    state_.reusable = parser_.is_done() && parser_.keep_alive();
    co_return head;
  }

 private:
  template <class Deliver>
  asio::awaitable<result<void>> read_body(Deliver deliver) {
    const auto& limits = params_.options.timeouts;
    const std::span<char> piece = conn_.body_piece();
    bool got_body = false;
    while (!parser_.is_done()) {
      auto& body = parser_.get().body();
      body.data = piece.data();
      body.size = piece.size();
      // Until the first body bytes the first-byte deadline set before the request still runs.
      if (got_body) conn_.tcp().expires_after(limits.idle);
      auto [ec, n] = co_await bhttp::async_read_some(stream_, conn_.buffer(), parser_, kAwait);
      if (ec == bhttp::error::need_buffer) ec = {};
      // A TLS peer that closes without close_notify ends a close-delimited body all the same.
      if (ec == asio::ssl::error::stream_truncated) parser_.put_eof(ec);
      if (ec) co_return body_failure(ec, got_body);
      const std::size_t got = piece.size() - body.size;
      if (got == 0) continue;
      got_body = true;
      if (guard_.fired()) co_return make_error(errc::cancelled, "request cancelled");
      if (auto delivered = deliver(std::string_view(piece.data(), got)); !delivered) co_return delivered;
    }
    co_return ok();
  }

  response take_head() {
    const auto& message = parser_.get();
    response head;
    head.status = static_cast<int>(message.result_int());
    head.reason = std::string(message.reason());
    for (const auto& field : message) {
      head.headers.push_back({std::string(field.name_string()), std::string(field.value())});
    }
    return head;
  }

  error head_failure(const boost::system::error_code& ec) {
    if (ec == beast::error::timeout) {
      return failure("no response from " + host_ + " within " + ms(params_.options.timeouts.first_byte));
    }
    if (ec == bhttp::error::end_of_stream || ec == asio::error::connection_reset || ec == asio::error::eof) {
      state_.stale = true;
      return failure(host_ + " closed the connection without responding");
    }
    return failure("bad response from " + host_ + ": " + ec.message());
  }

  error body_failure(const boost::system::error_code& ec, bool got_body) {
    if (ec == beast::error::timeout) {
      if (!got_body) {
        return failure("no response from " + host_ + " within " + ms(params_.options.timeouts.first_byte));
      }
      return failure("no data from " + host_ + " for " + ms(params_.options.timeouts.idle));
    }
    if (ec == bhttp::error::partial_message || ec == bhttp::error::end_of_stream || ec == asio::error::eof ||
        ec == asio::error::connection_reset) {
      return failure(host_ + " closed the connection mid-response");
    }
    return failure("error reading response from " + host_ + ": " + ec.message());
  }

  error failure(std::string message) const {
    if (guard_.fired()) return make_error(errc::cancelled, "request cancelled");
    return make_error(errc::provider_error, std::move(message));
  }

  Stream& stream_;
  connection& conn_;
  const exchange_params& params_;
  exchange_state& state_;
  cancel_guard& guard_;
  std::string host_;
  bhttp::response_parser<bhttp::buffer_body> parser_;
};

template <class Stream>
asio::awaitable<result<response>> exchange_on(Stream& stream, connection& conn, const exchange_params& params,
                                              exchange_state& state, cancel_guard& guard) {
  response_reader<Stream> reader(stream, conn, params, state, guard);
  co_return co_await reader.run();
}

}  // namespace

asio::awaitable<result<response>> exchange(connection& conn, const exchange_params& params, exchange_state& state,
                                           cancel_guard& guard) {
  if (conn.is_tls()) co_return co_await exchange_on(conn.tls(), conn, params, state, guard);
  co_return co_await exchange_on(conn.tcp(), conn, params, state, guard);
}

}  // namespace parley::http::detail
