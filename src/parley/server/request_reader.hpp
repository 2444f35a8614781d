// Requests read at the edge by declarative field specs. A request struct lists its fields once, in
// a static `fields(self, reader)` function — each field's name, JSON type, whether it is required,
// its enum values, range or size limit — and `read_request<T>(body)` walks that list over a JSON
// body: the handler gets a typed T, or the first problem as an `invalid_argument` error whose
// message starts with the field's name ("session_type: expected one of dialogue, self_reflection,
// got 'x'"), which the REST layer answers 400 `bad_field` and the WebSocket layer as an error packet.
//
// Fields the list does not name are refused (what docs/server.md promises for every write route: a
// misspelt field is an error, never silently dropped), or ignored where a route's documentation
// says so. Rules that tie fields together live in the struct's optional `check()`, run after every
// field was read. Strings are checked to be UTF-8 (Boost.JSON's parser already refuses other
// bytes; a body built another way is checked all the same).
#pragma once

#include <boost/json/object.hpp>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/model/events/wire.hpp"

namespace parley::server {

enum class unknown_fields { refuse, ignore };

// The size a string field may have unless its spec says otherwise.
inline constexpr std::size_t kDefaultTextBytes = std::size_t{64} * 1024;

class field_reader {
 public:
  explicit field_reader(const boost::json::object& body) : body_(body) {}

  // A string that must be present and non-empty.
  void required_text(std::string_view name, std::string& out, std::size_t max_bytes = kDefaultTextBytes);
  // Names, ids, titles and paths are one line of visible text: a control character (NUL, a line
  // break, ESC ...) in one is refused, naming the field and the byte. Text fields (a message, a
  // reason, a summary) keep every character, stored as sent and escaped wherever they are shown.
  void required_name(std::string_view name, std::string& out, std::size_t max_bytes = kDefaultTextBytes);
  void name(std::string_view name, std::string& out, std::size_t max_bytes = kDefaultTextBytes);
  void name(std::string_view name, std::optional<std::string>& out, std::size_t max_bytes = kDefaultTextBytes);
  // A string; absent or null leaves `out` empty.
  void text(std::string_view name, std::string& out, std::size_t max_bytes = kDefaultTextBytes);
  // A string whose absence matters (nullopt when absent or null).
  void text(std::string_view name, std::optional<std::string>& out, std::size_t max_bytes = kDefaultTextBytes);
  // The text of a user message: nullopt when absent; a string, else refused as "expected a
  // non-empty string" (whether it may be empty is the caller's rule: beside an attachment it may).
  void message_text(std::string_view name, std::optional<std::string>& out, std::size_t max_bytes);
  // One of `values`. Absent: `fallback`, or refused as required when `fallback` is empty.
  void one_of(std::string_view name, std::string& out, std::span<const std::string_view> values,
              std::string_view fallback = {});
  // One of `values`, nullopt when absent.
  void one_of(std::string_view name, std::optional<std::string>& out, std::span<const std::string_view> values);
  // One of an enum's wire strings (its enum_wire table, or only the values `allowed` when given, in
  // that order), read through the table: the refusals are the string one_of's. Absent: `fallback`,
  // or refused as required without one.
  template <events::wire_enum E>
  void one_of(std::string_view name, E& out, std::optional<E> fallback,
              std::type_identity_t<std::span<const E>> allowed = {}) {
    const auto names = wire_names(allowed);
    std::string given;
    one_of(name, given, names, fallback ? events::to_wire(*fallback) : std::string_view{});
    if (auto value = events::from_wire<E>(given)) out = *value;
  }
  template <events::wire_enum E>
  void one_of(std::string_view name, std::optional<E>& out, std::type_identity_t<std::span<const E>> allowed = {}) {
    const auto names = wire_names(allowed);
    std::optional<std::string> given;
    one_of(name, given, names);
    if (given) out = events::from_wire<E>(*given);
  }
  // A JSON object (free-form, e.g. a client's metadata); absent or null leaves `out` empty.
  void object(std::string_view name, boost::json::object& out);
  void object(std::string_view name, std::optional<boost::json::object>& out);
  // A whole number in [min, max]; absent leaves `out` as it is (its default).
  void integer(std::string_view name, std::int64_t& out, std::int64_t min, std::int64_t max);
  void integer(std::string_view name, std::optional<std::int64_t>& out, std::int64_t min, std::int64_t max);
  // A UTC ISO-8601 time, as milliseconds; nullopt when absent.
  void time(std::string_view name, std::optional<std::int64_t>& out);
  // An array of non-empty names (the rule of `name`), at most `max_items`; absent leaves it empty.
  void text_list(std::string_view name, std::vector<std::string>& out, std::size_t max_items);
  void boolean(std::string_view name, bool& out);

  // The first problem, after the walk; an unknown field outranks the others (a misspelt name is
  // what the client needs to hear about first).
  result<void> finish(unknown_fields unknown) const;

 private:
  template <events::wire_enum E>
  static std::vector<std::string_view> wire_names(std::span<const E> allowed) {
    std::vector<std::string_view> names;
    if (allowed.empty()) {
      for (const auto& [value, wire] : events::enum_wire<E>::values) names.push_back(wire);
    } else {
      for (const E value : allowed) names.push_back(events::to_wire(value));
    }
    return names;
  }
  const boost::json::value* present(std::string_view name);
  void fail(std::string_view name, std::string problem);
  enum class text_rule { any, one_line };
  void required_string(std::string_view name, std::string& out, std::size_t max_bytes, text_rule rule);
  bool string_ok(std::string_view name, const boost::json::value& value, std::size_t max_bytes,
                 text_rule rule = text_rule::any);

  const boost::json::object& body_;
  std::vector<std::string_view> names_;
  std::optional<error> problem_;
};

template <class T>
concept checked_request = requires(const T& request) {
  { request.check() } -> std::same_as<result<void>>;
};

template <class T>
result<T> read_request(const boost::json::object& body, unknown_fields unknown = unknown_fields::refuse) {
  T out{};
  field_reader reader(body);
  T::fields(out, reader);
  if (auto read = reader.finish(unknown); !read) return std::move(read).err();
  if constexpr (checked_request<T>) {
    if (auto checked = out.check(); !checked) return std::move(checked).err();
  }
  return out;
}

// A refusal naming `field` (for `check()` rules).
error field_problem(std::string_view field, std::string_view problem);

}  // namespace parley::server
