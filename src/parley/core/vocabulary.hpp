// Closed vocabularies outside the event log (config kinds, wire packet types, API event types ...)
// as enums whose strings live in one table each, read where the string crosses the edge (a config
// file, a wire packet, a model's stream): everything past that edge compares enum values. The
// event log's own vocabularies use events::enum_wire (model/events/wire.hpp), tables of the same
// shape read by the same two lookups.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace parley {

// One vocabulary's table: every enumerator that has a name, with it.
template <class E, std::size_t N>
using name_table = std::array<std::pair<E, std::string_view>, N>;

// For a vocabulary private to one file (a table in its anonymous namespace): the value `text`
// names, or nullopt.
template <class E, std::size_t N>
constexpr std::optional<E> lookup_name(const name_table<E, N>& table, std::string_view text) noexcept {
  for (const auto& [e, name] : table) {
    if (name == text) return e;
  }
  return std::nullopt;
}

// ... and the name of `value`; empty for an enumerator the table leaves out.
template <class E, std::size_t N>
constexpr std::string_view name_in(const name_table<E, N>& table, E value) noexcept {
  for (const auto& [e, name] : table) {
    if (e == value) return name;
  }
  return {};
}

// Specialized beside each enum that more than one file names: `static constexpr name_table<E, N>
// values`, every enumerator that has a name with it, in the order error messages list them.
template <class E>
struct vocabulary;

template <class E>
concept vocabulary_enum = std::is_enum_v<E> && requires {
  vocabulary<E>::values;
};

// The name of a value; empty for an enumerator the table leaves out (e.g. a "none").
template <vocabulary_enum E>
constexpr std::string_view to_name(E value) noexcept {
  return name_in(vocabulary<E>::values, value);
}

// The value a name stands for; nullopt for a name outside the vocabulary (the caller's error).
template <vocabulary_enum E>
constexpr std::optional<E> from_name(std::string_view text) noexcept {
  return lookup_name(vocabulary<E>::values, text);
}

// Every name, in table order: what an error message lists as expected.
template <vocabulary_enum E>
std::vector<std::string> all_names() {
  std::vector<std::string> names;
  names.reserve(vocabulary<E>::values.size());
  for (const auto& entry : vocabulary<E>::values) names.emplace_back(entry.second);
  return names;
}

}  // namespace parley
