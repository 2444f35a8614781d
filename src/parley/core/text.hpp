// Small text utilities shared by parsers and messages: edit distance for "did you mean" hints, joining.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parley {

std::size_t edit_distance(std::string_view a, std::string_view b);
// The closest candidate within a small distance, or empty when nothing is close.
std::string closest_match(std::string_view word, const std::vector<std::string>& candidates);
// " (did you mean 'x'?)" or "" — ready to append to an error message.
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);
// The items separated by `separator`.
std::string join(const std::vector<std::string>& items, std::string_view separator);
// The first control character (C0 or DEL) of `text` that `allowed` does not list, described for an
// error: "control character U+001B at byte 3". nullopt when there is none.
std::optional<std::string> first_control_character(std::string_view text, std::string_view allowed = {});
// Equal but for the case of ASCII letters: how HTTP compares header names, schemes and tokens.
bool iequals_ascii(std::string_view a, std::string_view b) noexcept;
// `text` with ASCII letters in lower case and every other byte as it is (UTF-8 untouched), as
// SQLite's lower() folds: so a search in memory and one in the store agree.
std::string ascii_lowercase(std::string_view text);
// `text` without the leading and trailing characters in `chars`; by default ASCII whitespace
// (space, tab, line feed, carriage return, form feed, vertical tab). Formats that say which blanks
// count pass them (HTTP's optional whitespace: " \t").
inline constexpr std::string_view kAsciiWhitespace = " \t\n\r\f\v";
std::string_view trim(std::string_view text, std::string_view chars = kAsciiWhitespace) noexcept;
// A number as a person writes it: "0.25", "10.5", "1e+20", never Boost.JSON's "1E1"; up to 15
// significant digits (what a double holds exactly), and -0 as "0".
std::string format_number(double value);

}  // namespace parley
