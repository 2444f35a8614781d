#include "parley/http/sse_parser.hpp"

#include <charconv>
#include <cstring>

namespace parley::http {

namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";

// Position of the first CR or LF, or npos. memchr twice beats a byte loop on long data lines.
std::size_t find_line_end(std::string_view text) {
  const void* lf = std::memchr(text.data(), '\n', text.size());
  const std::size_t lf_at = lf != nullptr ? static_cast<const char*>(lf) - text.data() : std::string_view::npos;
  const std::size_t scan = lf_at == std::string_view::npos ? text.size() : lf_at;
  const void* cr = std::memchr(text.data(), '\r', scan);
  return cr != nullptr ? static_cast<std::size_t>(static_cast<const char*>(cr) - text.data()) : lf_at;
}

}  // namespace

error sse_parser::fail(std::string message) {
  failed_ = true;
  return make_error(errc::limit_exceeded, std::move(message));
}

result<void> sse_parser::feed(std::string_view bytes, std::vector<sse_event>& out) {
  if (failed_) return make_error(errc::invalid_argument, "SSE parser used after an error");
  if (skip_lf_ && !bytes.empty()) {
    if (bytes.front() == '\n') bytes.remove_prefix(1);
    skip_lf_ = false;
  }
  while (!bytes.empty()) {
    const std::size_t end = find_line_end(bytes);
    if (end == std::string_view::npos) {
      if (partial_.size() + bytes.size() > limits_.max_line_bytes) {
        return fail("SSE line longer than " + std::to_string(limits_.max_line_bytes) + " bytes");
      }
      partial_.append(bytes);
      return ok();
    }
    const std::string_view piece = bytes.substr(0, end);
    const bool cr = bytes[end] == '\r';
    bytes.remove_prefix(end + 1);
    if (cr) {
      if (bytes.empty()) {
        skip_lf_ = true;
      } else if (bytes.front() == '\n') {
        bytes.remove_prefix(1);
      }
    }
    if (partial_.empty()) {
      if (auto taken = take_line(piece, out); !taken) return taken;
    } else {
      if (partial_.size() + piece.size() > limits_.max_line_bytes) {
        return fail("SSE line longer than " + std::to_string(limits_.max_line_bytes) + " bytes");
      }
      partial_.append(piece);
      const std::string line = std::move(partial_);
      partial_.clear();
      if (auto taken = take_line(line, out); !taken) return taken;
    }
  }
  return ok();
}

result<void> sse_parser::finish(std::vector<sse_event>& out) {
  if (failed_) return make_error(errc::invalid_argument, "SSE parser used after an error");
  if (!partial_.empty()) {
    const std::string line = std::move(partial_);
    partial_.clear();
    if (auto taken = take_line(line, out); !taken) return taken;
  }
  dispatch(out);
  return ok();
}

result<void> sse_parser::take_line(std::string_view line, std::vector<sse_event>& out) {
  if (at_start_) {
    at_start_ = false;
    if (line.substr(0, kBom.size()) == kBom) line.remove_prefix(kBom.size());
  }
  if (line.size() > limits_.max_line_bytes) {
    return fail("SSE line longer than " + std::to_string(limits_.max_line_bytes) + " bytes");
  }
  if (line.empty()) {
    dispatch(out);
    return ok();
  }
  if (line.front() == ':') return ok();  // a comment, often a keep-alive

  const std::size_t colon = line.find(':');
  const std::string_view field = line.substr(0, colon);
  std::string_view value = colon == std::string_view::npos ? std::string_view{} : line.substr(colon + 1);
  if (!value.empty() && value.front() == ' ') value.remove_prefix(1);

  if (field == "data") {
    if (pending_.data.size() + value.size() + 1 > limits_.max_event_bytes) {
      return fail("SSE event larger than " + std::to_string(limits_.max_event_bytes) + " bytes");
    }
    if (has_data_) pending_.data += '\n';
    pending_.data.append(value);
    has_data_ = true;
  } else if (field == "event") {
    pending_.event.assign(value);
  } else if (field == "id") {
    if (value.find('\0') == std::string_view::npos) last_id_.assign(value);
  } else if (field == "retry") {
    long retry = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), retry);
    if (ec == std::errc{} && end == value.data() + value.size() && retry >= 0) pending_.retry_ms = retry;
  }
  // Other fields are ignored, as the format requires.
  return ok();
}

void sse_parser::dispatch(std::vector<sse_event>& out) {
  if (has_data_) {
    pending_.id = last_id_;
    if (pending_.event.empty()) pending_.event = "message";
    out.push_back(std::move(pending_));
  }
  pending_ = sse_event{};
  has_data_ = false;
}

}  // namespace parley::http
