// A response_sink (openai_router.hpp) over one HTTP/1.1 connection: a whole response, or a
// stream written with chunked transfer encoding — each piece its own chunk, sent as it comes, so
// a Server-Sent Events client sees text as the model says it, and the connection stays usable for
// the next request once the stream ends. Every write is bounded by a timeout: a client that stops
// reading is taken as gone, never waited for.
#pragma once

#include <boost/beast/core/tcp_stream.hpp>

#include <string>

#include "parley/server/openai_router.hpp"

namespace parley::server {

class http_response_sink final : public response_sink {
 public:
  // `version`: the request's (11 for HTTP/1.1). `keep_alive`: whether the client and the server
  // want the connection kept after this response. `cors_origin`: --cors-origin, empty for none.
  // `exposed`: the response header a page of the CORS origin may read.
  http_response_sink(boost::beast::tcp_stream& stream, unsigned version, bool keep_alive, std::string cors_origin,
                     std::string exposed = kDialogIdHeader);

  boost::asio::awaitable<bool> send_json(unsigned status, header_list headers, std::string body) override;
  boost::asio::awaitable<bool> begin_stream(header_list headers) override;
  boost::asio::awaitable<bool> stream(std::string piece) override;
  boost::asio::awaitable<bool> end_stream() override;

  // Whether anything was written (or tried): a handler that wrote nothing gets a 500.
  bool started() const noexcept { return started_; }
  // Whether the connection can take the next request: the response was written whole.
  bool reusable() const noexcept { return keep_alive_ && finished_ && !failed_; }

 private:
  // Beast's header fields for the response, and the CORS ones.
  template <class Response>
  void add_headers(Response& response, const header_list& headers) const;

  boost::beast::tcp_stream& stream_;
  unsigned version_;
  bool keep_alive_;
  std::string cors_origin_;
  std::string exposed_;
  bool started_ = false;
  bool streaming_ = false;
  bool finished_ = false;
  bool failed_ = false;
};

}  // namespace parley::server
