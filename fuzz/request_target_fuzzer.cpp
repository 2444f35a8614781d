// Request targets (http/request_target.hpp), as a client could send them. Invariants:
//  - an accepted target's decoded segments are never empty and hold no control character; no
//    decoded query key or value holds one either;
//  - there are never more decoded segments than the raw path has: a "%2F" that decodes to "/"
//    stays inside its segment and never splits it;
//  - re-encoding the segments and parsing again gives the same segments (decoding is a function
//    of each segment alone).
#include <cstdint>
#include <string>

#include "fuzz_support.hpp"
#include "parley/http/request_target.hpp"

namespace {

std::string percent_encoded(std::string_view segment) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : segment) {
    const auto byte = static_cast<unsigned char>(c);
    const bool plain = (byte >= 'a' && byte <= 'z') || (byte >= 'A' && byte <= 'Z') || (byte >= '0' && byte <= '9') ||
                       byte == '-' || byte == '.' || byte == '_' || byte == '~';
    if (plain) {
      out.push_back(c);
    } else {
      out += {'%', kHex[byte >> 4], kHex[byte & 15]};
    }
  }
  return out;
}

bool has_control(std::string_view text) {
  for (const char c : text) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return true;
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto target = parley::fuzz::as_text(data, size);
  auto parsed = parley::http::parse_request_target(target);
  if (!parsed) {
    FUZZ_CHECK(parsed.err().code == parley::errc::invalid_argument, parsed.err().message);
    return 0;
  }
  std::size_t raw_segments = 0;
  const std::string_view raw_path = parsed->path;
  for (std::size_t i = 0; i < raw_path.size(); ++i) {
    if (raw_path[i] == '/' && i + 1 < raw_path.size() && raw_path[i + 1] != '/') ++raw_segments;
  }
  FUZZ_CHECK(parsed->segments.size() <= raw_segments + 1, std::string(target));
  std::string again = "";
  for (const auto& segment : parsed->segments) {
    FUZZ_CHECK(!segment.empty(), std::string(target));
    FUZZ_CHECK(!has_control(segment), std::string(target));
    again += "/" + percent_encoded(segment);
  }
  for (const auto& [key, value] : parsed->query) {
    FUZZ_CHECK(!has_control(key) && !has_control(value), std::string(target));
  }
  auto reparsed = parley::http::parse_request_target(again.empty() ? "/" : again);
  FUZZ_CHECK(reparsed.has_value(), again);
  FUZZ_CHECK(reparsed->segments == parsed->segments, again);
  return 0;
}
