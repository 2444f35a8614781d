#include "parley/core/utf8.hpp"

#include <cstdio>

namespace parley {
namespace {

// The length of the well-formed sequence at `at`, or 0 when none starts there; `valid_prefix` is
// then how many bytes form the longest prefix of some well-formed sequence (at least 1), which is
// what one U+FFFD replaces.
std::size_t sequence_length(std::string_view text, std::size_t at, std::size_t& valid_prefix) noexcept {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(at);
  valid_prefix = 1;
  if (lead < 0x80) return 1;
  std::size_t need = 0;
  unsigned char low = 0x80;
  unsigned char high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    need = 1;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    need = 2;
    if (lead == 0xE0) low = 0xA0;   // no overlong three-byte forms
    if (lead == 0xED) high = 0x9F;  // no surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    need = 3;
    if (lead == 0xF0) low = 0x90;   // no overlong four-byte forms
    if (lead == 0xF4) high = 0x8F;  // nothing above U+10FFFF
  } else {
    return 0;
  }
  for (std::size_t k = 1; k <= need; ++k) {
    if (at + k >= text.size()) return 0;
    const unsigned char next = byte(at + k);
    const unsigned char lo = k == 1 ? low : 0x80;
    const unsigned char hi = k == 1 ? high : 0xBF;
    if (next < lo || next > hi) return 0;
    valid_prefix = k + 1;
  }
  return need + 1;
}

}  // namespace

std::optional<std::size_t> first_invalid_utf8(std::string_view text) noexcept {
  std::size_t at = 0;
  while (at < text.size()) {
    // ASCII runs are the common case: skip them eight bytes at a time would need alignment care;
    // a byte loop is already far cheaper than the JSON work around every caller.
    if (static_cast<unsigned char>(text[at]) < 0x80) {
      ++at;
      continue;
    }
    std::size_t prefix = 0;
    const std::size_t length = sequence_length(text, at, prefix);
    if (length == 0) return at;
    at += length;
  }
  return std::nullopt;
}

utf8_repair repair_utf8(std::string_view text) {
  utf8_repair out;
  out.text.reserve(text.size());
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t prefix = 0;
    const std::size_t length = sequence_length(text, at, prefix);
    if (length > 0) {
      out.text.append(text.substr(at, length));
      at += length;
      continue;
    }
    out.text.append("\xEF\xBF\xBD");
    ++out.replaced;
    at += prefix;
  }
  return out;
}

std::string utf8_excerpt(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return repair_utf8(text).text;
  // A character that straddles the limit is left out rather than cut (continuation bytes are
  // 10xxxxxx; a well-formed character has at most three).
  std::size_t end = max_bytes;
  for (int back = 0; back < 3 && end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0U) == 0x80U; ++back) --end;
  return repair_utf8(text.substr(0, end)).text + "...";
}

std::string describe_invalid_utf8(std::string_view text, std::size_t offset) {
  char hex[8];
  std::snprintf(hex, sizeof hex, "0x%02x", offset < text.size() ? static_cast<unsigned char>(text[offset]) : 0U);
  return "byte " + std::string(hex) + " at offset " + std::to_string(offset) + " is not valid UTF-8";
}

text_position position_of(std::string_view text, std::size_t offset) noexcept {
  text_position at;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++at.line;
      at.column = 0;
    } else if ((static_cast<unsigned char>(text[i]) & 0xC0U) != 0x80U) {
      ++at.column;
    }
  }
  return at;
}

}  // namespace parley
