#include "parley/config/yaml_reader.hpp"

#include <cctype>
#include <fstream>
#include <optional>
#include <sstream>
#include <system_error>
#include <utility>

#include "parley/config/yaml_scalar_utf8.hpp"
#include "parley/config/yaml_value.hpp"
#include "parley/core/file_text.hpp"
#include "parley/core/text.hpp"
#include "parley/core/utf8.hpp"

namespace parley::config::detail {
namespace {

std::string in_quotes(std::string_view word) { return "'" + std::string(word) + "'"; }

}  // namespace

// yaml-cpp marks are 0-based and -1 when unknown (an empty document).
std::string format_position(const YAML::Mark& mark) {
  const int line = mark.line < 0 ? 1 : mark.line + 1;
  const int column = mark.column < 0 ? 1 : mark.column + 1;
  return std::to_string(line) + ":" + std::to_string(column);
}

std::string join_path(std::string_view parent, std::string_view key) {
  if (parent.empty()) return std::string(key);
  return std::string(parent) + "." + std::string(key);
}

error yaml_error(std::string_view file, const YAML::Mark& mark, std::string_view path, std::string_view problem) {
  std::string text = std::string(file) + ":" + format_position(mark) + ": ";
  if (!path.empty()) text += std::string(path) + ": ";
  // yaml-cpp's messages quote single bytes of the input (an unknown escape): keep the error UTF-8.
  text += repair_utf8(problem).text;
  return make_error(errc::config_error, std::move(text));
}

std::string join_names(const std::vector<std::string>& names) {
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) text += i + 1 == names.size() ? " or " : ", ";
    text += names[i];
  }
  return text;
}

result<std::string> read_text_file(const std::filesystem::path& file) {
  return read_regular_file(file, errc::config_error);
}

result<YAML::Node> load_yaml_file(const std::filesystem::path& file) {
  auto text = read_text_file(file);
  if (!text) return std::move(text).err();
  return parse_yaml_text(file, *text);
}

result<YAML::Node> parse_yaml_text(const std::filesystem::path& file, const std::string& content) {
  const std::string* text = &content;
  // Names, personas and parameters go into the log and to every model as JSON text, which is UTF-8.
  if (const auto bad = first_invalid_utf8(*text)) {
    const text_position at = position_of(*text, *bad);
    YAML::Mark mark;
    mark.line = static_cast<int>(at.line);
    mark.column = static_cast<int>(at.column);
    return yaml_error(file.string(), mark, {}, describe_invalid_utf8(*text, *bad) + " (save the file as UTF-8)");
  }
  // YAML has no NUL, and yaml-cpp turns the bytes around one into text that is not UTF-8 (or
  // reads the whole file as UTF-16 or UTF-32), which would reach the log and every model.
  if (const auto nul = text->find('\0'); nul != std::string::npos) {
    const text_position at = position_of(*text, nul);
    YAML::Mark mark;
    mark.line = static_cast<int>(at.line);
    mark.column = static_cast<int>(at.column);
    return yaml_error(file.string(), mark, {},
                      "a NUL byte at offset " + std::to_string(nul) + " (a YAML file is text)");
  }
  YAML::Node root;
  try {
    root = YAML::Load(*text);
  } catch (const YAML::Exception& e) {
    return yaml_error(file.string(), e.mark, {}, "YAML syntax error: " + e.msg);
  }
  if (const auto bad = scalar_not_utf8(*text)) return yaml_error(file.string(), *bad, {}, kYamlEscapeProblem);
  return root;
}

map_reader::map_reader(std::string file, YAML::Mark anchor, std::string path)
    : file_(std::move(file)), anchor_(anchor), path_(std::move(path)) {}

result<map_reader> map_reader::open(std::string file, const YAML::Node& node, const YAML::Mark& anchor,
                                    std::string path) {
  map_reader map(std::move(file), anchor, std::move(path));
  if (node.IsNull()) return map;
  if (!node.IsMap()) {
    return yaml_error(map.file_, node.Mark(), map.path_, "got " + describe_node(node) + " (expected a mapping)");
  }
  for (auto it = node.begin(); it != node.end(); ++it) {
    const YAML::Node key = it->first;
    if (!key.IsScalar()) {
      return yaml_error(map.file_, key.Mark(), map.path_,
                        "got " + describe_node(key) + " as a key (expected a plain name)");
    }
    map.entries_.push_back(entry{key.Scalar(), key, it->second});
  }
  return map;
}

result<std::optional<map_reader>> map_reader::child(std::string_view key) const {
  const entry* item = find(key);
  if (item == nullptr) return std::optional<map_reader>{};
  auto map = child_of(*item, path_of(key));
  if (!map) return std::move(map).err();
  return std::optional<map_reader>{std::move(map).value()};
}

result<map_reader> map_reader::child_of(const entry& item, std::string path) const {
  return open(file_, item.value, item.key_node.Mark(), std::move(path));
}

const map_reader::entry* map_reader::find(std::string_view key) const {
  for (const auto& item : entries_) {
    if (item.key == key) return item.value.IsNull() ? nullptr : &item;
  }
  return nullptr;
}

result<void> map_reader::check_unique(std::string_view what) const {
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (entries_[j].key != entries_[i].key) continue;
      return fail_at_key(entries_[i], "duplicate " + std::string(what) + " " + in_quotes(entries_[i].key) +
                                          " (first defined at " + format_position(entries_[j].key_node.Mark()) + ")");
    }
  }
  return ok();
}

result<void> map_reader::check_keys(const std::vector<std::string>& allowed) const {
  for (const auto& item : entries_) {
    bool known = false;
    for (const auto& name : allowed) known = known || name == item.key;
    if (known) continue;
    std::string hint = did_you_mean(item.key, allowed);
    if (hint.empty()) hint = " (expected one of: " + join_names(allowed) + ")";
    return fail_at_key(item, "unknown key " + in_quotes(item.key) + hint);
  }
  return check_unique("key");
}

result<void> map_reader::read(std::string_view key, std::string& out) const {
  const entry* item = find(key);
  if (item == nullptr) return ok();
  if (!item->value.IsScalar()) return type_error(*this, *item, "a string");
  out = item->value.Scalar();
  return ok();
}

result<void> map_reader::read_nonempty(std::string_view key, std::string& out) const {
  const entry* item = find(key);
  if (item == nullptr) return ok();
  if (!item->value.IsScalar() || item->value.Scalar().empty()) return type_error(*this, *item, "a non-empty string");
  out = item->value.Scalar();
  return ok();
}

result<void> map_reader::read(std::string_view key, bool& out) const {
  const entry* item = find(key);
  if (item == nullptr) return ok();
  const typed_scalar value = resolve_scalar(item->value);
  if (!item->value.IsScalar() || value.kind != scalar_kind::boolean) return type_error(*this, *item, "true or false");
  out = value.boolean;
  return ok();
}

result<void> map_reader::read_positive(std::string_view key, std::int64_t& out) const {
  const entry* item = find(key);
  if (item == nullptr) return ok();
  const typed_scalar value = resolve_scalar(item->value);
  if (!item->value.IsScalar() || value.kind != scalar_kind::integer || value.integer <= 0) {
    return type_error(*this, *item, "a positive integer");
  }
  out = value.integer;
  return ok();
}

result<void> map_reader::read_number(std::string_view key, double& out, double min, double max,
                                     std::string_view expected) const {
  const entry* item = find(key);
  if (item == nullptr) return ok();
  const typed_scalar value = resolve_scalar(item->value);
  double number = 0.0;
  if (item->value.IsScalar() && value.kind == scalar_kind::integer) {
    number = static_cast<double>(value.integer);
  } else if (item->value.IsScalar() && value.kind == scalar_kind::floating) {
    number = value.floating;
  } else {
    return type_error(*this, *item, expected);
  }
  // NaN fails both comparisons, so it is refused too.
  if (!(number >= min && number <= max)) return type_error(*this, *item, expected);
  out = number;
  return ok();
}

result<void> map_reader::read(std::string_view key, std::vector<std::string>& out) const {
  const entry* item = find(key);
  if (item == nullptr) return ok();
  if (!item->value.IsSequence()) return type_error(*this, *item, "a list of strings");
  std::vector<std::string> values;
  for (std::size_t i = 0; i < item->value.size(); ++i) {
    const YAML::Node element = item->value[i];
    if (!element.IsScalar()) {
      return yaml_error(file_, element.Mark(), path_of(key) + "[" + std::to_string(i) + "]",
                        "got " + describe_node(element) + " (expected a string)");
    }
    values.push_back(element.Scalar());
  }
  out = std::move(values);
  return ok();
}

result<void> map_reader::read_text_items(std::string_view key, std::vector<std::string>& out) const {
  const entry* item = find(key);
  if (item == nullptr) return ok();
  std::vector<std::string> values;
  if (item->value.IsScalar()) {
    values.push_back(item->value.Scalar());
  } else if (item->value.IsSequence()) {
    PARLEY_TRY(read(key, values));
  } else if (item->value.IsMap()) {
    for (const auto& pair : item->value) {
      if (!pair.first.IsScalar()) {
        return yaml_error(file_, pair.first.Mark(), path_of(key),
                          "got " + describe_node(pair.first) + " as a label (expected plain text)");
      }
      if (!pair.second.IsScalar()) {
        return yaml_error(file_, pair.second.Mark(), join_path(path_of(key), pair.first.Scalar()),
                          "got " + describe_node(pair.second) + " (expected a string)");
      }
      values.push_back(pair.first.Scalar() + ": " + pair.second.Scalar());
    }
  } else {
    return type_error(*this, *item, "a string, a list of strings or a mapping of label to text");
  }
  // A block scalar ends with a newline, and a blank item says nothing: neither reaches a prompt.
  std::vector<std::string> kept;
  for (auto& value : values) {
    while (!value.empty() && std::isspace(static_cast<unsigned char>(value.back())) != 0) value.pop_back();
    if (!value.empty()) kept.push_back(std::move(value));
  }
  out = std::move(kept);
  return ok();
}

result<void> map_reader::read(std::string_view key, boost::json::object& out) const {
  const entry* item = find(key);
  if (item == nullptr) return ok();
  if (!item->value.IsMap()) return type_error(*this, *item, "a mapping");
  auto value = yaml_to_json(file_, item->value, path_of(key));
  if (!value) return std::move(value).err();
  out = std::move(value->as_object());
  return ok();
}

result<std::string> map_reader::require_nonempty(std::string_view key, std::string_view hint) const {
  if (!has(key)) return missing(key, hint.empty() ? "a non-empty string" : hint);
  std::string value;
  PARLEY_TRY(read_nonempty(key, value));
  return value;
}

error map_reader::fail(std::string_view problem) const { return yaml_error(file_, anchor_, path_, problem); }

error map_reader::fail_at_key(const entry& item, std::string_view problem) const {
  return yaml_error(file_, item.key_node.Mark(), path_of(item.key), problem);
}

error map_reader::fail_at_value(const entry& item, std::string_view problem) const {
  // yaml-cpp places an empty value at the next token, often on another line; the key is clearer.
  const YAML::Mark mark = item.value.IsNull() ? item.key_node.Mark() : item.value.Mark();
  return yaml_error(file_, mark, path_of(item.key), problem);
}

error map_reader::missing(std::string_view key, std::string_view expected) const {
  return fail("missing required key " + in_quotes(key) + " (expected " + std::string(expected) + ")");
}

error type_error(const map_reader& map, const map_reader::entry& item, std::string_view expected) {
  return map.fail_at_value(item, "got " + describe_node(item.value) + " (expected " + std::string(expected) + ")");
}

}  // namespace parley::config::detail
