// Reading what an MCP server answers over streamable HTTP: one response body (a POST's answer, the
// GET stream, or a stream resumed with Last-Event-ID), read as it arrives. Its head decides how:
// `application/json` is one message, `text/event-stream` is events whose data are messages (a
// request's stream ends after its response), a notification's or response's answer (202) is
// nothing. Each message goes to the inbox as soon as it is whole; a message over the limit, a body
// of another type or a broken stream is an error naming the server.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/http/client.hpp"
#include "parley/http/sse_parser.hpp"
#include "parley/tools/mcp/http_inbox.hpp"
#include "parley/tools/mcp/json_rpc.hpp"

namespace parley::tools::mcp {

// "MCP server 'ID': TEXT", how every error of the transport begins.
std::string server_says(std::string_view server, std::string_view text);

// At most a few hundred bytes of a body from outside, on one line: valid UTF-8, every control
// character (newlines and tabs too, C1 as well) shown as a space; "(empty body)" when empty.
std::string body_excerpt(std::string_view body);

// The media type of a Content-Type value, lower case, without parameters: "text/event-stream".
std::string media_type(std::string_view content_type);

// What one body is expected to hold.
enum class answer_kind {
  request_answer,  // a POST of a request: JSON or an event stream, which should carry its response
  accepted_only,   // a POST of a notification or a response: 202, whatever body is ignored
  event_stream,    // the GET stream or a resumed one: events only
};

class http_answer {
 public:
  http_answer(std::string server, std::size_t max_message_bytes, http_inbox& inbox, answer_kind kind,
              std::optional<request_id> awaited);

  // For the head callback: picks how the body is read, or refuses a 2xx of an unexpected type
  // (the excerpt of its body comes in the error that finish() returns).
  result<void> on_head(const http::response& head);
  // For the body callback: delivers every message completed by `piece`.
  result<void> on_body(std::string_view piece);
  // At the end of a 2xx body: the last event, a JSON message; the refusal of a wrong type.
  result<void> finish();
  // A resumed stream continues the events of the same request: a fresh parser, the same request.
  void resume();

  bool answered() const noexcept { return answered_; }          // the awaited response arrived
  bool opened() const noexcept { return mode_ != mode::none; }  // a 2xx head came
  // The body was refused here (too large, of the wrong type, not an event stream), not broken on
  // the wire: reading it again would be refused again.
  bool refused() const noexcept { return refused_; }
  bool is_event_stream() const noexcept { return mode_ == mode::events; }
  const std::string& last_event_id() const noexcept { return last_event_id_; }
  std::optional<std::chrono::milliseconds> retry() const noexcept { return retry_; }
  std::size_t delivered() const noexcept { return delivered_; }  // messages handed to the inbox

 private:
  enum class mode { none, json, events, ignored, wrong_type };

  result<void> read_piece(std::string_view piece);
  result<void> read_end();
  result<void> deliver_events();
  void deliver(std::string message);
  error oversize() const;
  error wrong_type() const;
  http::sse_limits limits() const;

  std::string server_;
  std::size_t max_message_bytes_;
  http_inbox& inbox_;
  answer_kind kind_;
  std::optional<request_id> awaited_;
  mode mode_ = mode::none;
  std::string content_type_;  // as the server sent it, for the wrong-type error
  int status_ = 0;
  std::string body_;  // a JSON body, or the start of a body of the wrong type
  std::optional<http::sse_parser> parser_;
  std::vector<http::sse_event> events_;
  bool answered_ = false;
  std::string last_event_id_;
  std::optional<std::chrono::milliseconds> retry_;
  std::size_t delivered_ = 0;
  bool refused_ = false;
};

}  // namespace parley::tools::mcp
