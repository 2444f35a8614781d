// The records' ids on disk (schema version 18, docs/store.md "Record ids as 16 bytes"): a UUID in
// its canonical lowercase text (what record_uuid makes) is stored as its 16 bytes; any other id
// (an older or caller-supplied one) is stored as the text it is, so it round-trips unchanged.
// SQLite compares a blob and a text as different values, so each id has exactly one stored form
// and a lookup converts the wanted id the same way before comparing.
#pragma once

#include <sqlite3.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "parley/store/sqlite/sqlite_handle.hpp"

namespace parley::sqlite {

using uuid_bytes = std::array<std::uint8_t, 16>;

// The 16 bytes of `text` when it is a canonical lowercase UUID (8-4-4-4-12 hex digits), else none:
// only a text that record_id_text gives back byte for byte is converted.
std::optional<uuid_bytes> canonical_uuid_bytes(std::string_view text) noexcept;

// The canonical lowercase text of 16 bytes.
std::string uuid_text_of(const uuid_bytes& bytes);

// Binds `id` at `index` as record_id_blob would convert it: its 16 bytes, written into `storage`
// and bound from there, when it is a canonical UUID, else the text itself. Nothing is copied:
// `id` and `storage` must stay as they are until the statement has run. The writer binds so
// rather than calling the SQL function in each statement (3 % more of its instructions) or
// letting SQLite copy the bytes (1 %).
void bind_record_id(statement& stmt, int index, std::string_view id, uuid_bytes& storage);

// Registers, on `db`, the deterministic SQL functions every records statement uses:
//   record_id_blob(x): x's 16 bytes when x is a canonical UUID text, else x unchanged;
//   record_id_text(x): the canonical text of x when x is a 16-byte blob, else x unchanged.
// Called on every connection the store opens (connection::open), the migration's included.
int register_record_id_functions(sqlite3* db) noexcept;

}  // namespace parley::sqlite
