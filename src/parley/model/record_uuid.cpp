#include "parley/model/record_uuid.hpp"

#include <array>
#include <optional>
#include <utility>

#include "parley/core/fnv1a.hpp"

namespace parley {
namespace {

std::uint64_t mix64(std::uint64_t x) noexcept {  // splitmix64's finalizer
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::string format_uuid(std::uint64_t hi, std::uint64_t lo) {
  hi = (hi & ~0xf000ULL) | 0x8000ULL;              // version 8
  lo = (lo & ~(0xc0ULL << 56)) | (0x80ULL << 56);  // variant 10
  static constexpr std::array<char, 16> kHex{'0', '1', '2', '3', '4', '5', '6', '7',
                                             '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'};
  std::string out;
  out.reserve(36);
  auto put = [&](std::uint64_t v, int from_nibble, int count) {
    for (int i = from_nibble; i < from_nibble + count; ++i) out.push_back(kHex[(v >> (60 - 4 * i)) & 0xf]);
  };
  put(hi, 0, 8);
  out.push_back('-');
  put(hi, 8, 4);
  out.push_back('-');
  put(hi, 12, 4);
  out.push_back('-');
  put(lo, 0, 4);
  out.push_back('-');
  put(lo, 4, 12);
  return out;
}

// Two independent 64-bit hashes of "kind:name", each finalized, make the 128 bits.
std::pair<std::uint64_t, std::uint64_t> name_hash(std::string_view kind, std::string_view name) {
  const std::uint64_t seed_a = fnv1a(name, fnv1a(":", fnv1a(kind, kFnv1aOffsetBasis)));
  const std::uint64_t seed_b = fnv1a(name, fnv1a(":", fnv1a(kind, 0x84222325cbf29ce4ULL)));
  return {mix64(seed_a), mix64(seed_b ^ 0x9e3779b97f4a7c15ULL)};
}

// Puts `order` (48 bits) first, so ids made later sort later.
std::uint64_t ordered(std::uint64_t order, std::uint64_t hash_hi) { return (order << 16) | (hash_hi & 0xffffULL); }

// Parley's dialog ids (core/ids.cpp) are 16 hex digits that begin with their creation time.
std::optional<std::uint64_t> time_order_of_dialog_id(std::string_view id) {
  if (id.size() != 16) return std::nullopt;
  std::uint64_t value = 0;
  for (const char c : id.substr(0, 12)) {
    const int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (digit < 0) return std::nullopt;
    value = (value << 4) | static_cast<std::uint64_t>(digit);
  }
  return value;
}

}  // namespace

std::string record_uuid(std::string_view kind, std::string_view name) {
  auto [hi, lo] = name_hash(kind, name);
  return format_uuid(hi, lo);
}

std::string dialogue_uuid(std::string_view dialog_id) {
  auto [hi, lo] = name_hash("dialogue", dialog_id);
  if (const auto order = time_order_of_dialog_id(dialog_id)) hi = ordered(*order, hi);
  return format_uuid(hi, lo);
}

std::string record_uuid(std::string_view kind, std::string_view name, std::int64_t time_ms) {
  auto [hi, lo] = name_hash(kind, name);
  return format_uuid(ordered(static_cast<std::uint64_t>(time_ms) & 0xffffffffffffULL, hi), lo);
}

}  // namespace parley
