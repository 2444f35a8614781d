#include "parley/core/json_check.hpp"

#include <cmath>
#include <vector>

#include "parley/core/utf8.hpp"

namespace parley {
namespace {

// Depth-first over an explicit stack: stored payloads may nest deeply, and a recursive walk would
// let a hostile body choose the stack depth.
struct pending {
  const json::value* value;
  std::string path;
};

std::string child_path(const std::string& parent, std::string_view key) {
  if (parent.empty()) return std::string(key);
  std::string out = parent;
  out += '.';
  out.append(key);
  return out;
}

std::optional<json_problem> check_scalar(const json::value& value, const std::string& path) {
  if (value.is_double() && !std::isfinite(value.get_double())) {
    return json_problem{path, "is not a finite number (values beyond ±1.8e308, infinity and NaN are refused)"};
  }
  if (value.is_string()) {
    const auto& text = value.get_string();
    if (auto bad = first_invalid_utf8(text)) {
      return json_problem{path, describe_invalid_utf8(text, *bad)};
    }
  }
  return std::nullopt;
}

std::optional<json_problem> walk(const json::value& root, std::string_view root_name) {
  std::vector<pending> stack;
  stack.push_back({&root, std::string(root_name)});
  while (!stack.empty()) {
    pending item = std::move(stack.back());
    stack.pop_back();
    const std::string& here = item.path;
    if (auto problem = check_scalar(*item.value, here)) {
      if (problem->field.empty()) problem->field = "(the value)";
      return problem;
    }
    if (const auto* object = item.value->if_object()) {
      // Pushed in reverse so that problems are reported in document order.
      for (auto it = object->end(); it != object->begin();) {
        --it;
        const std::string_view key = it->key();
        if (auto bad = first_invalid_utf8(key)) {
          return json_problem{child_path(here, "<key>"), "a key: " + describe_invalid_utf8(key, *bad)};
        }
        stack.push_back({&it->value(), child_path(here, key)});
      }
    } else if (const auto* array = item.value->if_array()) {
      for (std::size_t i = array->size(); i-- > 0;) {
        stack.push_back({&(*array)[i], here + "[" + std::to_string(i) + "]"});
      }
    }
  }
  return std::nullopt;
}

bool scalar_ok(const json::value& value) noexcept {
  if (value.is_double()) return std::isfinite(value.get_double());
  if (value.is_string()) return is_valid_utf8(value.get_string());
  return true;
}

// The check without paths, for the common case where nothing is wrong: the stores run it on every
// event they append.
bool tree_ok(const json::value& root) {
  // Reused from call to call on each thread: the check allocates nothing once warm.
  thread_local std::vector<const json::value*> stack;
  stack.clear();
  stack.push_back(&root);
  while (!stack.empty()) {
    const json::value* value = stack.back();
    stack.pop_back();
    if (!scalar_ok(*value)) return false;
    if (const auto* object = value->if_object()) {
      for (const auto& member : *object) {
        if (!is_valid_utf8(member.key())) return false;
        stack.push_back(&member.value());
      }
    } else if (const auto* array = value->if_array()) {
      for (const auto& element : *array) stack.push_back(&element);
    }
  }
  return true;
}

// `text` with the non-finite number tokens a serializer writes for infinity and NaN replaced by
// null, leaving strings alone; `count` says how many were replaced.
std::string nulls_for_non_finite(std::string_view text, std::size_t& count) {
  static constexpr std::string_view kTokens[] = {"-Infinity", "Infinity", "NaN"};
  std::string out;
  out.reserve(text.size());
  bool in_string = false;
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < text.size()) {
        out += text[i + 1];
        i += 2;
        continue;
      }
      if (c == '"') in_string = false;
      ++i;
      continue;
    }
    if (c == '"') in_string = true;
    bool replaced = false;
    for (const std::string_view token : kTokens) {
      if (text.substr(i, token.size()) == token) {
        out += "null";
        i += token.size();
        ++count;
        replaced = true;
        break;
      }
    }
    if (replaced) continue;
    out += c;
    ++i;
  }
  return out;
}

// Replaces every number of the tree that is not finite with null; how many it replaced.
std::size_t null_non_finite(json::value& root) {
  std::size_t count = 0;
  std::vector<json::value*> stack{&root};
  while (!stack.empty()) {
    json::value* value = stack.back();
    stack.pop_back();
    if (value->is_double() && !std::isfinite(value->get_double())) {
      *value = nullptr;
      ++count;
    } else if (auto* object = value->if_object()) {
      for (auto& member : *object) stack.push_back(&member.value());
    } else if (auto* array = value->if_array()) {
      for (auto& element : *array) stack.push_back(&element);
    }
  }
  return count;
}

}  // namespace

result<json::value> parse_json_repairing(std::string_view text, std::string& repairs) {
  repairs.clear();
  if (auto parsed = parse_json(text)) return parsed;
  std::string fixed(text);
  std::size_t nulls = 0;
  // A repaired tree is written back (`parley repair`), so it must be one the log can hold: numbers
  // the parser read as infinity or NaN (1e999, 0e400) go the way of the Infinity tokens.
  const auto finish = [&](result<json::value> parsed) {
    if (!parsed) {
      repairs.clear();
      return parsed;
    }
    nulls += null_non_finite(*parsed);
    if (nulls > 0) {
      repairs += (repairs.empty() ? "" : "; ") + std::to_string(nulls) + " non-finite number(s) replaced by null";
    }
    return parsed;
  };
  if (!is_valid_utf8(fixed)) {
    auto utf8 = repair_utf8(fixed);
    repairs = std::to_string(utf8.replaced) + " invalid UTF-8 sequence(s) replaced by U+FFFD";
    fixed = std::move(utf8.text);
    if (auto parsed = parse_json(fixed)) return finish(std::move(parsed));
  }
  fixed = nulls_for_non_finite(fixed, nulls);
  return finish(parse_json(fixed));
}

std::optional<json_problem> find_unwritable_json(const json::value& value, std::string_view root) {
  if (tree_ok(value)) return std::nullopt;
  return walk(value, root);
}

std::optional<json_problem> find_unwritable_json(const json::object& value, std::string_view root) {
  bool fine = true;
  for (const auto& member : value) {
    if (!is_valid_utf8(member.key()) || !tree_ok(member.value())) {
      fine = false;
      break;
    }
  }
  if (fine) return std::nullopt;
  for (const auto& member : value) {
    const std::string_view key = member.key();
    if (auto bad = first_invalid_utf8(key)) {
      return json_problem{child_path(std::string(root), "<key>"), "a key: " + describe_invalid_utf8(key, *bad)};
    }
    if (auto problem = walk(member.value(), child_path(std::string(root), key))) return problem;
  }
  return std::nullopt;
}

result<json::value> parse_json_strict(std::string_view text) {
  auto parsed = parse_json(text);
  if (!parsed) return parsed;
  if (auto problem = find_unwritable_json(*parsed)) return make_error(errc::invalid_argument, problem->message());
  return parsed;
}

}  // namespace parley
