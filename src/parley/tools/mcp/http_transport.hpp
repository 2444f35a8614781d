// MCP's streamable HTTP transport (revision 2025-11-25, "Transports → Streamable HTTP"), client
// side, over Parley's own HTTP client.
//
// Every message Parley sends is a POST of its JSON to the server's one URL, accepting
// `application/json` and `text/event-stream`. A request is answered by one JSON message or by an
// event stream that may carry the server's notifications and requests before the response; a
// notification or a response is answered 202. The `Mcp-Session-Id` the server gives with its answer
// to `initialize` goes on every later request, and so does `MCP-Protocol-Version` once the session
// has set it. After `notifications/initialized` is accepted a GET opens the stream of what the
// server sends unasked (405: it offers none); when it ends it is opened again. A request's stream
// that breaks or ends before its response, after an event with an id, is resumed by a GET with
// `Last-Event-ID`. close() sends DELETE for the session, best effort, bounded by a short timeout.
//
// send() of a request does not wait for its answer: each request's POST runs as its own coroutine
// on the transport's executor, so a tool call's long stream never holds back the next message;
// send() returns once the coroutine is handed to the executor (POSTs start in the order sent, but
// on separate connections one may overtake another). send() of a notification or a response waits
// for the server to accept it (202, at once), so that it stays ahead of what is sent after it.
// What every answer carries reaches receive() in arrival order. Whatever
// goes wrong on the wire — a status other than 2xx (and 405 on the GET stream), a connection that
// fails, a timeout, a body that is neither JSON nor an event stream, a message over the limit —
// ends the transport: receive() returns the error, naming the server, the status and a one-line
// excerpt of the body. A 404 to a request that carried a session id is errc::not_found: the
// session expired, and the session layer starts a new one on a new transport.
#pragma once

#include <boost/asio/any_io_executor.hpp>

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "parley/core/result.hpp"
#include "parley/http/client.hpp"
#include "parley/tools/mcp/transport.hpp"

namespace parley::tools::mcp {

struct http_transport_options {
  std::string server;  // the server's id, named in every error
  std::string url;     // http:// or https://
  // Sent on every request, as configured for the server (values read from the environment
  // already). Names and values are checked when the transport is made; values never appear in
  // an error.
  http::header_list headers;
  std::string session_id;  // resume this session (Dominds' `sessionId`); empty: the server assigns one
  // connect: reaching the server. first_byte: a POST → its answer's head (a server answering JSON
  // sends it only with the response: keep it no shorter than the session's call timeout). idle:
  // silence within an event stream (an idle GET stream is just opened again).
  http::timeouts timeouts{std::chrono::seconds(10), std::chrono::seconds(120), std::chrono::seconds(120)};
  std::size_t max_message_bytes = kMaxMessageBytes;
  bool listen = true;                              // open the GET stream after `notifications/initialized`
  std::chrono::milliseconds close_timeout{2'000};  // how long close()'s DELETE may take
  // Before a stream is opened again, unless the server said otherwise (`retry:`).
  std::chrono::milliseconds reconnect_delay{1'000};
  std::optional<http::proxy_settings> proxy;  // nullopt: from the environment
  std::string ca_file;                        // an extra trusted CA (PEM)
};

class http_transport final : public transport {
 public:
  // The transport for `options` on `executor` (the session's strand). errc::invalid_argument naming
  // the server and the header when a header's name is not an HTTP token or its value holds a
  // control character, when a header is one the transport sets itself, or when the URL is bad.
  static result<std::unique_ptr<http_transport>> make(boost::asio::any_io_executor executor,
                                                      http_transport_options options);
  ~http_transport() override;
  http_transport(const http_transport&) = delete;
  http_transport& operator=(const http_transport&) = delete;

  // Nothing to start: the first POST (`initialize`) reaches the server, and a failure to reach it
  // comes from receive(). An error only after close().
  boost::asio::awaitable<result<void>> open() override;
  boost::asio::awaitable<result<void>> send(std::string message) override;
  boost::asio::awaitable<result<std::string>> receive() override;
  // Refused (the transport fails, naming the server) when it is not printable ASCII: it came from
  // the server and goes into a header.
  void set_protocol_version(std::string version) override;
  void close() override;

  const std::string& session_id() const;  // what the server assigned, or the one resumed

  struct state;  // shared with the coroutines of the requests in flight

 private:
  explicit http_transport(std::shared_ptr<state> shared);
  std::shared_ptr<state> state_;
};

}  // namespace parley::tools::mcp
