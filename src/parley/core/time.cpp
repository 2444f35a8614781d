#include "parley/core/time.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace parley {

namespace {

// The black-box tests of time-driven behaviour (response windows) run the real binary with its
// clock moved forward instead of waiting hours: PARLEY_CLOCK_OFFSET_MS is added to every reading.
std::int64_t clock_offset_ms() {
  static const std::int64_t offset = [] {
    const char* text = std::getenv("PARLEY_CLOCK_OFFSET_MS");
    if (text == nullptr) return std::int64_t{0};
    char* end = nullptr;
    const long long parsed = std::strtoll(text, &end, 10);
    return end != text && *end == '\0' ? static_cast<std::int64_t>(parsed) : std::int64_t{0};
  }();
  return offset;
}

}  // namespace

std::int64_t now_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count() + clock_offset_ms();
}

std::string format_iso8601_ms(std::int64_t unix_ms) {
  using namespace std::chrono;
  const sys_time<milliseconds> tp{milliseconds{unix_ms}};
  const auto day = floor<days>(tp);
  const year_month_day ymd{day};
  const hh_mm_ss hms{tp - day};
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02uT%02d:%02d:%02d.%03dZ", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()),
                static_cast<int>(hms.hours().count()), static_cast<int>(hms.minutes().count()),
                static_cast<int>(hms.seconds().count()), static_cast<int>(hms.subseconds().count()));
  return buf;
}

namespace {

// The unsigned decimal of exactly `width` digits at `at`, or nullopt (a sign, a space, too few).
std::optional<int> digits_at(std::string_view text, std::size_t at, std::size_t width) {
  if (text.size() < at + width) return std::nullopt;
  int value = 0;
  for (std::size_t i = at; i < at + width; ++i) {
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
    value = value * 10 + (text[i] - '0');
  }
  return value;
}

error bad_time(std::string_view why) {
  return make_error(
      errc::invalid_argument,
      "expected an RFC 3339 time like 2026-11-22T03:14:15Z or 2026-11-22T11:14:15.5+08:00: " + std::string(why));
}

}  // namespace

result<std::int64_t> read_iso8601_ms(std::string_view text) {
  using namespace std::chrono;
  // YYYY-MM-DDTHH:MM:SS at fixed positions; every other character is a separator.
  constexpr std::size_t kFieldAt[] = {0, 5, 8, 11, 14, 17};
  constexpr std::size_t kFieldWidth[] = {4, 2, 2, 2, 2, 2};
  constexpr const char* kFieldName[] = {"year", "month", "day", "hour", "minute", "second"};
  int field[6] = {};
  for (std::size_t f = 0; f < 6; ++f) {
    const auto value = digits_at(text, kFieldAt[f], kFieldWidth[f]);
    if (!value)
      return bad_time(std::string("the ") + kFieldName[f] + " is not " + std::to_string(kFieldWidth[f]) + " digits");
    field[f] = *value;
  }
  if (text[4] != '-' || text[7] != '-') return bad_time("the date's separators must be '-'");
  if (text[10] != 'T' && text[10] != 't') return bad_time("the date and the time must be joined by 'T'");
  if (text[13] != ':' || text[16] != ':') return bad_time("the time's separators must be ':'");
  const auto [y, mo, d, h, mi, s] = field;
  const year_month_day ymd{year{y}, month{static_cast<unsigned>(mo)}, day{static_cast<unsigned>(d)}};
  if (mo < 1 || mo > 12) return bad_time("month " + std::to_string(mo) + " is out of range");
  if (!ymd.ok()) return bad_time("day " + std::to_string(d) + " is not in that month");
  if (h > 23) return bad_time("hour " + std::to_string(h) + " is out of range");
  if (mi > 59) return bad_time("minute " + std::to_string(mi) + " is out of range");
  if (s > 60 || (s == 60 && mi != 59)) return bad_time("second " + std::to_string(s) + " is out of range");

  std::string_view rest = text.substr(19);
  int ms = 0;
  if (!rest.empty() && rest.front() == '.') {
    std::size_t digits = 1;
    while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9') {
      if (digits <= 3) ms = ms * 10 + (rest[digits] - '0');
      ++digits;
    }
    --digits;  // the '.'
    if (digits == 0 || digits > 9) return bad_time("a fraction of a second has 1 to 9 digits");
    for (std::size_t scale = digits; scale < 3; ++scale) ms *= 10;
    rest.remove_prefix(digits + 1);
  }
  int offset_minutes = 0;
  if (rest == "Z" || rest == "z") {
    // UTC
  } else if (rest.size() == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':') {
    const auto oh = digits_at(rest, 1, 2);
    const auto om = digits_at(rest, 4, 2);
    if (!oh || !om || *oh > 23 || *om > 59) return bad_time("the offset must be ±HH:MM within a day");
    offset_minutes = (rest[0] == '+' ? 1 : -1) * (*oh * 60 + *om);
  } else {
    return bad_time("the time must end with its zone, 'Z' or ±HH:MM, and nothing after it");
  }
  const auto tp = sys_days{ymd} + hours{h} + minutes{mi - offset_minutes} + seconds{s} + milliseconds{ms};
  return duration_cast<milliseconds>(tp.time_since_epoch()).count();
}

std::optional<std::int64_t> parse_iso8601_ms(std::string_view text) {
  auto read = read_iso8601_ms(text);
  if (!read) return std::nullopt;
  return *read;
}

}  // namespace parley
