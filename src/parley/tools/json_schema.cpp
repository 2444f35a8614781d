#include "parley/tools/json_schema.hpp"

#include <boost/json/serialize.hpp>

#include <cmath>
#include <cstdio>
#include <regex>
#include <unordered_map>

#include "parley/core/json.hpp"
#include "parley/core/text.hpp"
#include "parley/core/utf8.hpp"
#include "parley/tools/schema_check.hpp"

namespace parley::tools {
namespace {

namespace json = boost::json;

// Doubles as people write them ("1.5", not Boost.JSON's "1.5E0").
std::string number_text(const json::value& v) {
  if (!v.is_double()) return json::serialize(v);
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.15g", v.get_double());
  return buffer;
}

std::string shown(const json::value& v) {
  constexpr std::size_t kMaxShown = 60;
  // Cut on a character boundary: the message becomes a tool result in the log, which refuses
  // text that is not UTF-8 (a cut character would leave the dialog unable to record its round).
  if (!v.is_string()) return utf8_excerpt(number_text(v), kMaxShown);
  return "'" + utf8_excerpt(v.get_string(), kMaxShown) + "'";
}

// A misspelt name (a member id, a section) gets the nearest choice as a hint, unless nothing of
// the word survives in it ('x' for 'a' is no hint).
std::string choice_hint(const json::value& v, const json::array& choices) {
  if (!v.is_string()) return {};
  const std::string_view word = v.get_string();
  std::vector<std::string> names;
  for (const auto& choice : choices) {
    if (choice.is_string()) names.emplace_back(choice.get_string());
  }
  const std::string best = closest_match(word, names);
  if (best.empty() || edit_distance(word, best) >= word.size()) return {};
  return " (did you mean '" + best + "'?)";
}

std::string property_path(const std::string& parent, std::string_view name) {
  const bool plain = !name.empty() && name.find_first_not_of(
                                          "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                          "0123456789_-") == std::string_view::npos;
  return plain ? parent + "." + std::string(name) : parent + "[" + json::serialize(json::string(name)) + "]";
}

double as_double(const json::value& v) {
  if (v.is_int64()) return static_cast<double>(v.get_int64());
  if (v.is_uint64()) return static_cast<double>(v.get_uint64());
  return v.get_double();
}

bool json_equal(const json::value& a, const json::value& b) {
  if (a.is_number() && b.is_number()) {
    if (a.is_double() || b.is_double()) return as_double(a) == as_double(b);
    return a == b;  // Boost.JSON compares int64 with uint64 exactly
  }
  if (a.is_array() && b.is_array()) {
    const auto& x = a.get_array();
    const auto& y = b.get_array();
    if (x.size() != y.size()) return false;
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (!json_equal(x[i], y[i])) return false;
    }
    return true;
  }
  if (a.is_object() && b.is_object()) {
    const auto& x = a.get_object();
    const auto& y = b.get_object();
    if (x.size() != y.size()) return false;
    for (const auto& [key, value] : x) {
      const auto* other = y.if_contains(key);
      if (other == nullptr || !json_equal(value, *other)) return false;
    }
    return true;
  }
  return a == b;
}

std::size_t utf8_length(std::string_view text) {
  std::size_t count = 0;
  for (const char c : text) count += (static_cast<unsigned char>(c) & 0xC0U) != 0x80U ? 1 : 0;
  return count;
}

std::string plural(std::size_t n, std::string_view word) {
  if (n != 1 && word == "property") return std::to_string(n) + " properties";
  return std::to_string(n) + " " + std::string(word) + (n == 1 ? "" : "s");
}

// Patterns come from tool schemas, a small fixed set: compile each once per thread.
result<const std::regex*> compiled_pattern(const std::string& pattern) {
  constexpr std::size_t kMaxCached = 128;
  thread_local std::unordered_map<std::string, std::regex> cache;
  if (const auto it = cache.find(pattern); it != cache.end()) return &it->second;
  if (cache.size() >= kMaxCached) cache.clear();
  try {
    return &cache.emplace(pattern, std::regex(pattern, std::regex::ECMAScript)).first->second;
  } catch (const std::regex_error& e) {
    return make_error(errc::internal, "the tool's schema has an invalid pattern '" + pattern + "': " + e.what());
  }
}

class validator {
 public:
  explicit validator(const json::object& root) : root_(root) {}
  result<void> check(const json::value& v, const json::value& schema, const std::string& path) const;
  result<void> check(const json::value& v, const json::object& s, const std::string& path) const;

 private:
  // A schema that refers to itself ($ref) is followed this deep at most: an instance this deep is
  // no tool argument.
  static constexpr int kMaxDepth = 64;
  const json::object& root_;
  mutable int depth_ = 0;

  static error fail(const std::string& path, std::string_view problem) {
    return make_error(errc::invalid_argument, path + ": " + std::string(problem));
  }
  result<void> check_type(const json::value& v, const json::value& type, const std::string& path) const;
  result<void> check_choices(const json::value& v, const json::object& s, const std::string& path) const;
  result<void> check_string(const json::string& v, const json::object& s, const std::string& path) const;
  result<void> check_number(const json::value& v, const json::object& s, const std::string& path) const;
  result<void> check_array(const json::array& v, const json::object& s, const std::string& path) const;
  result<void> check_object(const json::object& v, const json::object& s, const std::string& path) const;
  result<void> check_alternatives(const json::value& v, const json::object& s, const std::string& path) const;
};

result<void> validator::check(const json::value& v, const json::value& schema, const std::string& path) const {
  if (schema.is_bool()) return schema.get_bool() ? ok() : fail(path, "no value is allowed here");
  const auto* s = schema.if_object();
  return s == nullptr ? ok() : check(v, *s, path);  // not a schema: nothing to enforce
}

result<void> validator::check(const json::value& v, const json::object& s, const std::string& path) const {
  if (depth_ >= kMaxDepth) return fail(path, "nested deeper than the schema check goes");
  struct deeper {
    int& depth;
    explicit deeper(int& d) : depth(++d) {}
    ~deeper() { --depth; }
    deeper(const deeper&) = delete;
    deeper& operator=(const deeper&) = delete;
  } level(depth_);
  if (const auto* reference = s.if_contains("$ref"); reference != nullptr && reference->is_string()) {
    auto target = resolve_local_ref(root_, reference->get_string());
    if (!target) return std::move(target).err();
    // And the keywords beside it too (JSON Schema 2019-09 on).
    PARLEY_TRY(*target == nullptr ? check(v, root_, path) : check(v, **target, path));
  }
  if (const auto* type = s.if_contains("type")) PARLEY_TRY(check_type(v, *type, path));
  PARLEY_TRY(check_choices(v, s, path));
  if (v.is_string()) PARLEY_TRY(check_string(v.get_string(), s, path));
  if (v.is_number()) PARLEY_TRY(check_number(v, s, path));
  if (v.is_array()) PARLEY_TRY(check_array(v.get_array(), s, path));
  if (v.is_object()) PARLEY_TRY(check_object(v.get_object(), s, path));
  return check_alternatives(v, s, path);
}

result<void> validator::check_type(const json::value& v, const json::value& type, const std::string& path) const {
  std::vector<std::string_view> names;
  if (type.is_string()) names.push_back(type.get_string());
  if (const auto* list = type.if_array()) {
    for (const auto& name : *list) {
      if (name.is_string()) names.push_back(name.get_string());
    }
  }
  for (const auto name : names) {
    if (name == "string" && v.is_string()) return ok();
    if (name == "number" && v.is_number()) return ok();
    if (name == "integer" && (v.is_int64() || v.is_uint64())) return ok();
    if (name == "integer" && v.is_double() && std::isfinite(v.get_double()) &&
        std::trunc(v.get_double()) == v.get_double()) {
      return ok();
    }
    if (name == "boolean" && v.is_bool()) return ok();
    if (name == "object" && v.is_object()) return ok();
    if (name == "array" && v.is_array()) return ok();
    if (name == "null" && v.is_null()) return ok();
    static const std::vector<std::string> known{"string", "number", "integer", "boolean", "object", "array", "null"};
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      return make_error(errc::internal, "the tool's schema names an unknown type '" + std::string(name) + "'");
    }
  }
  if (names.empty()) return ok();
  std::string expected;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) expected += i + 1 == names.size() ? " or " : ", ";
    expected += names[i];
  }
  return fail(path, "expected " + expected + ", got " + json_kind_name(v));
}

result<void> validator::check_choices(const json::value& v, const json::object& s, const std::string& path) const {
  if (const auto* choices = json_array_at(s, "enum")) {
    const bool found = std::any_of(choices->begin(), choices->end(), [&](const auto& c) { return json_equal(v, c); });
    if (!found) {
      return fail(path, shown(v) + " is not one of " + json::serialize(*choices) + choice_hint(v, *choices));
    }
  }
  if (const auto* constant = s.if_contains("const"); constant != nullptr && !json_equal(v, *constant)) {
    return fail(path, "must be " + json::serialize(*constant) + ", got " + shown(v));
  }
  return ok();
}

result<void> validator::check_string(const json::string& v, const json::object& s, const std::string& path) const {
  const std::size_t length = utf8_length(v);
  if (const auto* min = s.if_contains("minLength"); min != nullptr && min->is_number()) {
    if (static_cast<double>(length) < as_double(*min)) {
      return fail(path, "expected at least " + plural(static_cast<std::size_t>(as_double(*min)), "character") +
                            ", got " + std::to_string(length));
    }
  }
  if (const auto* max = s.if_contains("maxLength"); max != nullptr && max->is_number()) {
    if (static_cast<double>(length) > as_double(*max)) {
      return fail(path, "expected at most " + plural(static_cast<std::size_t>(as_double(*max)), "character") +
                            ", got " + std::to_string(length));
    }
  }
  if (const auto* pattern = s.if_contains("pattern"); pattern != nullptr && pattern->is_string()) {
    auto re = compiled_pattern(std::string(pattern->get_string()));
    if (!re) return std::move(re).err();
    if (!std::regex_search(v.begin(), v.end(), **re)) {
      return fail(path,
                  shown(json::value(v)) + " does not match the pattern '" + std::string(pattern->get_string()) + "'");
    }
  }
  return ok();
}

result<void> validator::check_number(const json::value& v, const json::object& s, const std::string& path) const {
  const double x = as_double(v);
  const auto bound = [&](const char* key) -> const json::value* {
    const auto* b = s.if_contains(key);
    return b != nullptr && b->is_number() ? b : nullptr;
  };
  const std::string value_text = number_text(v);
  if (const auto* b = bound("minimum"); b && x < as_double(*b)) {
    return fail(path, value_text + " is less than the minimum " + number_text(*b));
  }
  if (const auto* b = bound("maximum"); b && x > as_double(*b)) {
    return fail(path, value_text + " is greater than the maximum " + number_text(*b));
  }
  if (const auto* b = bound("exclusiveMinimum"); b && x <= as_double(*b)) {
    return fail(path, value_text + " must be greater than " + number_text(*b));
  }
  if (const auto* b = bound("exclusiveMaximum"); b && x >= as_double(*b)) {
    return fail(path, value_text + " must be less than " + number_text(*b));
  }
  if (const auto* step = bound("multipleOf"); step && as_double(*step) > 0) {
    const double quotient = x / as_double(*step);
    // Within a part in 10^9 of a whole number: 0.3 is a multiple of 0.1 though 0.3 / 0.1 is not 3.
    if (!std::isfinite(quotient) ||
        std::fabs(quotient - std::round(quotient)) > 1e-9 * std::max(1.0, std::fabs(quotient))) {
      return fail(path, value_text + " is not a multiple of " + number_text(*step));
    }
  }
  return ok();
}

result<void> validator::check_array(const json::array& v, const json::object& s, const std::string& path) const {
  if (const auto* min = s.if_contains("minItems"); min != nullptr && min->is_number()) {
    if (static_cast<double>(v.size()) < as_double(*min)) {
      return fail(path, "expected at least " + plural(static_cast<std::size_t>(as_double(*min)), "item") + ", got " +
                            std::to_string(v.size()));
    }
  }
  if (const auto* max = s.if_contains("maxItems"); max != nullptr && max->is_number()) {
    if (static_cast<double>(v.size()) > as_double(*max)) {
      return fail(path, "expected at most " + plural(static_cast<std::size_t>(as_double(*max)), "item") + ", got " +
                            std::to_string(v.size()));
    }
  }
  if (const auto* items = s.if_contains("items")) {
    for (std::size_t i = 0; i < v.size(); ++i) PARLEY_TRY(check(v[i], *items, path + "[" + std::to_string(i) + "]"));
  }
  if (const auto* unique = s.if_contains("uniqueItems"); unique != nullptr && unique->is_bool() && unique->get_bool()) {
    for (std::size_t i = 0; i < v.size(); ++i) {
      for (std::size_t j = i + 1; j < v.size(); ++j) {
        if (json_equal(v[i], v[j])) {
          return fail(path,
                      "items " + std::to_string(i) + " and " + std::to_string(j) + " are equal; expected unique items");
        }
      }
    }
  }
  return ok();
}

result<void> validator::check_object(const json::object& v, const json::object& s, const std::string& path) const {
  static const json::object kNoProperties;
  const json::object* properties = json_object_at(s, "properties");
  if (properties == nullptr) properties = &kNoProperties;
  const json::value* additional = s.if_contains("additionalProperties");
  // Unknown names first: a misspelt property also shows up as a missing one, and "did you mean"
  // is the more useful message.
  if (additional != nullptr && additional->is_bool() && !additional->get_bool()) {
    std::vector<std::string> known;
    for (const auto& entry : *properties) known.emplace_back(entry.key());
    for (const auto& entry : v) {
      if (!properties->contains(entry.key())) {
        return fail(path, "unknown property '" + std::string(entry.key()) + "'" + did_you_mean(entry.key(), known));
      }
    }
  }
  if (const auto* min = s.if_contains("minProperties"); min != nullptr && min->is_number()) {
    if (static_cast<double>(v.size()) < as_double(*min)) {
      return fail(path, "expected at least " + plural(static_cast<std::size_t>(as_double(*min)), "property") +
                            ", got " + std::to_string(v.size()));
    }
  }
  if (const auto* max = s.if_contains("maxProperties"); max != nullptr && max->is_number()) {
    if (static_cast<double>(v.size()) > as_double(*max)) {
      return fail(path, "expected at most " + plural(static_cast<std::size_t>(as_double(*max)), "property") + ", got " +
                            std::to_string(v.size()));
    }
  }
  if (const auto* required = json_array_at(s, "required")) {
    for (const auto& name : *required) {
      if (name.is_string() && !v.contains(name.get_string())) {
        return fail(path, "missing required property '" + std::string(name.get_string()) + "'");
      }
    }
  }
  for (const auto& entry : v) {
    const std::string child = property_path(path, entry.key());
    if (const auto* property = properties->if_contains(entry.key())) {
      PARLEY_TRY(check(entry.value(), *property, child));
    } else if (additional != nullptr && additional->is_object()) {
      PARLEY_TRY(check(entry.value(), *additional, child));
    }
  }
  return ok();
}

result<void> validator::check_alternatives(const json::value& v, const json::object& s, const std::string& path) const {
  if (const auto* all = json_array_at(s, "allOf")) {
    for (const auto& part : *all) PARLEY_TRY(check(v, part, path));
  }
  if (const auto* excluded = s.if_contains("not")) {
    auto outcome = check(v, *excluded, path);
    if (outcome) return fail(path, shown(v) + " matches the schema under 'not'");
    if (outcome.err().code != errc::invalid_argument) return std::move(outcome).err();
  }
  for (const char* keyword : {"anyOf", "oneOf"}) {
    const auto* alternatives = json_array_at(s, keyword);
    if (alternatives == nullptr || alternatives->empty()) continue;
    std::vector<std::size_t> matched;
    std::string reasons;
    for (std::size_t i = 0; i < alternatives->size(); ++i) {
      auto outcome = check(v, (*alternatives)[i], path);
      if (outcome) {
        matched.push_back(i + 1);
      } else if (outcome.err().code != errc::invalid_argument) {
        return std::move(outcome).err();
      } else {
        reasons += " [" + std::to_string(i + 1) + "] " + outcome.err().message + ";";
      }
    }
    if (matched.empty()) {
      reasons.pop_back();
      return fail(path, std::string("matches none of the ") + keyword + " alternatives:" + reasons);
    }
    if (std::string_view(keyword) == "oneOf" && matched.size() > 1) {
      return fail(path, "matches alternatives " + std::to_string(matched[0]) + " and " + std::to_string(matched[1]) +
                            " of oneOf; expected exactly one");
    }
  }
  return ok();
}

}  // namespace

result<void> validate_arguments(const boost::json::value& instance, const boost::json::object& schema) {
  return validator{schema}.check(instance, schema, std::string("arguments"));
}

}  // namespace parley::tools
