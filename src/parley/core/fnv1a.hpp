// FNV-1a, 64 bits: a small, stable hash for names and fixed bytes (record ids, the payload
// dictionary's pinned hash). Not for anything an attacker chooses to collide.
#pragma once

#include <cstdint>
#include <string_view>

namespace parley {

inline constexpr std::uint64_t kFnv1aOffsetBasis = 0xcbf29ce484222325ULL;

// `hash` continues an earlier call, so several pieces hash as their concatenation.
constexpr std::uint64_t fnv1a(std::string_view bytes, std::uint64_t hash = kFnv1aOffsetBasis) noexcept {
  for (const char c : bytes) hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  return hash;
}

}  // namespace parley
