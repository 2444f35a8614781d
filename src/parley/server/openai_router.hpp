// The OpenAI-compatible endpoint under /v1/ (docs/server.md, "OpenAI-compatible endpoint"):
// `GET /v1/models`, `GET /v1/models/{model}` and `POST /v1/chat/completions`. Like the REST router
// it is free of Beast: a request in plain data, and a response_sink that http_server.cpp writes to
// the socket — whole, or streamed piece by piece for Server-Sent Events.
#pragma once

#include <boost/asio/awaitable.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "parley/server/server_context.hpp"

namespace parley::server {

struct openai_request {
  std::string method;                 // "GET", "POST", ...
  std::string path;                   // as sent, without the query: for messages
  std::vector<std::string> segments;  // each decoded on its own: {"v1", "chat", "completions"}
  std::string body;
  std::string authorization;             // the Authorization header, empty if absent
  std::string content_type;              // the Content-Type header, empty if absent
  std::optional<std::string> dialog_id;  // the X-Parley-Dialog-Id header: the dialog to go on with
  const user* who = nullptr;             // set by the router once the token is checked
};

using header_list = std::vector<std::pair<std::string, std::string>>;

// Where a response goes. Every call returns false once the client is gone (or too slow to take
// what is written); the caller then stops writing, and the connection is closed.
class response_sink {
 public:
  virtual ~response_sink() = default;
  // A whole JSON response.
  virtual boost::asio::awaitable<bool> send_json(unsigned status, header_list headers, std::string body) = 0;
  // A stream: a 200 `text/event-stream` header, pieces as they come, and its end.
  virtual boost::asio::awaitable<bool> begin_stream(header_list headers) = 0;
  virtual boost::asio::awaitable<bool> stream(std::string piece) = 0;
  virtual boost::asio::awaitable<bool> end_stream() = 0;
};

// The header a request names a dialog to go on with, and the response names the dialog in.
inline constexpr const char* kDialogIdHeader = "X-Parley-Dialog-Id";

// Authenticates, routes and answers one request into `sink`. Never throws out of it: a bug in a
// handler is a 500 when nothing was sent yet.
boost::asio::awaitable<void> handle_openai_request(server_context& context, openai_request request,
                                                   response_sink& sink);

}  // namespace parley::server
