#include "parley/flow/strict_json.hpp"

#include "parley/core/json.hpp"

namespace parley::flow {

result<strict_object> strict_object::of(const boost::json::value& value, std::string_view where) {
  if (!value.is_object()) {
    return make_error(errc::invalid_argument,
                      std::string(where) + ": expected an object, got " + json_kind_name(value));
  }
  return strict_object(value.get_object(), std::string(where));
}

std::string strict_object::path_of(std::string_view key) const {
  return where_.empty() ? std::string(key) : where_ + "." + std::string(key);
}

error strict_object::mistyped(std::string_view key, std::string_view expected, const boost::json::value& got) const {
  return make_error(errc::invalid_argument,
                    path_of(key) + ": expected " + std::string(expected) + ", got " + json_kind_name(got));
}

error strict_object::missing(std::string_view key) const {
  return make_error(errc::invalid_argument, path_of(key) + ": missing");
}

const boost::json::value* strict_object::find(std::string_view key) const { return object_->if_contains(key); }

result<std::string> strict_object::string_at(std::string_view key) const {
  const auto* found = find(key);
  if (found == nullptr) return missing(key);
  if (!found->is_string()) return mistyped(key, "a string", *found);
  return std::string(found->get_string());
}

result<std::optional<std::string>> strict_object::optional_string_at(std::string_view key) const {
  const auto* found = find(key);
  if (found == nullptr) return std::optional<std::string>{};
  if (!found->is_string()) return mistyped(key, "a string", *found);
  return std::optional<std::string>(std::string(found->get_string()));
}

result<std::int64_t> strict_object::int_at(std::string_view key) const {
  auto value = optional_int_at(key);
  if (!value) return std::move(value).err();
  if (!value->has_value()) return missing(key);
  return **value;
}

result<std::optional<std::int64_t>> strict_object::optional_int_at(std::string_view key) const {
  const auto* found = find(key);
  if (found == nullptr) return std::optional<std::int64_t>{};
  if (found->is_int64()) return std::optional<std::int64_t>(found->get_int64());
  if (found->is_uint64() && found->get_uint64() <= static_cast<std::uint64_t>(INT64_MAX)) {
    return std::optional<std::int64_t>(static_cast<std::int64_t>(found->get_uint64()));
  }
  return mistyped(key, "an integer", *found);
}

result<std::optional<bool>> strict_object::optional_bool_at(std::string_view key) const {
  const auto* found = find(key);
  if (found == nullptr) return std::optional<bool>{};
  if (!found->is_bool()) return mistyped(key, "a boolean", *found);
  return std::optional<bool>(found->get_bool());
}

result<const boost::json::object*> strict_object::object_at(std::string_view key) const {
  const auto* found = find(key);
  if (found == nullptr) return missing(key);
  if (!found->is_object()) return mistyped(key, "an object", *found);
  return &found->get_object();
}

result<const boost::json::object*> strict_object::optional_object_at(std::string_view key) const {
  const auto* found = find(key);
  if (found == nullptr) return static_cast<const boost::json::object*>(nullptr);
  if (!found->is_object()) return mistyped(key, "an object", *found);
  return &found->get_object();
}

result<const boost::json::array*> strict_object::array_at(std::string_view key) const {
  const auto* found = find(key);
  if (found == nullptr) return missing(key);
  if (!found->is_array()) return mistyped(key, "an array", *found);
  return &found->get_array();
}

result<const boost::json::array*> strict_object::optional_array_at(std::string_view key) const {
  const auto* found = find(key);
  if (found == nullptr) return static_cast<const boost::json::array*>(nullptr);
  if (!found->is_array()) return mistyped(key, "an array", *found);
  return &found->get_array();
}

}  // namespace parley::flow
