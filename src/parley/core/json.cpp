#include "parley/core/json.hpp"

#include <boost/json/serialize.hpp>

#include <cmath>
#include <limits>

#include "parley/core/json_read.hpp"

namespace parley {

std::string json_string_or(const json::object& obj, std::string_view key, std::string_view fallback) {
  const auto* found = obj.if_contains(key);
  if (found == nullptr || !found->is_string()) return std::string(fallback);
  return std::string(found->get_string());
}

std::int64_t json_int_or(const json::object& obj, std::string_view key, std::int64_t fallback) {
  const auto* found = obj.if_contains(key);
  if (found == nullptr) return fallback;
  if (found->is_int64()) return found->get_int64();
  if (found->is_uint64()) return static_cast<std::int64_t>(found->get_uint64());
  if (found->is_double()) return json_int_from_double(found->get_double());
  return fallback;
}

std::int64_t json_int_from_double(double value) noexcept {
  // Converting a double outside int64's range (or NaN) is undefined behaviour.
  constexpr double kLimit = 9223372036854775808.0;  // 2^63
  if (std::isnan(value)) return 0;
  if (value >= kLimit) return std::numeric_limits<std::int64_t>::max();
  if (value < -kLimit) return std::numeric_limits<std::int64_t>::min();
  return static_cast<std::int64_t>(value);
}

bool json_bool_or(const json::object& obj, std::string_view key, bool fallback) {
  const auto* found = obj.if_contains(key);
  if (found == nullptr || !found->is_bool()) return fallback;
  return found->get_bool();
}

const json::object* json_object_at(const json::object& obj, std::string_view key) {
  const auto* found = obj.if_contains(key);
  return found != nullptr ? found->if_object() : nullptr;
}

const json::array* json_array_at(const json::object& obj, std::string_view key) {
  const auto* found = obj.if_contains(key);
  return found != nullptr ? found->if_array() : nullptr;
}

std::vector<std::string> json_strings_at(const json::object& obj, std::string_view key) {
  std::vector<std::string> out;
  if (const auto* items = json_array_at(obj, key)) {
    for (const auto& item : *items) {
      if (item.is_string()) out.emplace_back(item.get_string());
    }
  }
  return out;
}

result<json::value> parse_json(std::string_view text) {
  boost::system::error_code ec;
  json::value value = read_json(text, ec);
  if (ec) return make_error(errc::invalid_argument, "invalid JSON: " + ec.message());
  return value;
}

std::string to_json_text(const json::value& value) { return json::serialize(value); }

namespace {

struct json_kind_words {
  const char* bare;
  const char* with_article;
};

json_kind_words json_kind_words_of(const json::value& value) noexcept {
  switch (value.kind()) {
    case json::kind::null:
      return {"null", "null"};
    case json::kind::bool_:
      return {"boolean", "a boolean"};
    case json::kind::int64:
    case json::kind::uint64:
      return {"integer", "an integer"};
    case json::kind::double_:
      return {"number", "a fractional number"};
    case json::kind::string:
      return {"string", "a string"};
    case json::kind::array:
      return {"array", "an array"};
    case json::kind::object:
      return {"object", "an object"};
  }
  return {"unknown", "unknown"};
}

}  // namespace

const char* json_kind_name(const json::value& value) { return json_kind_words_of(value).bare; }

const char* json_kind_with_article(const json::value& value) noexcept { return json_kind_words_of(value).with_article; }

}  // namespace parley
