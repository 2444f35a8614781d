#include "parley/store/sqlite/record_id.hpp"

#include <algorithm>

namespace parley::sqlite {
namespace {

constexpr std::array<std::size_t, 4> kDashes{8, 13, 18, 23};
constexpr std::size_t kUuidTextSize = 36;
constexpr std::string_view kHexDigits = "0123456789abcdef";

int lowercase_hex_value(char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;  // an uppercase digit is not canonical: that id is kept as text
}

bool is_dash_position(std::size_t i) noexcept {
  for (std::size_t dash : kDashes) {
    if (i == dash) return true;
  }
  return false;
}

void record_id_blob(sqlite3_context* context, int /*argc*/, sqlite3_value** argv) {
  sqlite3_value* value = argv[0];
  if (sqlite3_value_type(value) == SQLITE_TEXT) {
    const auto* text = reinterpret_cast<const char*>(sqlite3_value_text(value));
    const auto size = static_cast<std::size_t>(sqlite3_value_bytes(value));
    if (auto bytes = canonical_uuid_bytes(std::string_view(text, size))) {
      sqlite3_result_blob(context, bytes->data(), static_cast<int>(bytes->size()), SQLITE_TRANSIENT);
      return;
    }
  }
  sqlite3_result_value(context, value);
}

void record_id_text(sqlite3_context* context, int /*argc*/, sqlite3_value** argv) {
  sqlite3_value* value = argv[0];
  if (sqlite3_value_type(value) == SQLITE_BLOB && sqlite3_value_bytes(value) == 16) {
    uuid_bytes bytes{};
    const auto* data = static_cast<const std::uint8_t*>(sqlite3_value_blob(value));
    std::copy(data, data + bytes.size(), bytes.begin());
    const std::string text = uuid_text_of(bytes);
    sqlite3_result_text(context, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
    return;
  }
  sqlite3_result_value(context, value);
}

}  // namespace

std::optional<uuid_bytes> canonical_uuid_bytes(std::string_view text) noexcept {
  // Where each byte's two digits begin in the text: the writer converts every id it binds, so
  // this is a table walk rather than a loop over characters.
  constexpr std::array<std::size_t, 16> kByteAt{0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34};
  if (text.size() != kUuidTextSize) return std::nullopt;
  for (std::size_t dash : kDashes) {
    if (text[dash] != '-') return std::nullopt;
  }
  uuid_bytes out{};
  for (std::size_t i = 0; i < out.size(); ++i) {
    const int high = lowercase_hex_value(text[kByteAt[i]]);
    const int low = lowercase_hex_value(text[kByteAt[i] + 1]);
    if (high < 0 || low < 0) return std::nullopt;
    out[i] = static_cast<std::uint8_t>((high << 4) | low);
  }
  return out;
}

std::string uuid_text_of(const uuid_bytes& bytes) {
  std::string out;
  out.reserve(kUuidTextSize);
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (is_dash_position(out.size())) out.push_back('-');
    out.push_back(kHexDigits[bytes[i] >> 4]);
    out.push_back(kHexDigits[bytes[i] & 0x0f]);
  }
  return out;
}

void bind_record_id(statement& stmt, int index, std::string_view id, uuid_bytes& storage) {
  if (auto bytes = canonical_uuid_bytes(id)) {
    storage = *bytes;
    stmt.bind_blob(index, std::string_view(reinterpret_cast<const char*>(storage.data()), storage.size()));
    return;
  }
  stmt.bind_text(index, id);
}

int register_record_id_functions(sqlite3* db) noexcept {
  // Deterministic and innocuous: usable in views, indexes and by any statement on the connection.
  constexpr int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
  const int rc =
      sqlite3_create_function_v2(db, "record_id_blob", 1, flags, nullptr, record_id_blob, nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) return rc;
  return sqlite3_create_function_v2(db, "record_id_text", 1, flags, nullptr, record_id_text, nullptr, nullptr, nullptr);
}

}  // namespace parley::sqlite
