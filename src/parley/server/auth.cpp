#include "parley/server/auth.hpp"

#include <sys/random.h>

#include <array>
#include <cctype>
#include <cstddef>
#include <cstdint>

#include "parley/core/text.hpp"

namespace parley::server {

namespace {}  // namespace

std::string generate_token() {
  std::array<std::uint8_t, 16> bytes{};
  std::size_t filled = 0;
  while (filled < bytes.size()) {
    // getrandom() reads the kernel CSPRNG; it only returns short for signals, so loop.
    const auto got = ::getrandom(bytes.data() + filled, bytes.size() - filled, 0);
    if (got > 0) filled += static_cast<std::size_t>(got);
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string token;
  token.reserve(bytes.size() * 2);
  for (const auto byte : bytes) {
    token.push_back(kHex[byte >> 4]);
    token.push_back(kHex[byte & 0x0f]);
  }
  return token;
}

bool token_equals(std::string_view expected, std::string_view presented) noexcept {
  // The length of the expected token is not secret (it is always 32 hex digits when generated);
  // the loop still runs over the whole expected token so the position of a mismatch is hidden.
  unsigned difference = expected.size() == presented.size() ? 0U : 1U;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const char other = i < presented.size() ? presented[i] : '\0';
    difference |= static_cast<unsigned>(static_cast<unsigned char>(expected[i]) ^ static_cast<unsigned char>(other));
  }
  return difference == 0 && !expected.empty();
}

std::string_view bearer_token(std::string_view authorization_header) noexcept {
  const auto header = trim(authorization_header, " \t");
  constexpr std::string_view kScheme = "bearer";
  if (header.size() <= kScheme.size() || !iequals_ascii(header.substr(0, kScheme.size()), kScheme)) return {};
  if (header[kScheme.size()] != ' ' && header[kScheme.size()] != '\t') return {};
  return trim(header.substr(kScheme.size()), " \t");
}

std::string_view subprotocol_token(std::string_view protocols_header) noexcept {
  constexpr std::string_view kPrefix = "parley-token.";
  while (!protocols_header.empty()) {
    const auto comma = protocols_header.find(',');
    const auto item = trim(protocols_header.substr(0, comma), " \t");
    if (item.size() > kPrefix.size() && item.substr(0, kPrefix.size()) == kPrefix) return item.substr(kPrefix.size());
    if (comma == std::string_view::npos) break;
    protocols_header.remove_prefix(comma + 1);
  }
  return {};
}

}  // namespace parley::server
