#include "parley/core/terminal_text.hpp"

#include <array>

namespace parley {
namespace {

constexpr unsigned char kLeadC2 = 0xC2;

bool passes(unsigned char c) { return c == '\n' || c == '\t' || (c >= 0x20 && c != 0x7F); }

void append_hex(std::string& out, std::string_view prefix, unsigned value, int digits) {
  static constexpr std::array<char, 16> kHex{'0', '1', '2', '3', '4', '5', '6', '7',
                                             '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'};
  out += prefix;
  for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) out += kHex[(value >> shift) & 0xFU];
}

}  // namespace

std::string terminal_escaper::feed(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  std::size_t i = 0;
  if (pending_c2_) {
    pending_c2_ = false;
    if (bytes.empty()) {
      pending_c2_ = true;
      return out;
    }
    const auto next = static_cast<unsigned char>(bytes[0]);
    if (next >= 0x80 && next <= 0x9F) {
      append_hex(out, "\\u", next, 4);
      i = 1;
    } else {
      out += static_cast<char>(kLeadC2);
    }
  }
  for (; i < bytes.size(); ++i) {
    const auto c = static_cast<unsigned char>(bytes[i]);
    if (c == kLeadC2) {
      if (i + 1 == bytes.size()) {
        pending_c2_ = true;
        break;
      }
      const auto next = static_cast<unsigned char>(bytes[i + 1]);
      if (next >= 0x80 && next <= 0x9F) {
        append_hex(out, "\\u", next, 4);
        ++i;
        continue;
      }
      out += static_cast<char>(c);
    } else if (c < 0x80 && !passes(c)) {
      append_hex(out, "\\x", c, 2);
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::string terminal_escaper::finish() {
  if (!pending_c2_) return {};
  pending_c2_ = false;
  return std::string(1, static_cast<char>(kLeadC2));
}

std::string terminal_safe(std::string_view text) {
  terminal_escaper escaper;
  std::string out = escaper.feed(text);
  return out + escaper.finish();
}

}  // namespace parley
