#include "parley/core/ids.hpp"

#include <array>
#include <cstdint>
#include <random>

namespace parley {
namespace {

std::mt19937_64& generator() {
  thread_local std::mt19937_64 gen{[] {
    std::random_device device;
    return (static_cast<std::uint64_t>(device()) << 32) ^ device();
  }()};
  return gen;
}

void append_hex(std::string& out, std::uint64_t bits, int digits) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (int i = digits - 1; i >= 0; --i) out.push_back(kHex[(bits >> (i * 4)) & 0xF]);
}

}  // namespace

std::string new_uuid() {
  std::uint64_t hi = generator()();
  std::uint64_t lo = generator()();
  hi = (hi & 0xFFFFFFFFFFFF0FFFULL) | 0x0000000000004000ULL;  // version 4
  lo = (lo & 0x3FFFFFFFFFFFFFFFULL) | 0x8000000000000000ULL;  // RFC 4122 variant
  std::string out;
  out.reserve(36);
  append_hex(out, hi >> 32, 8);
  out.push_back('-');
  append_hex(out, (hi >> 16) & 0xFFFF, 4);
  out.push_back('-');
  append_hex(out, hi & 0xFFFF, 4);
  out.push_back('-');
  append_hex(out, lo >> 48, 4);
  out.push_back('-');
  append_hex(out, lo & 0xFFFFFFFFFFFFULL, 12);
  return out;
}

std::string new_short_id() {
  std::string out;
  append_hex(out, generator()(), 12);
  return out;
}

}  // namespace parley
