// The two users of the multi-user server tests (`--users`), with their tokens.
#pragma once

namespace parley::test {

inline constexpr const char* kAnn = "ann-token-0123456789abcdef";
inline constexpr const char* kBen = "ben-token-0123456789abcdef";

}  // namespace parley::test
