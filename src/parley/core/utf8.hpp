// UTF-8 checks for bytes that come from outside (arguments, files, file names, command output).
// Everything Parley stores or sends is JSON text, and a JSON parser refuses invalid UTF-8, so bytes
// that are not UTF-8 are either refused where they enter or replaced there, visibly.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace parley {

// The offset of the first byte that does not start a well-formed UTF-8 sequence (RFC 3629: no
// overlong forms, no surrogates, nothing above U+10FFFF), or nullopt when all of `text` is valid.
std::optional<std::size_t> first_invalid_utf8(std::string_view text) noexcept;
inline bool is_valid_utf8(std::string_view text) noexcept { return !first_invalid_utf8(text); }

struct utf8_repair {
  std::string text;
  std::size_t replaced = 0;  // ill-formed sequences, each now one U+FFFD
};

// `text` with every ill-formed sequence replaced by U+FFFD, one per maximal ill-formed subpart
// (the Unicode standard's recommended practice, as browsers decode).
utf8_repair repair_utf8(std::string_view text);

// Text from outside quoted in a message that may be logged or sent: at most about `max_bytes` of
// `text`, cut on a character boundary and marked "..." when cut, ill-formed sequences shown as
// U+FFFD. Always valid UTF-8.
std::string utf8_excerpt(std::string_view text, std::size_t max_bytes);

// "byte 0xff at offset 3 is not valid UTF-8" for error messages; `offset` from first_invalid_utf8.
std::string describe_invalid_utf8(std::string_view text, std::size_t offset);

// Where `offset` falls in `text`, both counted from 0: lines by '\n', columns by characters.
struct text_position {
  std::size_t line = 0;
  std::size_t column = 0;
};
text_position position_of(std::string_view text, std::size_t offset) noexcept;

}  // namespace parley
