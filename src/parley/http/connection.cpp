#include "parley/http/detail/connection.hpp"

namespace parley::http::detail {

namespace {
constexpr std::size_t kBodyPiece = 16 * 1024;
}  // namespace

connection::connection(const asio::any_io_executor& executor, std::string pool_key)
    : pool_key_(std::move(pool_key)), executor_(executor), stream_(std::in_place_index<0>, executor) {}

beast::tcp_stream& connection::tcp() noexcept {
  if (auto* plain = std::get_if<beast::tcp_stream>(&stream_)) return *plain;
  return beast::get_lowest_layer(std::get<tls_stream>(stream_));
}

std::span<char> connection::body_piece() {
  if (!body_piece_) body_piece_ = std::make_unique_for_overwrite<char[]>(kBodyPiece);  // NOLINT(*-avoid-c-arrays)
  return {body_piece_.get(), kBodyPiece};
}

result<void> connection::start_tls(asio::ssl::context& context) {
  if (is_tls()) return ok();
  try {
    beast::tcp_stream plain = std::move(std::get<beast::tcp_stream>(stream_));
    stream_.emplace<tls_stream>(std::move(plain), context);
  } catch (const std::exception& e) {  // SSL_new can fail (out of memory); the variant may be empty
    return make_error(errc::provider_error, std::string("cannot start TLS: ") + e.what());
  }
  return ok();
}

void connection::close() noexcept {
  if (stream_.valueless_by_exception()) return;
  boost::system::error_code ignored;
  tcp().socket().close(ignored);
}

bool connection::is_open() const noexcept {
  if (const auto* plain = std::get_if<beast::tcp_stream>(&stream_)) return plain->socket().is_open();
  if (const auto* secure = std::get_if<tls_stream>(&stream_)) return secure->next_layer().socket().is_open();
  return false;
}

}  // namespace parley::http::detail
