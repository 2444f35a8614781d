// The REST API under /api/ (docs/server.md): a request in plain data, a JSON response out. Kept
// free of Beast so the handlers are plain C++ over the engine and the store; http_server.cpp
// translates to and from the wire.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/json/value.hpp>

#include <functional>
#include <map>
#include <string>

#include "parley/server/server_context.hpp"

namespace parley::server {

struct rest_request {
  std::string method;  // "GET", "POST", ...
  std::string path;    // as sent (percent-encoded), without the query, e.g. "/api/dialogs/abc": for messages
  std::vector<std::string> segments;  // the path's, each decoded on its own (http/request_target.hpp)
  std::map<std::string, std::string, std::less<>> query;  // decoded; the last of repeated keys wins
  std::string body;
  std::string authorization;    // the Authorization header, empty if absent
  std::string content_type;     // the Content-Type header, empty if absent
  std::string idempotency_key;  // the Idempotency-Key header: a message id when the body has none
  const user* who = nullptr;    // set by the router once the token is checked
};

struct rest_response {
  unsigned status = 200;
  boost::json::value body;
  // `body` already serialized, and `body` then null: a view read off the loop is serialized on the
  // read thread too (store_reads.hpp `read_reply`), so the loop only writes its bytes.
  std::string serialized_body;
  // Set for a response that is not JSON (an upload's bytes): sent as is with this Content-Type.
  std::string raw_content_type;
  std::string raw_body;
  std::string allow;            // 405 only: the methods the path accepts, for the Allow header
  int retry_after_seconds = 0;  // 503 only: the Retry-After header, when above 0
};

// What a 503 of a store that cannot write tells the client to wait before trying again.
inline constexpr int kStoreRetryAfterSeconds = 5;

// Authenticates, routes and answers one request. Never throws; unexpected failures are 500s.
boost::asio::awaitable<rest_response> handle_rest_request(server_context& context, rest_request request);
// The user whose token the Authorization header carries, or nullptr when it carries none of them
// (a server without a token takes everyone as its one user).
const user* authenticate(const server_context& context, std::string_view authorization);
// The 401 for a request whose token is missing or wrong.
rest_response unauthorized_response(const server_context& context);

}  // namespace parley::server
