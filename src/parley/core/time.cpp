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

std::optional<std::int64_t> parse_iso8601_ms(std::string_view text) {
  using namespace std::chrono;
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0, ms = 0;
  const std::string copy(text);
  int consumed = 0;
  if (std::sscanf(copy.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%n", &y, &mo, &d, &h, &mi, &s, &consumed) != 6) {
    return std::nullopt;
  }
  std::string_view rest = text.substr(static_cast<std::size_t>(consumed));
  if (!rest.empty() && rest.front() == '.') {
    rest.remove_prefix(1);
    int digits = 0;
    while (!rest.empty() && rest.front() >= '0' && rest.front() <= '9') {
      if (digits < 3) ms = ms * 10 + (rest.front() - '0');
      ++digits;
      rest.remove_prefix(1);
    }
    if (digits == 0) return std::nullopt;
    for (; digits < 3; ++digits) ms *= 10;
  }
  if (rest != "Z") return std::nullopt;
  const year_month_day ymd{year{y}, month{static_cast<unsigned>(mo)}, day{static_cast<unsigned>(d)}};
  if (!ymd.ok() || h > 23 || mi > 59 || s > 60) return std::nullopt;
  const auto tp = sys_days{ymd} + hours{h} + minutes{mi} + seconds{s} + milliseconds{ms};
  return duration_cast<milliseconds>(tp.time_since_epoch()).count();
}

}  // namespace parley
