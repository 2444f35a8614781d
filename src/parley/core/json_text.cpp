#include "parley/core/json_text.hpp"

#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <array>
#include <cstdint>
#include <cstring>

namespace parley {

namespace {

// 0: copied as is; otherwise the letter after the backslash ('u': \u00XX).
constexpr std::array<char, 256> escape_table() {
  std::array<char, 256> table{};
  for (int c = 0; c < 0x20; ++c) table[static_cast<std::size_t>(c)] = 'u';
  table['\b'] = 'b';
  table['\f'] = 'f';
  table['\n'] = 'n';
  table['\r'] = 'r';
  table['\t'] = 't';
  table['"'] = '"';
  table['\\'] = '\\';
  return table;
}

constexpr std::array<char, 256> kEscape = escape_table();

}  // namespace

namespace {

// Whether any of the eight bytes in `word` must be escaped: below 0x20, '"' or '\\'.
bool needs_escape(std::uint64_t word) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
  constexpr std::uint64_t kHighs = 0x8080808080808080ULL;
  auto has_zero_byte = [](std::uint64_t x) { return ((x - kOnes) & ~x & kHighs) != 0; };
  const bool control = ((word - kOnes * 0x20) & ~word & kHighs) != 0;
  return control || has_zero_byte(word ^ (kOnes * '"')) || has_zero_byte(word ^ (kOnes * '\\'));
}

void append_escaped(std::string& out, char c, char escape) {
  out += '\\';
  out += escape;
  if (escape == 'u') {
    constexpr std::string_view kHex = "0123456789abcdef";
    const auto byte = static_cast<unsigned char>(c);
    out += "00";
    out += kHex[byte >> 4];
    out += kHex[byte & 0x0f];
  }
}

}  // namespace

void append_json_string(std::string& out, std::string_view text) {
  out.reserve(out.size() + text.size() + 2);
  out += '"';
  const char* const begin = text.data();
  const std::size_t size = text.size();
  std::size_t run_start = 0;
  std::size_t i = 0;
  while (i < size) {
    // Eight bytes at a time while none of them needs escaping: most text has nothing to escape.
    if (i + 8 <= size) {
      std::uint64_t word = 0;
      std::memcpy(&word, begin + i, sizeof word);
      if (!needs_escape(word)) {
        i += 8;
        continue;
      }
    }
    const char escape = kEscape[static_cast<unsigned char>(begin[i])];
    if (escape != 0) {
      out.append(begin + run_start, i - run_start);
      append_escaped(out, begin[i], escape);
      run_start = i + 1;
    }
    ++i;
  }
  out.append(begin + run_start, size - run_start);
  out += '"';
}

void json_text_writer::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!first_.empty()) {
    if (!first_.back()) out_ += ',';
    first_.back() = false;
  }
}

json_text_writer& json_text_writer::open(char bracket) {
  before_value();
  out_ += bracket;
  first_.push_back(true);
  return *this;
}

json_text_writer& json_text_writer::close(char bracket) {
  out_ += bracket;
  first_.pop_back();
  return *this;
}

json_text_writer& json_text_writer::begin_object() { return open('{'); }
json_text_writer& json_text_writer::end_object() { return close('}'); }
json_text_writer& json_text_writer::begin_array() { return open('['); }
json_text_writer& json_text_writer::end_array() { return close(']'); }

json_text_writer& json_text_writer::key(std::string_view name) {
  before_value();
  append_json_string(out_, name);
  out_ += ':';
  after_key_ = true;
  return *this;
}

json_text_writer& json_text_writer::string(std::string_view text) {
  before_value();
  append_json_string(out_, text);
  return *this;
}

json_text_writer& json_text_writer::integer(std::int64_t number) {
  before_value();
  out_ += std::to_string(number);
  return *this;
}

json_text_writer& json_text_writer::boolean(bool flag) {
  before_value();
  out_ += flag ? "true" : "false";
  return *this;
}

json_text_writer& json_text_writer::null() {
  before_value();
  out_ += "null";
  return *this;
}

json_text_writer& json_text_writer::raw(std::string_view json) {
  before_value();
  out_ += json;
  return *this;
}

json_text_writer& json_text_writer::value(const boost::json::value& any) { return raw(boost::json::serialize(any)); }

}  // namespace parley
