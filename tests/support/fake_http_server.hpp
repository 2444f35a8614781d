// A scriptable HTTP/1.1 server on 127.0.0.1 (ephemeral port, own thread) for testing the HTTP
// client and the model providers against the real wire format. Each request gets the next scripted
// response: a whole body, or a chunked body written piece by piece with optional delays, ending
// normally, by dropping the connection, or never. Requests are recorded as they arrived.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "support/test_certificate.hpp"

namespace parley::testing {

using header_pairs = std::vector<std::pair<std::string, std::string>>;

struct fake_piece {
  std::string bytes;
  std::chrono::milliseconds delay{0};  // waited before the piece is written
};

enum class fake_ending {
  complete,    // terminating chunk; the connection stays open for the next request
  disconnect,  // close the socket without the terminating chunk
  never_end,   // keep the connection open and silent until the client goes away
};

struct fake_response {
  int status = 200;
  header_pairs headers;
  std::string body;                // sent with Content-Length when `pieces` is empty
  std::vector<fake_piece> pieces;  // sent with chunked transfer encoding, one chunk each
  fake_ending ending = fake_ending::complete;
  bool close = false;                       // answer "Connection: close" and close after the response
  bool drop_after = false;                  // close after the response without saying so (a stale keep-alive)
  std::chrono::milliseconds head_delay{0};  // waited before anything is written

  static fake_response json(std::string body, int status = 200);
  // One chunk per string, text/event-stream.
  static fake_response sse(std::vector<std::string> pieces, fake_ending ending = fake_ending::complete);
};

struct received_request {
  std::string method;
  std::string target;
  header_pairs headers;
  std::string body;

  std::string header(std::string_view name) const;  // empty when absent
};

class fake_http_server {
 public:
  // With a certificate the server speaks HTTPS only.
  explicit fake_http_server(std::optional<test_certificate> tls = std::nullopt);
  ~fake_http_server();
  fake_http_server(const fake_http_server&) = delete;
  fake_http_server& operator=(const fake_http_server&) = delete;

  void push(fake_response response);
  // Once the pushed responses are used up, each request is answered by `answer` (on the server's
  // thread): a fake whose answer depends on what was asked, such as an embedder.
  using responder = std::function<fake_response(const received_request&)>;
  void answer_with(responder answer);
  std::uint16_t port() const;
  std::string base_url() const;  // "http://127.0.0.1:PORT" ("https://..." with TLS)
  std::vector<received_request> requests() const;
  std::size_t connections_accepted() const;
  std::string last_server_name() const;  // SNI of the latest TLS handshake, empty without

 private:
  struct state;
  std::unique_ptr<state> state_;
};

}  // namespace parley::testing
