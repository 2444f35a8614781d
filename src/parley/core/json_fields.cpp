#include "parley/core/json_fields.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "parley/core/json.hpp"

namespace parley {

namespace {

const char* const kWantString = "a string";
const char* const kWantInteger = "an integer";
const char* const kWantNumber = "a number";
const char* const kWantBoolean = "a boolean";
const char* const kWantObject = "an object";
const char* const kWantArray = "an array";
const char* const kWantAny = "a value";

// A whole number, as JSON Schema's "integer" takes it (so every argument a tool's schema accepted
// reads): one beyond int64's range is clamped to it — such a field has a bound of its own (a line
// count, a maximum) that then refuses it.
std::optional<std::int64_t> json_exact_integer(const json::value& v) {
  if (v.is_int64()) return v.get_int64();
  if (v.is_uint64()) {
    return static_cast<std::int64_t>(
        std::min<std::uint64_t>(v.get_uint64(), static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())));
  }
  if (v.is_double()) {
    const double d = v.get_double();
    if (!std::isfinite(d) || std::trunc(d) != d) return std::nullopt;
    return json_int_from_double(d);
  }
  return std::nullopt;
}

}  // namespace

json_fields::json_fields(const json::object& obj, std::string where) : obj_(&obj), where_(std::move(where)) {}

std::string json_fields::path_of(std::string_view key) const {
  if (where_.empty()) return std::string(key);
  return where_ + "." + std::string(key);
}

void json_fields::fail(std::string_view key, std::string_view problem) {
  if (first_error_) return;
  first_error_ = "field '" + path_of(key) + "': " + std::string(problem);
}

void json_fields::wrong_type(std::string_view key, const char* expected, const json::value& got) {
  fail(key, std::string("expected ") + expected + ", got " + json_kind_with_article(got));
}

const json::value* json_fields::find(std::string_view key, bool required, const char* expected) {
  const auto* found = obj_->if_contains(key);
  if (found != nullptr && found->is_null() && !required) return nullptr;
  if (found == nullptr && required) fail(key, std::string("missing (expected ") + expected + ")");
  return found;
}

std::optional<std::string> json_fields::read_string(std::string_view key, bool required) {
  const auto* v = find(key, required, kWantString);
  if (v == nullptr) return std::nullopt;
  if (!v->is_string()) {
    wrong_type(key, kWantString, *v);
    return std::nullopt;
  }
  return std::string(v->get_string());
}

std::optional<std::int64_t> json_fields::read_integer(std::string_view key, bool required) {
  const auto* v = find(key, required, kWantInteger);
  if (v == nullptr) return std::nullopt;
  auto exact = json_exact_integer(*v);
  if (!exact) wrong_type(key, kWantInteger, *v);  // a fraction reads "got a fractional number"
  return exact;
}

std::optional<double> json_fields::read_number(std::string_view key, bool required) {
  const auto* v = find(key, required, kWantNumber);
  if (v == nullptr) return std::nullopt;
  if (!v->is_number()) {
    wrong_type(key, kWantNumber, *v);
    return std::nullopt;
  }
  return v->to_number<double>();
}

std::optional<bool> json_fields::read_boolean(std::string_view key, bool required) {
  const auto* v = find(key, required, kWantBoolean);
  if (v == nullptr) return std::nullopt;
  if (!v->is_bool()) {
    wrong_type(key, kWantBoolean, *v);
    return std::nullopt;
  }
  return v->get_bool();
}

const json::object* json_fields::read_object(std::string_view key, bool required) {
  const auto* v = find(key, required, kWantObject);
  if (v == nullptr) return nullptr;
  if (!v->is_object()) wrong_type(key, kWantObject, *v);
  return v->if_object();
}

const json::array* json_fields::read_array(std::string_view key, bool required) {
  const auto* v = find(key, required, kWantArray);
  if (v == nullptr) return nullptr;
  if (!v->is_array()) wrong_type(key, kWantArray, *v);
  return v->if_array();
}

std::string json_fields::string(std::string_view key) { return read_string(key, true).value_or(std::string()); }
std::optional<std::string> json_fields::optional_string(std::string_view key) { return read_string(key, false); }
std::int64_t json_fields::integer(std::string_view key) { return read_integer(key, true).value_or(0); }
std::optional<std::int64_t> json_fields::optional_integer(std::string_view key) { return read_integer(key, false); }
double json_fields::number(std::string_view key) { return read_number(key, true).value_or(0.0); }
std::optional<double> json_fields::optional_number(std::string_view key) { return read_number(key, false); }
bool json_fields::boolean(std::string_view key) { return read_boolean(key, true).value_or(false); }
std::optional<bool> json_fields::optional_boolean(std::string_view key) { return read_boolean(key, false); }
const json::object* json_fields::object(std::string_view key) { return read_object(key, true); }
const json::object* json_fields::optional_object(std::string_view key) { return read_object(key, false); }
const json::array* json_fields::array(std::string_view key) { return read_array(key, true); }
const json::array* json_fields::optional_array(std::string_view key) { return read_array(key, false); }

std::vector<std::string> json_fields::strings(std::string_view key) {
  return read_strings(key, true).value_or(std::vector<std::string>{});
}

std::optional<std::vector<std::string>> json_fields::optional_strings(std::string_view key) {
  return read_strings(key, false);
}

std::optional<std::vector<std::string>> json_fields::read_strings(std::string_view key, bool required) {
  const auto* items = read_array(key, required);
  if (items == nullptr) return std::nullopt;
  std::vector<std::string> out;
  out.reserve(items->size());
  for (std::size_t i = 0; i < items->size(); ++i) {
    const auto& item = (*items)[i];
    if (!item.is_string()) {
      fail(std::string(key) + "[" + std::to_string(i) + "]",
           std::string("expected a string, got ") + json_kind_with_article(item));
      return std::nullopt;
    }
    out.emplace_back(item.get_string());
  }
  return out;
}

const json::value* json_fields::value(std::string_view key) { return find(key, true, kWantAny); }

json_fields json_fields::nested(const json::object& obj, std::string_view key) const {
  return json_fields(obj, path_of(key));
}

void json_fields::adopt(const json_fields& other) {
  if (!first_error_ && other.first_error_) first_error_ = other.first_error_;
}

result<void> json_fields::status() const {
  if (first_error_) return make_error(errc::invalid_argument, *first_error_);
  return parley::ok();
}

const std::string& json_fields::message() const {
  static const std::string kNone;
  return first_error_ ? *first_error_ : kNone;
}

}  // namespace parley
