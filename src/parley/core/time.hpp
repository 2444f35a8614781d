// UTC wall-clock time in milliseconds and its ISO-8601 text form ("2026-11-22T03:14:15.926Z").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "parley/core/result.hpp"

namespace parley {

std::int64_t now_ms();
std::string format_iso8601_ms(std::int64_t unix_ms);
// RFC 3339 (ISO 8601's profile for the internet), read strictly at fixed positions:
// "YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)", `T` and `Z` in either case. Refused, with what is
// wrong: signs or spaces inside a field, a field out of its range (a day the month lacks, hour 24),
// a fraction of no digit or of more than 9, no zone, anything after it. A leap second (":60",
// minute 59 only) is the next second, as POSIX time counts it.
result<std::int64_t> read_iso8601_ms(std::string_view text);
// read_iso8601_ms without the reason.
std::optional<std::int64_t> parse_iso8601_ms(std::string_view text);

}  // namespace parley
