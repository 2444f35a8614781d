// How a dialog row's fields that are not plain text or numbers are kept in a table column, shared
// by the SQLite and PostgreSQL stores so that both read back what either wrote.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/model/events/wire.hpp"
#include "parley/model/records.hpp"

namespace parley {

// A list of ids as one column: user and member ids never contain a comma (users.cpp, team rules).
inline std::string joined_ids(const std::vector<std::string>& ids) {
  std::string out;
  for (const auto& id : ids) {
    if (!out.empty()) out += ',';
    out += id;
  }
  return out;
}

inline std::vector<std::string> split_ids(std::string_view text) {
  std::vector<std::string> out;
  while (!text.empty()) {
    const auto comma = text.find(',');
    out.emplace_back(text.substr(0, comma));
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return out;
}

// A stored enum column, or an error naming the dialog, the column and what it holds.
template <events::wire_enum E>
result<E> stored_enum(const dialog_row& row, std::string_view column, std::string_view text) {
  if (auto value = events::from_wire<E>(text)) return *value;
  std::string known;
  for (const auto& [e, name] : events::enum_wire<E>::values) {
    if (!known.empty()) known += ", ";
    known += name;
  }
  return make_error(errc::corrupt, "dialog " + row.id + ": dialogs." + std::string(column) + " is '" +
                                       std::string(text) + "', not one of " + known);
}

}  // namespace parley
