#include "parley/tot/field_reader.hpp"
#include "parley/core/text.hpp"

#include <boost/json/serialize.hpp>

#include <cmath>
#include <cstdio>

namespace parley::tot {
namespace {

// 11, 10.5, 0.25: as a person writes them (Boost.JSON writes 1E1).
}  // namespace

field_reader::field_reader(const json::value& value, std::string path) : path_(std::move(path)) {
  object_ = value.if_object();
  if (object_ == nullptr) fail(path_.empty() ? "message" : path_, "must be an object, got " + describe_kind(value));
}

std::string field_reader::path_of(std::string_view key) const {
  return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

const json::value* field_reader::field(std::string_view key, bool required) {
  if (!ok()) return nullptr;
  read_.emplace(key);
  const json::value* found = object_->if_contains(key);
  if (found != nullptr && found->is_null()) found = nullptr;
  if (found == nullptr && required) fail(path_of(key), "is required");
  return found;
}

void field_reader::text(std::string_view key, std::string& out, bool required, bool non_empty) {
  const json::value* found = field(key, required);
  if (found == nullptr) return;
  if (!found->is_string()) return fail(path_of(key), "must be a string, got " + describe_kind(*found));
  out = std::string(found->get_string());
  if (non_empty && out.empty()) fail(path_of(key), "must not be empty");
}

void field_reader::optional_text(std::string_view key, std::optional<std::string>& out) {
  out.reset();
  std::string value;
  const json::value* found = field(key, false);
  if (found == nullptr) return;
  if (!found->is_string()) return fail(path_of(key), "must be a string or null, got " + describe_kind(*found));
  out = std::string(found->get_string());
}

void field_reader::number(std::string_view key, double& out, double min, double max, bool required) {
  const json::value* found = field(key, required);
  if (found == nullptr) return;
  if (!found->is_number()) return fail(path_of(key), "must be a number, got " + describe_kind(*found));
  const double value = found->to_number<double>();
  if (!std::isfinite(value) || value < min || value > max) {
    return fail(path_of(key), format_number(value) + " is outside " + format_number(min) + "–" + format_number(max));
  }
  out = value;
}

void field_reader::integer(std::string_view key, std::int64_t& out, std::int64_t min, std::int64_t max, bool required) {
  const json::value* found = field(key, required);
  if (found == nullptr) return;
  std::int64_t value = 0;
  if (found->is_int64()) {
    value = found->get_int64();
  } else if (found->is_uint64()) {  // only above int64's range
    return fail(path_of(key),
                json::serialize(*found) + " is outside " + std::to_string(min) + "–" + std::to_string(max));
  } else if (found->is_double() && std::isfinite(found->get_double()) &&
             found->get_double() == std::floor(found->get_double()) && std::fabs(found->get_double()) < 1e15) {
    value = static_cast<std::int64_t>(found->get_double());
  } else {
    return fail(path_of(key), "must be an integer, got " + describe_kind(*found));
  }
  if (value < min || value > max) {
    return fail(path_of(key), std::to_string(value) + " is outside " + std::to_string(min) + "–" + std::to_string(max));
  }
  out = value;
}

void field_reader::boolean(std::string_view key, bool& out, bool required) {
  const json::value* found = field(key, required);
  if (found == nullptr) return;
  if (!found->is_bool()) return fail(path_of(key), "must be true or false, got " + describe_kind(*found));
  out = found->get_bool();
}

void field_reader::texts(std::string_view key, std::vector<std::string>& out, bool required) {
  const json::value* found = field(key, required);
  if (found == nullptr) return;
  const json::array* items = found->if_array();
  if (items == nullptr) return fail(path_of(key), "must be an array of strings, got " + describe_kind(*found));
  out.clear();
  for (std::size_t i = 0; i < items->size(); ++i) {
    const json::value& item = (*items)[i];
    if (!item.is_string()) {
      return fail(path_of(key) + "[" + std::to_string(i) + "]", "must be a string, got " + describe_kind(item));
    }
    out.emplace_back(item.get_string());
  }
}

void field_reader::object(std::string_view key, json::object& out, bool required) {
  const json::value* found = field(key, required);
  if (found == nullptr) return;
  if (!found->is_object()) return fail(path_of(key), "must be an object, got " + describe_kind(*found));
  out = found->get_object();
}

void field_reader::fail(std::string field_path, std::string problem) {
  if (problem_) return;
  problem_ = make_error(errc::invalid_argument, std::move(field_path) + ": " + std::move(problem));
}

void field_reader::adopt(const error& nested) {
  if (!problem_) problem_ = nested;
}

result<void> field_reader::finish() {
  if (problem_) return *problem_;
  for (const auto& item : *object_) {
    if (!read_.contains(std::string_view(item.key()))) {
      fail(path_of(item.key()), "is not a field of this message (unknown fields are refused)");
      return *problem_;
    }
  }
  return parley::ok();
}

std::string describe_kind(const json::value& value) {
  if (value.is_string()) {
    const std::string_view full(value.get_string());
    std::string text(full.substr(0, 40));
    return "the string \"" + text + (value.get_string().size() > 40 ? "…\"" : "\"");
  }
  if (value.is_number()) return "the number " + format_number(value.to_number<double>());
  return json_kind_name(value);
}

}  // namespace parley::tot
