// Strict reads of a JSON object's members at a boundary (tool arguments, REST bodies, packets,
// provider responses). A required member that is absent, or any member that is present with the
// wrong type, is an error naming the field — "field 'path': expected a string, got an integer" —
// never a silent default. An optional member is read as std::optional; the caller writes the
// default the format defines (`.value_or(...)`) where it is used, so the default is visible.
//
// The reader collects the first error and keeps going with empty values, so a decoder reads all
// its fields in a row and checks once:
//   json_fields in(args);
//   const std::string path = in.string("path");
//   const auto occurrence = in.optional_integer("occurrence").value_or(0);
//   if (!in.ok()) return in.status();
// JSON null in an optional member reads as absent: clients commonly write an unset field as null.
#pragma once

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/json.hpp"
#include "parley/core/result.hpp"

namespace parley {

class json_fields {
 public:
  // `where` prefixes each field's name in errors ("arguments" → "field 'arguments.path'"); the object
  // must outlive the reader.
  explicit json_fields(const boost::json::object& obj, std::string where = {});

  std::string string(std::string_view key);
  std::optional<std::string> optional_string(std::string_view key);
  // An integer: int64, uint64 or a double with no fractional part (JSON Schema's "integer" accepts
  // 3.0); a whole number beyond int64's range is clamped to it.
  std::int64_t integer(std::string_view key);
  std::optional<std::int64_t> optional_integer(std::string_view key);
  double number(std::string_view key);
  std::optional<double> optional_number(std::string_view key);
  bool boolean(std::string_view key);
  std::optional<bool> optional_boolean(std::string_view key);
  // Null when absent (required: also records the error).
  const boost::json::object* object(std::string_view key);
  const boost::json::object* optional_object(std::string_view key);
  const boost::json::array* array(std::string_view key);
  const boost::json::array* optional_array(std::string_view key);
  // An array whose every element is a string; an element of another type is an error naming its index.
  std::vector<std::string> strings(std::string_view key);
  std::optional<std::vector<std::string>> optional_strings(std::string_view key);
  // Any value, present (required) or not.
  const boost::json::value* value(std::string_view key);

  // A reader of a member object, its errors prefixed with this one's path; merge them with adopt().
  json_fields nested(const boost::json::object& obj, std::string_view key) const;
  void adopt(const json_fields& other);
  // Records a caller's own error about a field (an out-of-range value, an unknown enumerator).
  void fail(std::string_view key, std::string_view problem);

  bool ok() const noexcept { return !first_error_.has_value(); }
  // invalid_argument with the first error's message.
  result<void> status() const;
  const std::string& message() const;
  // The dotted name of `key` below this reader's path.
  std::string path_of(std::string_view key) const;

 private:
  const boost::json::value* find(std::string_view key, bool required, const char* expected);
  void wrong_type(std::string_view key, const char* expected, const boost::json::value& got);
  std::optional<std::string> read_string(std::string_view key, bool required);
  std::optional<std::int64_t> read_integer(std::string_view key, bool required);
  std::optional<double> read_number(std::string_view key, bool required);
  std::optional<bool> read_boolean(std::string_view key, bool required);
  const boost::json::object* read_object(std::string_view key, bool required);
  const boost::json::array* read_array(std::string_view key, bool required);
  std::optional<std::vector<std::string>> read_strings(std::string_view key, bool required);

  const boost::json::object* obj_;
  std::string where_;
  std::optional<std::string> first_error_;
};

}  // namespace parley
