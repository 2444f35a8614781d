// Token checks for HTTP and WebSocket. `parley serve` always has a token (its own per-process one
// when none is given) or users; a server with no token (embedded in a bench) accepts everyone.
// The presented token must match in constant time.
#pragma once

#include <string>
#include <string_view>

namespace parley::server {

// A random 32-hex-digit token from the system's CSPRNG.
std::string generate_token();
// Compares without an early exit, so timing does not reveal a prefix.
bool token_equals(std::string_view expected, std::string_view presented) noexcept;
// `Authorization` header value → token ("Bearer T", case-insensitive scheme); empty if absent/malformed.
std::string_view bearer_token(std::string_view authorization_header) noexcept;
// From a `Sec-WebSocket-Protocol` list such as "parley.v1, parley-token.T" → "T"; empty if none.
std::string_view subprotocol_token(std::string_view protocols_header) noexcept;

}  // namespace parley::server
