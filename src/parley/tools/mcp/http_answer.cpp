#include "parley/tools/mcp/http_answer.hpp"

#include <algorithm>

#include "parley/core/text.hpp"
#include "parley/core/utf8.hpp"

namespace parley::tools::mcp {

namespace {

constexpr std::size_t kExcerptBytes = 300;
// The SSE line around a message's data: "data: " and the line end, with room to spare.
constexpr std::size_t kLineOverhead = 64;

bool is_response_to(std::string_view text, const request_id& id) {
  auto message = parse_message(text);
  if (!message) return false;
  const auto* response = std::get_if<rpc_response>(&*message);
  return response != nullptr && response->id == id;
}

}  // namespace

std::string server_says(std::string_view server, std::string_view text) {
  return "MCP server '" + std::string(server) + "': " + std::string(text);
}

std::string body_excerpt(std::string_view body) {
  if (body.empty()) return "(empty body)";
  const std::string excerpt = utf8_excerpt(body, kExcerptBytes);
  std::string line;
  line.reserve(excerpt.size());
  for (std::size_t at = 0; at < excerpt.size(); ++at) {
    const auto byte = static_cast<unsigned char>(excerpt[at]);
    // C1 controls are U+0080..U+009F, in UTF-8 0xC2 0x80..0x9F.
    const bool c1 = byte == 0xC2 && at + 1 < excerpt.size() && static_cast<unsigned char>(excerpt[at + 1]) >= 0x80 &&
                    static_cast<unsigned char>(excerpt[at + 1]) <= 0x9F;
    if (byte < 0x20 || byte == 0x7F || c1) {
      if (c1) ++at;
      if (!line.empty() && line.back() != ' ') line += ' ';
      continue;
    }
    if (byte == ' ' && !line.empty() && line.back() == ' ') continue;
    line += excerpt[at];
  }
  return std::string(trim(line));
}

std::string media_type(std::string_view content_type) {
  return ascii_lowercase(trim(content_type.substr(0, content_type.find(';'))));
}

http_answer::http_answer(std::string server, std::size_t max_message_bytes, http_inbox& inbox, answer_kind kind,
                         std::optional<request_id> awaited)
    : server_(std::move(server)),
      max_message_bytes_(max_message_bytes),
      inbox_(inbox),
      kind_(kind),
      awaited_(std::move(awaited)) {}

http::sse_limits http_answer::limits() const {
  return http::sse_limits{max_message_bytes_ + kLineOverhead, max_message_bytes_};
}

result<void> http_answer::on_head(const http::response& head) {
  status_ = head.status;
  content_type_ = std::string(head.header("content-type"));
  const std::string type = media_type(content_type_);
  if (kind_ == answer_kind::accepted_only || (kind_ == answer_kind::request_answer && head.status == 202)) {
    mode_ = mode::ignored;
  } else if (type == "text/event-stream") {
    mode_ = mode::events;
    parser_.emplace(limits());
  } else if (type == "application/json" && kind_ == answer_kind::request_answer) {
    mode_ = mode::json;
  } else {
    mode_ = mode::wrong_type;  // the body is read a little, to quote it
  }
  return ok();
}

result<void> http_answer::on_body(std::string_view piece) {
  auto read = read_piece(piece);
  refused_ = refused_ || !read;
  return read;
}

result<void> http_answer::finish() {
  auto read = read_end();
  refused_ = refused_ || !read;
  return read;
}

result<void> http_answer::read_piece(std::string_view piece) {
  switch (mode_) {
    case mode::json:
      if (body_.size() + piece.size() > max_message_bytes_) return oversize();
      body_.append(piece);
      return ok();
    case mode::events:
      if (auto fed = parser_->feed(piece, events_); !fed) {
        if (fed.err().code == errc::limit_exceeded) return oversize();
        return make_error(errc::provider_error, server_says(server_, fed.err().message));
      }
      return deliver_events();
    case mode::wrong_type:
      body_.append(piece.substr(0, std::min(piece.size(), kExcerptBytes - std::min(kExcerptBytes, body_.size()))));
      if (body_.size() >= kExcerptBytes) return wrong_type();  // enough to quote: stop reading
      return ok();
    case mode::none:
    case mode::ignored:
      return ok();
  }
  return ok();
}

result<void> http_answer::read_end() {
  switch (mode_) {
    case mode::json:
      if (body_.empty()) return make_error(errc::provider_error, server_says(server_, "sent an empty JSON answer"));
      if (awaited_ && is_response_to(body_, *awaited_)) answered_ = true;
      deliver(std::move(body_));
      body_.clear();
      return ok();
    case mode::events:
      if (auto fed = parser_->finish(events_); !fed)
        return make_error(errc::provider_error, server_says(server_, fed.err().message));
      return deliver_events();
    case mode::wrong_type:
      return wrong_type();
    case mode::none:
    case mode::ignored:
      return ok();
  }
  return ok();
}

void http_answer::resume() {
  mode_ = mode::none;
  parser_.reset();
  events_.clear();
}

result<void> http_answer::deliver_events() {
  for (auto& event : events_) {
    if (!event.id.empty()) last_event_id_ = event.id;
    if (event.retry_ms) retry_ = std::chrono::milliseconds(*event.retry_ms);
    // Events of other types are not MCP's, and an event without data primes the stream for
    // resumption (it carries only its id).
    if (event.event != "message" || event.data.empty()) continue;
    if (awaited_ && !answered_ && is_response_to(event.data, *awaited_)) answered_ = true;
    deliver(std::move(event.data));
  }
  events_.clear();
  return ok();
}

void http_answer::deliver(std::string message) {
  ++delivered_;
  inbox_.push(std::move(message));
}

error http_answer::oversize() const {
  std::string where = "an event stream";
  if (mode_ == mode::json) where = "a JSON answer";
  return make_error(errc::limit_exceeded,
                    server_says(server_, "sent a message larger than " + std::to_string(max_message_bytes_) +
                                             " bytes (the limit) in " + where));
}

error http_answer::wrong_type() const {
  std::string expected = "text/event-stream";
  if (kind_ == answer_kind::request_answer) expected = "application/json or text/event-stream";
  const std::string type =
      content_type_.empty() ? "no Content-Type" : "Content-Type '" + body_excerpt(content_type_) + "'";
  return make_error(errc::provider_error,
                    server_says(server_, "HTTP " + std::to_string(status_) + " with " + type + " (expected " +
                                             expected + "): " + body_excerpt(body_)));
}

}  // namespace parley::tools::mcp
