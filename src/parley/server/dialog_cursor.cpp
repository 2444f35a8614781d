#include "parley/server/dialog_cursor.hpp"

#include <charconv>

namespace parley::server {
namespace {

// A dialog id is a few dozen bytes; anything longer is not one of ours.
constexpr std::size_t kMaxCursorBytes = 256;

result<root_page_key> refuse(std::string_view text, std::string_view why) {
  const std::string shown(text.substr(0, 64));
  return make_error(errc::invalid_argument,
                    "cursor: " + std::string(why) + " (pass the nextCursor of an earlier page), got '" + shown + "'");
}

}  // namespace

std::string cursor_text(const root_page_key& key) { return std::to_string(key.created_at_ms) + "." + key.id; }

result<root_page_key> parse_cursor(std::string_view text) {
  if (text.size() > kMaxCursorBytes) return refuse(text, "longer than " + std::to_string(kMaxCursorBytes) + " bytes");
  const auto dot = text.find('.');
  if (dot == std::string_view::npos || dot == 0) return refuse(text, "expected <milliseconds>.<dialog id>");
  root_page_key key;
  const auto* first = text.data();
  const auto* last = text.data() + dot;
  const auto [end, error] = std::from_chars(first, last, key.created_at_ms);
  if (error != std::errc{} || end != last || key.created_at_ms < 0) {
    return refuse(text, "expected <milliseconds>.<dialog id>");
  }
  key.id = std::string(text.substr(dot + 1));
  if (key.id.empty()) return refuse(text, "no dialog id after the '.'");
  for (const char c : key.id) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return refuse(text, "a control character in the id");
  }
  return key;
}

}  // namespace parley::server
