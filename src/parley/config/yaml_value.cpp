#include "parley/config/yaml_value.hpp"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <regex>
#include <utility>

#include "parley/config/yaml_reader.hpp"
#include "parley/core/utf8.hpp"

namespace parley::config::detail {
namespace {

constexpr std::string_view kIntTag = "tag:yaml.org,2002:int";
constexpr std::string_view kFloatTag = "tag:yaml.org,2002:float";
constexpr std::string_view kBoolTag = "tag:yaml.org,2002:bool";
constexpr std::size_t kMaxShownChars = 40;

bool parse_integer(const std::string& text, std::int64_t& out) {
  std::string_view digits = text;
  bool negative = false;
  if (!digits.empty() && (digits[0] == '+' || digits[0] == '-')) {
    negative = digits[0] == '-';
    digits.remove_prefix(1);
  }
  int base = 10;
  if (digits.starts_with("0x")) base = 16;
  if (digits.starts_with("0o")) base = 8;
  if (base != 10) digits.remove_prefix(2);
  if (digits.empty()) return false;
  std::uint64_t magnitude = 0;
  const auto [end, code] = std::from_chars(digits.data(), digits.data() + digits.size(), magnitude, base);
  if (code != std::errc{} || end != digits.data() + digits.size()) return false;
  constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  if (magnitude > kMax + (negative ? 1 : 0)) return false;
  out = negative ? static_cast<std::int64_t>(0 - magnitude) : static_cast<std::int64_t>(magnitude);
  return true;
}

bool parse_floating(const std::string& text, double& out) {
  static const std::regex kFloat(R"([-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?)");
  static const std::regex kInfinity(R"([-+]?\.(inf|Inf|INF))");
  static const std::regex kNan(R"(\.(nan|NaN|NAN))");
  if (std::regex_match(text, kInfinity)) {
    out = text[0] == '-' ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    return true;
  }
  if (std::regex_match(text, kNan)) {
    out = std::numeric_limits<double>::quiet_NaN();
    return true;
  }
  if (!std::regex_match(text, kFloat)) return false;
  // strtod accepts every form the regex lets through; from_chars rejects a leading '+'.
  out = std::strtod(text.c_str(), nullptr);
  return true;
}

bool parse_boolean(const std::string& text, bool& out) {
  if (text == "true" || text == "True" || text == "TRUE") {
    out = true;
    return true;
  }
  if (text == "false" || text == "False" || text == "FALSE") {
    out = false;
    return true;
  }
  return false;
}

typed_scalar resolve_plain(typed_scalar value) {
  const std::string& text = value.text;
  if (text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL") {
    value.kind = scalar_kind::null;
  } else if (parse_boolean(text, value.boolean)) {
    value.kind = scalar_kind::boolean;
  } else if (parse_integer(text, value.integer)) {
    value.kind = scalar_kind::integer;
  } else if (parse_floating(text, value.floating)) {
    value.kind = scalar_kind::floating;
  }
  return value;
}

boost::json::value to_json(const typed_scalar& value) {
  switch (value.kind) {
    case scalar_kind::null:
      return nullptr;
    case scalar_kind::boolean:
      return value.boolean;
    case scalar_kind::integer:
      return value.integer;
    case scalar_kind::floating:
      return value.floating;  // finite: yaml_to_json refuses the rest
    case scalar_kind::string:
      break;
  }
  return boost::json::string(value.text);
}

}  // namespace

typed_scalar resolve_scalar(const YAML::Node& node) {
  typed_scalar value;
  if (!node.IsScalar()) {
    value.kind = node.IsNull() ? scalar_kind::null : scalar_kind::string;
    return value;
  }
  value.text = node.Scalar();
  value.kind = scalar_kind::string;
  const std::string& tag = node.Tag();
  if (tag == "?") return resolve_plain(std::move(value));
  // An explicit core tag asks for that type; a value that does not fit it stays a string.
  if (tag == kIntTag || tag == kFloatTag || tag == kBoolTag) {
    typed_scalar typed = resolve_plain(value);
    const bool fits =
        (tag == kIntTag && typed.kind == scalar_kind::integer) ||
        (tag == kFloatTag && (typed.kind == scalar_kind::floating || typed.kind == scalar_kind::integer)) ||
        (tag == kBoolTag && typed.kind == scalar_kind::boolean);
    if (fits && tag == kFloatTag && typed.kind == scalar_kind::integer) {
      typed.kind = scalar_kind::floating;
      typed.floating = static_cast<double>(typed.integer);
    }
    return fits ? typed : value;
  }
  // Quoted, block, `!!str` and custom-tagged scalars are all strings.
  return value;
}

std::string describe_node(const YAML::Node& node) {
  if (node.IsMap()) return "a mapping";
  if (node.IsSequence()) return "a list";
  if (!node.IsScalar()) return "null";
  // Cut on a character boundary, so that the message stays UTF-8.
  return "'" + utf8_excerpt(node.Scalar(), kMaxShownChars) + "'";
}

namespace {

// A YAML alias repeats its anchor's whole subtree, so a few lines of aliases of aliases expand to
// billions of values ("billion laughs"). Conversion stops at these bounds, far above any real
// parameter block or script, instead of growing until memory runs out.
constexpr std::size_t kMaxJsonValues = 100000;
constexpr std::size_t kMaxJsonDepth = 64;

struct conversion_budget {
  std::size_t values_left = kMaxJsonValues;
};

result<boost::json::value> convert(const std::string& file, const YAML::Node& node, const std::string& path,
                                   std::size_t depth, conversion_budget& budget) {
  if (budget.values_left == 0) {
    return yaml_error(
        file, node.Mark(), path,
        "expands to more than " + std::to_string(kMaxJsonValues) + " values (aliases repeating aliases?); refused");
  }
  --budget.values_left;
  if (depth > kMaxJsonDepth) {
    return yaml_error(file, node.Mark(), path, "nests deeper than " + std::to_string(kMaxJsonDepth) + " levels");
  }
  if (node.IsSequence()) {
    boost::json::array array;
    std::size_t index = 0;
    for (const auto& element : node) {
      auto value = convert(file, element, path + "[" + std::to_string(index++) + "]", depth + 1, budget);
      if (!value) return std::move(value).err();
      array.push_back(std::move(value).value());
    }
    return boost::json::value(std::move(array));
  }
  if (!node.IsMap()) {
    const typed_scalar scalar = resolve_scalar(node);
    // JSON cannot carry infinity or NaN (and `1e999` reads as infinity): refused, not passed on.
    if (scalar.kind == scalar_kind::floating && !std::isfinite(scalar.floating)) {
      return yaml_error(file, node.Mark(), path, "'" + scalar.text + "' is not a finite number");
    }
    return to_json(scalar);
  }
  auto map = map_reader::open(file, node, node.Mark(), path);
  if (!map) return std::move(map).err();
  PARLEY_TRY(map->check_unique("key"));
  boost::json::object object;
  for (const auto& item : map->entries()) {
    auto value = convert(file, item.value, map->path_of(item.key), depth + 1, budget);
    if (!value) return std::move(value).err();
    object[item.key] = std::move(value).value();
  }
  return boost::json::value(std::move(object));
}

}  // namespace

result<boost::json::value> yaml_to_json(const std::string& file, const YAML::Node& node, const std::string& path) {
  conversion_budget budget;
  return convert(file, node, path, 0, budget);
}

}  // namespace parley::config::detail
