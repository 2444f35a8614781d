#include "parley/server/trace_span.hpp"

#include <chrono>

#include "parley/core/fnv1a.hpp"

namespace parley::server {
namespace {

// The bytes of a 64-bit hash, most significant first. Zero is an invalid id in OpenTelemetry: a
// hash that is zero (one input in 2^64) becomes one.
template <std::size_t N>
void put_hash(std::array<std::uint8_t, N>& out, std::size_t at, std::uint64_t hash) {
  if (hash == 0) hash = 1;
  for (std::size_t i = 0; i < 8; ++i) out[at + i] = static_cast<std::uint8_t>(hash >> (56 - 8 * i));
}

std::uint64_t hash_of(std::string_view salt, std::initializer_list<std::string_view> parts) {
  std::uint64_t hash = fnv1a(salt);
  for (const auto part : parts) {
    hash = fnv1a(part, hash);
    hash = fnv1a(std::string_view("\x1f", 1), hash);  // so that ("ab","c") and ("a","bc") differ
  }
  return hash;
}

}  // namespace

trace_id trace_id_of(std::string_view root_id) {
  trace_id out{};
  put_hash(out, 0, hash_of("parley-trace-high", {root_id}));
  put_hash(out, 8, hash_of("parley-trace-low", {root_id}));
  return out;
}

span_id span_id_of(std::string_view kind, std::string_view dialog_id, std::string_view key) {
  span_id out{};
  put_hash(out, 0, hash_of("parley-span", {kind, dialog_id, key}));
  return out;
}

std::uint64_t unix_nanos_now() {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count());
}

}  // namespace parley::server
