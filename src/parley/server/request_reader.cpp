#include "parley/server/request_reader.hpp"

#include <boost/json/serialize.hpp>

#include <algorithm>
#include <limits>

#include "parley/core/json.hpp"
#include "parley/core/text.hpp"
#include "parley/core/time.hpp"
#include "parley/core/utf8.hpp"

namespace parley::server {
namespace {

std::string listed(std::span<const std::string_view> values) {
  std::string out;
  for (const auto value : values) {
    if (!out.empty()) out += ", ";
    out.append(value);
  }
  return out;
}

std::string range_text(std::int64_t min, std::int64_t max) {
  if (min == 0 && max == std::numeric_limits<std::int64_t>::max()) return "a non-negative integer";
  return "an integer " + std::to_string(min) + ".." + std::to_string(max);
}

}  // namespace

error field_problem(std::string_view field, std::string_view problem) {
  return make_error(errc::invalid_argument, std::string(field) + ": " + std::string(problem));
}

const boost::json::value* field_reader::present(std::string_view name) {
  names_.push_back(name);
  if (problem_) return nullptr;
  const auto* value = body_.if_contains(name);
  return value == nullptr || value->is_null() ? nullptr : value;
}

void field_reader::fail(std::string_view name, std::string problem) {
  if (!problem_) problem_ = field_problem(name, problem);
}

bool field_reader::string_ok(std::string_view name, const boost::json::value& value, std::size_t max_bytes,
                             text_rule rule) {
  if (!value.is_string()) {
    fail(name, std::string("expected a string, got ") + json_kind_name(value));
    return false;
  }
  const std::string_view text = value.get_string();
  if (auto bad = first_invalid_utf8(text)) {
    fail(name, describe_invalid_utf8(text, *bad));
    return false;
  }
  if (text.size() > max_bytes) {
    fail(name, std::to_string(text.size()) + " bytes, over the limit of " + std::to_string(max_bytes));
    return false;
  }
  if (rule == text_rule::one_line) {
    if (const auto bad = first_control_character(text)) {
      fail(name, *bad + ": a name, id or title is one line of visible text");
      return false;
    }
  }
  return true;
}

void field_reader::required_name(std::string_view name, std::string& out, std::size_t max_bytes) {
  required_string(name, out, max_bytes, text_rule::one_line);
}

void field_reader::name(std::string_view name, std::string& out, std::size_t max_bytes) {
  const auto* value = present(name);
  if (value != nullptr && string_ok(name, *value, max_bytes, text_rule::one_line)) out.assign(value->get_string());
}

void field_reader::name(std::string_view name, std::optional<std::string>& out, std::size_t max_bytes) {
  const auto* value = present(name);
  if (value != nullptr && string_ok(name, *value, max_bytes, text_rule::one_line)) out.emplace(value->get_string());
}

void field_reader::required_text(std::string_view name, std::string& out, std::size_t max_bytes) {
  required_string(name, out, max_bytes, text_rule::any);
}

void field_reader::required_string(std::string_view name, std::string& out, std::size_t max_bytes, text_rule rule) {
  const auto* value = present(name);
  if (problem_) return;
  if (value == nullptr) return fail(name, "required, a non-empty string");
  if (!value->is_string() || value->get_string().empty()) {
    return fail(name, std::string("expected a non-empty string") +
                          (value->is_string() ? "" : std::string(", got ") + json_kind_name(*value)));
  }
  if (string_ok(name, *value, max_bytes, rule)) out.assign(value->get_string());
}

void field_reader::text(std::string_view name, std::string& out, std::size_t max_bytes) {
  const auto* value = present(name);
  if (value != nullptr && string_ok(name, *value, max_bytes)) out.assign(value->get_string());
}

void field_reader::text(std::string_view name, std::optional<std::string>& out, std::size_t max_bytes) {
  const auto* value = present(name);
  if (value != nullptr && string_ok(name, *value, max_bytes)) out.emplace(value->get_string());
}

void field_reader::message_text(std::string_view name, std::optional<std::string>& out, std::size_t max_bytes) {
  const auto* value = present(name);
  if (value == nullptr) return;
  if (!value->is_string()) {
    return fail(name, std::string("expected a non-empty string, got ") + json_kind_name(*value));
  }
  if (string_ok(name, *value, max_bytes)) out.emplace(value->get_string());
}

void field_reader::one_of(std::string_view name, std::string& out, std::span<const std::string_view> values,
                          std::string_view fallback) {
  std::optional<std::string> given;
  one_of(name, given, values);
  if (problem_) return;
  if (given) {
    out = std::move(*given);
  } else if (fallback.empty()) {
    fail(name, "required, one of " + listed(values));
  } else {
    out = std::string(fallback);
  }
}

void field_reader::one_of(std::string_view name, std::optional<std::string>& out,
                          std::span<const std::string_view> values) {
  const auto* value = present(name);
  if (value == nullptr || !string_ok(name, *value, kDefaultTextBytes)) return;
  const std::string_view text = value->get_string();
  if (text.empty()) return;  // "" reads as absent, as the hand-written checks did
  if (std::find(values.begin(), values.end(), text) == values.end()) {
    return fail(name, "expected one of " + listed(values) + ", got '" + utf8_excerpt(text, 64) + "'");
  }
  out.emplace(text);
}

void field_reader::object(std::string_view name, boost::json::object& out) {
  const auto* value = present(name);
  if (value == nullptr) return;
  if (!value->is_object()) return fail(name, std::string("expected an object, got ") + json_kind_name(*value));
  out = value->get_object();
}

void field_reader::object(std::string_view name, std::optional<boost::json::object>& out) {
  const auto* value = present(name);
  if (value == nullptr) return;
  if (!value->is_object()) return fail(name, std::string("expected an object, got ") + json_kind_name(*value));
  out = value->get_object();
}

void field_reader::integer(std::string_view name, std::int64_t& out, std::int64_t min, std::int64_t max) {
  std::optional<std::int64_t> given;
  integer(name, given, min, max);
  if (given) out = *given;
}

void field_reader::integer(std::string_view name, std::optional<std::int64_t>& out, std::int64_t min,
                           std::int64_t max) {
  const auto* value = present(name);
  if (value == nullptr) return;
  std::optional<std::int64_t> whole;
  if (value->is_int64()) whole = value->get_int64();
  if (value->is_uint64() && value->get_uint64() <= static_cast<std::uint64_t>(max)) {
    whole = static_cast<std::int64_t>(value->get_uint64());
  }
  if (!whole || *whole < min || *whole > max) {
    return fail(name, "expected " + range_text(min, max) + ", got " + boost::json::serialize(*value));
  }
  out = whole;
}

void field_reader::time(std::string_view name, std::optional<std::int64_t>& out) {
  const auto* value = present(name);
  if (value == nullptr) return;
  if (!value->is_string()) return fail(name, "expected an RFC 3339 time like 2026-11-22T03:14:15Z");
  const auto ms = read_iso8601_ms(value->get_string());
  if (!ms) return fail(name, ms.err().message);
  out = *ms;
}

void field_reader::text_list(std::string_view name, std::vector<std::string>& out, std::size_t max_items) {
  const auto* value = present(name);
  if (value == nullptr) return;
  if (!value->is_array()) return fail(name, std::string("expected an array of strings, got ") + json_kind_name(*value));
  const auto& items = value->get_array();
  if (items.size() > max_items) {
    return fail(name, std::to_string(items.size()) + " items, over the limit of " + std::to_string(max_items));
  }
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string where = std::string(name) + "[" + std::to_string(i) + "]";
    if (!items[i].is_string() || items[i].get_string().empty()) {
      return fail(where, std::string("expected a non-empty string, got ") + json_kind_name(items[i]));
    }
    if (!string_ok(where, items[i], kDefaultTextBytes, text_rule::one_line)) return;
    out.emplace_back(items[i].get_string());
  }
}

void field_reader::boolean(std::string_view name, bool& out) {
  const auto* value = present(name);
  if (value == nullptr) return;
  if (!value->is_bool()) return fail(name, std::string("expected true or false, got ") + json_kind_name(*value));
  out = value->get_bool();
}

result<void> field_reader::finish(unknown_fields unknown) const {
  if (unknown == unknown_fields::refuse) {
    for (const auto& field : body_) {
      if (std::find(names_.begin(), names_.end(), field.key()) == names_.end()) {
        return field_problem(utf8_excerpt(field.key(), 128), "unknown field; expected one of " + listed(names_));
      }
    }
  }
  if (problem_) return *problem_;
  return ok();
}

}  // namespace parley::server
