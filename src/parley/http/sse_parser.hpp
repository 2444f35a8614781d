// An incremental parser for Server-Sent Events (the WHATWG event-stream format) as model providers
// and MCP servers (streamable HTTP) stream them: feed byte chunks split anywhere, get complete
// events. Handles LF, CRLF and CR line ends (also split across chunks), comments, "field:value"
// with or without the space, multi-line data and a leading BOM. Lines and events are bounded;
// exceeding a bound is an error, after which the parser refuses further input.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"

namespace parley::http {

struct sse_event {
  std::string event = "message";  // the "event:" field, "message" when the stream named none
  std::string data;               // "data:" lines joined by '\n'
  std::string id;                 // the last "id:" seen so far in the stream (it persists)
  std::optional<long> retry_ms;   // a "retry:" field within this event
};

struct sse_limits {
  std::size_t max_line_bytes = std::size_t{1024} * 1024;
  std::size_t max_event_bytes = std::size_t{8} * 1024 * 1024;
};

class sse_parser {
 public:
  explicit sse_parser(sse_limits limits = {}) : limits_(limits) {}

  // Appends the events completed by `bytes` to `out`. errc::limit_exceeded on an oversize line or
  // event.
  result<void> feed(std::string_view bytes, std::vector<sse_event>& out);
  // End of stream: a last line without a line end still counts, and an event with data that was
  // not followed by a blank line is delivered (servers that omit the final blank line exist).
  result<void> finish(std::vector<sse_event>& out);

 private:
  result<void> take_line(std::string_view line, std::vector<sse_event>& out);
  void dispatch(std::vector<sse_event>& out);
  error fail(std::string message);

  sse_limits limits_;
  std::string partial_;   // an unterminated line carried into the next feed
  bool skip_lf_ = false;  // the last chunk ended in CR: a leading LF belongs to that line end
  bool at_start_ = true;  // a BOM is stripped only at the very start
  bool failed_ = false;
  sse_event pending_;  // fields of the event being read
  bool has_data_ = false;
  std::string last_id_;
};

}  // namespace parley::http
