#include "parley/llm/scripted/script_yaml.hpp"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <algorithm>
#include <charconv>
#include <optional>
#include <set>

#include "parley/core/text.hpp"
#include "parley/core/utf8.hpp"

namespace parley::llm::scripted_detail {
namespace {

YAML::Mark position_of(const yaml_field& at) {
  // Implicit nulls (`key:` with nothing after it) carry the position of whatever follows.
  const bool use_key = at.key.IsDefined() && (!at.value.IsDefined() || at.value.IsNull());
  YAML::Mark mark = use_key ? at.key.Mark() : at.value.Mark();
  if (mark.line < 0 && at.key.IsDefined()) mark = at.key.Mark();
  return mark;
}

// "a map", "a list", "'some text'" — what the author wrote where something else belongs.
std::string describe(const YAML::Node& node) {
  if (!node.IsScalar()) return yaml_kind_name(node);
  constexpr std::size_t kMaxShown = 40;
  // Cut on a character boundary, so that the message stays UTF-8.
  return "'" + utf8_excerpt(node.Scalar(), kMaxShown) + "'";
}

bool is_plain(const YAML::Node& node) { return node.Tag() == "?"; }

bool reads_as_null(std::string_view s) { return s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL"; }

std::optional<bool> reads_as_bool(std::string_view s) {
  if (s == "true" || s == "True" || s == "TRUE") return true;
  if (s == "false" || s == "False" || s == "FALSE") return false;
  return std::nullopt;
}

std::optional<boost::json::value> reads_as_number(std::string_view s) {
  if (s.empty() || s.find_first_not_of("0123456789+-.eE") != std::string_view::npos) return std::nullopt;
  if (s.find_first_of("0123456789") == std::string_view::npos) return std::nullopt;
  if (s.front() == '+') s.remove_prefix(1);
  const char* end = s.data() + s.size();
  std::int64_t integer = 0;
  if (auto [ptr, ec] = std::from_chars(s.data(), end, integer); ec == std::errc{} && ptr == end) {
    return boost::json::value(integer);
  }
  double real = 0;
  if (auto [ptr, ec] = std::from_chars(s.data(), end, real); ec == std::errc{} && ptr == end) {
    return boost::json::value(real);
  }
  return std::nullopt;
}

boost::json::value scalar_to_json(const YAML::Node& node) {
  const std::string& s = node.Scalar();
  if (!is_plain(node)) return boost::json::value(s);
  if (reads_as_null(s)) return nullptr;
  if (auto b = reads_as_bool(s)) return boost::json::value(*b);
  if (auto n = reads_as_number(s)) return *n;
  return boost::json::value(s);
}

}  // namespace

yaml_field yaml_field::child(const YAML::Node& child_key, const YAML::Node& child_value) const {
  const std::string& name = child_key.Scalar();
  return yaml_field{child_key, child_value, path.empty() ? name : path + "." + name};
}

yaml_field yaml_field::item(std::size_t index, const YAML::Node& item_value) const {
  return yaml_field{YAML::Node(YAML::NodeType::Undefined), item_value, path + "[" + std::to_string(index) + "]"};
}

error yaml_reader::fail_at(int line, int column, std::string_view path, std::string_view problem) const {
  std::string message =
      source_ + ":" + std::to_string(std::max(line, 0) + 1) + ":" + std::to_string(std::max(column, 0) + 1) + ": ";
  if (!path.empty()) message.append(path).append(": ");
  message.append(problem);
  return make_error(errc::config_error, std::move(message));
}

error yaml_reader::fail(const yaml_field& at, std::string_view problem) const {
  const YAML::Mark mark = position_of(at);
  return fail_at(mark.line, mark.column, at.path, problem);
}

error yaml_reader::fail_at_key(const yaml_field& at, std::string_view problem) const {
  const YAML::Mark mark = at.key.IsDefined() ? at.key.Mark() : position_of(at);
  return fail_at(mark.line, mark.column, at.path, problem);
}

result<void> yaml_reader::check_map(const yaml_field& at, const std::vector<std::string>& known) const {
  if (!at.value.IsMap()) return fail(at, "expected a map, got " + describe(at.value));
  std::set<std::string, std::less<>> seen;
  for (auto it = at.value.begin(); it != at.value.end(); ++it) {
    const yaml_field entry = at.child(it->first, it->second);
    if (!it->first.IsScalar()) return fail_at_key(entry, "map keys must be plain words");
    const std::string& key = it->first.Scalar();
    if (std::find(known.begin(), known.end(), key) == known.end()) {
      std::string expected;
      for (const auto& k : known) expected.append(expected.empty() ? "" : ", ").append(k);
      return fail_at_key(entry,
                         "unknown key '" + key + "'" + did_you_mean(key, known) + "; expected one of: " + expected);
    }
    if (!seen.insert(key).second) return fail_at_key(entry, "duplicate key '" + key + "'");
  }
  return ok();
}

result<yaml_field> yaml_reader::require(const yaml_field& map, const std::string& key) const {
  for (auto it = map.value.begin(); it != map.value.end(); ++it) {
    if (it->first.IsScalar() && it->first.Scalar() == key) return map.child(it->first, it->second);
  }
  return fail(map, "missing required key '" + key + "'");
}

result<void> yaml_reader::check_sequence(const yaml_field& at) const {
  if (!at.value.IsSequence()) return fail(at, "expected a list, got " + describe(at.value));
  return ok();
}

result<std::string> yaml_reader::text(const yaml_field& at) const {
  if (!at.value.IsScalar()) return fail(at, "expected text, got " + describe(at.value));
  return at.value.Scalar();
}

result<std::int64_t> yaml_reader::integer(const yaml_field& at, std::int64_t minimum) const {
  if (!at.value.IsScalar()) return fail(at, "expected an integer, got " + describe(at.value));
  const std::string& s = at.value.Scalar();
  std::int64_t number = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), number);
  if (s.empty() || ec != std::errc{} || end != s.data() + s.size()) {
    return fail(at, "expected an integer, got '" + s + "'");
  }
  if (number < minimum) return fail(at, "must be at least " + std::to_string(minimum) + ", got " + s);
  return number;
}

result<boost::json::value> yaml_reader::to_json(const yaml_field& at) const {
  const YAML::Node& node = at.value;
  if (!node.IsDefined() || node.IsNull()) return boost::json::value(nullptr);
  if (node.IsScalar()) return scalar_to_json(node);
  if (node.IsSequence()) {
    boost::json::array out;
    out.reserve(node.size());
    for (std::size_t i = 0; i < node.size(); ++i) {
      auto element = to_json(at.item(i, node[i]));
      if (!element) return std::move(element).err();
      out.push_back(std::move(element).value());
    }
    return boost::json::value(std::move(out));
  }
  boost::json::object out;
  for (auto it = node.begin(); it != node.end(); ++it) {
    const yaml_field entry = at.child(it->first, it->second);
    if (!it->first.IsScalar()) return fail_at_key(entry, "JSON object keys must be text");
    auto element = to_json(entry);
    if (!element) return std::move(element).err();
    out[it->first.Scalar()] = std::move(element).value();
  }
  return boost::json::value(std::move(out));
}

const char* yaml_kind_name(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Undefined:
      return "nothing";
    case YAML::NodeType::Null:
      return "null";
    case YAML::NodeType::Scalar:
      return "text";
    case YAML::NodeType::Sequence:
      return "a list";
    case YAML::NodeType::Map:
      return "a map";
  }
  return "unknown";
}

}  // namespace parley::llm::scripted_detail
