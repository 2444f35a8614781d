// The one JSON library of the project is Boost.JSON; these helpers read typed fields from objects
// without throwing.
#pragma once

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"

namespace parley {

namespace json = boost::json;

std::string json_string_or(const json::object& obj, std::string_view key, std::string_view fallback = {});
// A number field as an integer: a double is truncated toward zero and clamped to int64's range.
std::int64_t json_int_or(const json::object& obj, std::string_view key, std::int64_t fallback = 0);
std::int64_t json_int_from_double(double value) noexcept;
bool json_bool_or(const json::object& obj, std::string_view key, bool fallback = false);
const json::object* json_object_at(const json::object& obj, std::string_view key);
const json::array* json_array_at(const json::object& obj, std::string_view key);
// The strings of an array field (other elements are skipped); empty when the field is absent.
std::vector<std::string> json_strings_at(const json::object& obj, std::string_view key);

result<json::value> parse_json(std::string_view text);
std::string to_json_text(const json::value& value);
// Human-readable name of a JSON value's type: "string", "number", "object" ...
const char* json_kind_name(const json::value& value);
// The same with its article, for "is a string": "a string", "an integer", "a fractional number" ...
const char* json_kind_with_article(const json::value& value) noexcept;

}  // namespace parley
