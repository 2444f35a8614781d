#include "parley/core/ids.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
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

std::string new_dialog_id() {
  static std::atomic<std::uint64_t> last{0};
  constexpr std::uint64_t kEpoch2020Ms = 1577836800000ULL;
  const auto ms = static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                                 std::chrono::system_clock::now().time_since_epoch())
                                                 .count()) -
                  kEpoch2020Ms;
  std::uint64_t candidate = ms << 12;  // 4096 ids per millisecond before the counter borrows ahead
  std::uint64_t previous = last.load();
  while (!last.compare_exchange_weak(previous, std::max(candidate, previous + 1))) {
  }
  candidate = std::max(candidate, previous + 1);
  std::string out;
  append_hex(out, candidate, 13);
  append_hex(out, generator()(), 3);
  return out;
}

}  // namespace parley
