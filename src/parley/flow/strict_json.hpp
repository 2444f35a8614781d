// Strict field reads for the flow module's JSON edges (events, YAML-free wire forms): a missing
// or mistyped field is an errc::invalid_argument naming the full path of the field and what was
// wrong, so a bad event or request is refused before anything changes.
#pragma once

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "parley/core/result.hpp"

namespace parley::flow {

class strict_object {
 public:
  // Fails when `value` is not an object.
  static result<strict_object> of(const boost::json::value& value, std::string_view where);
  static strict_object of(const boost::json::object& object, std::string_view where) {
    return strict_object(object, std::string(where));
  }
  // Refused: it would keep a pointer into a temporary.
  static result<strict_object> of(boost::json::value&& value, std::string_view where) = delete;

  result<std::string> string_at(std::string_view key) const;
  result<std::optional<std::string>> optional_string_at(std::string_view key) const;
  result<std::int64_t> int_at(std::string_view key) const;
  result<std::optional<std::int64_t>> optional_int_at(std::string_view key) const;
  result<std::optional<bool>> optional_bool_at(std::string_view key) const;
  result<const boost::json::object*> object_at(std::string_view key) const;           // required
  result<const boost::json::object*> optional_object_at(std::string_view key) const;  // nullptr if absent
  result<const boost::json::array*> array_at(std::string_view key) const;             // required
  result<const boost::json::array*> optional_array_at(std::string_view key) const;    // nullptr if absent
  const boost::json::value* find(std::string_view key) const;

  std::string path_of(std::string_view key) const;
  const std::string& where() const { return where_; }
  const boost::json::object& object() const { return *object_; }

 private:
  strict_object(const boost::json::object& object, std::string where) : object_(&object), where_(std::move(where)) {}
  error mistyped(std::string_view key, std::string_view expected, const boost::json::value& got) const;
  error missing(std::string_view key) const;

  const boost::json::object* object_;
  std::string where_;
};

}  // namespace parley::flow
