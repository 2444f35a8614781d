// UTC wall-clock time in milliseconds and its ISO-8601 text form ("2026-11-22T03:14:15.926Z").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace parley {

std::int64_t now_ms();
std::string format_iso8601_ms(std::int64_t unix_ms);
std::optional<std::int64_t> parse_iso8601_ms(std::string_view text);

}  // namespace parley
