// RFC 3339 times (core/time.hpp), as REST's since/until and stored files give them. Invariants:
//  - an accepted text has exactly the shape the parser promises: 4-digit year, '-', 2-digit
//    month, '-', 2-digit day, 'T', and so on, digits only where digits go (no sign, no space);
//  - formatting the time it reads and reading that again gives the same instant;
//  - reading never depends on anything after the zone (there is nothing: it is refused).
#include <cstdint>
#include <string>

#include "fuzz_support.hpp"
#include "parley/core/time.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto text = parley::fuzz::as_text(data, size);
  auto read = parley::read_iso8601_ms(text);
  if (!read) {
    FUZZ_CHECK(read.err().code == parley::errc::invalid_argument, read.err().message);
    FUZZ_CHECK(read.err().message.rfind("expected an RFC 3339 time", 0) == 0, read.err().message);
    return 0;
  }
  FUZZ_CHECK(text.size() >= 20, std::string(text));
  for (const std::size_t at : {0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18}) {
    FUZZ_CHECK(text[at] >= '0' && text[at] <= '9', std::string(text));
  }
  const std::string formatted = parley::format_iso8601_ms(*read);
  auto again = parley::read_iso8601_ms(formatted);
  FUZZ_CHECK(again.has_value(), formatted);
  FUZZ_CHECK(*again == *read, std::string(text) + " -> " + formatted);
  return 0;
}
