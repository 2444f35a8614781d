// A stored vocabulary column of seed 002's records (events/records_enums.hpp), read back through
// its table: a string that maps to none is an error naming the row, the column and what it holds,
// never a silent default. Both records readers (SQLite and PostgreSQL) read their columns so.
#pragma once

#include <string>
#include <string_view>

#include "parley/core/result.hpp"
#include "parley/model/events/wire.hpp"

namespace parley {

template <events::wire_enum E>
result<E> stored_vocab(std::string_view table, std::string_view row_id, std::string_view column,
                       std::string_view text) {
  if (auto value = events::from_wire<E>(text)) return *value;
  std::string known;
  for (const auto& [e, name] : events::enum_wire<E>::values) {
    if (!known.empty()) known += ", ";
    known += name;
  }
  return make_error(errc::corrupt, std::string(table) + " " + std::string(row_id) + ": " + std::string(table) + "." +
                                       std::string(column) + " is '" + std::string(text) + "', not one of " + known);
}

}  // namespace parley
