#include "parley/tools/schema_check.hpp"

#include <boost/json/serialize.hpp>

#include <array>
#include <regex>
#include <string>

namespace parley::tools {

namespace json = boost::json;

namespace {

constexpr std::array kAnnotations = {"description", "title",   "default",  "examples",         "format",
                                     "$schema",     "$id",     "$comment", "readOnly",         "writeOnly",
                                     "deprecated",  "$anchor", "nullable", "contentMediaType", "contentEncoding"};
// Keywords whose value is a schema, a list of schemas, or a map of names to schemas.
constexpr std::array kSchemaKeywords = {"additionalProperties", "items", "not"};
constexpr std::array kSchemaListKeywords = {"allOf", "anyOf", "oneOf"};
constexpr std::array kSchemaMapKeywords = {"properties", "$defs", "definitions"};
constexpr std::array kCountKeywords = {"minLength", "maxLength",     "minItems",
                                       "maxItems",  "minProperties", "maxProperties"};
constexpr std::array kNumberKeywords = {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"};
constexpr std::array kTypes = {"string", "number", "integer", "boolean", "object", "array", "null"};

template <std::size_t N>
bool one_of(const std::array<const char*, N>& names, std::string_view name) {
  for (const char* known : names) {
    if (name == known) return true;
  }
  return false;
}

class schema_checker {
 public:
  explicit schema_checker(const json::object& root) : root_(root) {}

  result<void> check(const json::value& schema, const std::string& path) const {
    if (schema.is_bool()) return ok();
    const auto* object = schema.if_object();
    if (object == nullptr) return fail(path, "a schema must be an object or a boolean");
    for (const auto& entry : *object) PARLEY_TRY(check_keyword(entry.key(), entry.value(), path));
    return ok();
  }

 private:
  static error fail(const std::string& path, const std::string& problem) {
    return make_error(errc::invalid_argument, path + ": " + problem);
  }

  result<void> check_keyword(std::string_view key, const json::value& value, const std::string& path) const {
    const std::string here = path + "." + std::string(key);
    if (one_of(kAnnotations, key)) return ok();
    if (one_of(kSchemaKeywords, key)) {
      if (key == "items" && value.is_array()) {
        return fail(here, "a list of schemas (tuple validation) is not supported; use one schema for every item");
      }
      return check(value, here);
    }
    if (one_of(kSchemaListKeywords, key)) {
      const auto* list = value.if_array();
      if (list == nullptr || list->empty()) return fail(here, "expected a non-empty array of schemas");
      for (std::size_t i = 0; i < list->size(); ++i)
        PARLEY_TRY(check((*list)[i], here + "[" + std::to_string(i) + "]"));
      return ok();
    }
    if (one_of(kSchemaMapKeywords, key)) {
      const auto* map = value.if_object();
      if (map == nullptr) return fail(here, "expected an object of schemas");
      for (const auto& entry : *map) PARLEY_TRY(check(entry.value(), here + "." + std::string(entry.key())));
      return ok();
    }
    if (one_of(kCountKeywords, key)) {
      if (!(value.is_int64() && value.get_int64() >= 0) && !value.is_uint64()) {
        return fail(here, "expected a non-negative integer");
      }
      return ok();
    }
    if (one_of(kNumberKeywords, key)) {
      if (!value.is_number()) return fail(here, "expected a number");
      if (key == "multipleOf" && !(value.to_number<double>() > 0)) return fail(here, "expected a number above 0");
      return ok();
    }
    if (key == "type") return check_type(value, here);
    if (key == "required") {
      const auto* list = value.if_array();
      if (list == nullptr) return fail(here, "expected an array of property names");
      for (const auto& name : *list) {
        if (!name.is_string()) return fail(here, "expected an array of property names");
      }
      return ok();
    }
    if (key == "enum") return value.is_array() ? ok() : fail(here, "expected an array");
    if (key == "const") return ok();
    if (key == "uniqueItems") return value.is_bool() ? ok() : fail(here, "expected true or false");
    if (key == "pattern") return check_pattern(value, here);
    if (key == "$ref") {
      if (!value.is_string()) return fail(here, "expected a string");
      auto target = resolve_local_ref(root_, value.get_string());
      if (!target) return fail(here, target.err().message);
      return ok();
    }
    return fail(here, "keyword '" + std::string(key) +
                          "' is not supported by Parley's argument checks, so the tool's arguments could not be "
                          "checked against it; remove it or express it with the supported keywords "
                          "(src/parley/tools/json_schema.hpp)");
  }

  static result<void> check_type(const json::value& value, const std::string& here) {
    const auto known = [](const json::value& name) { return name.is_string() && one_of(kTypes, name.get_string()); };
    if (known(value)) return ok();
    if (const auto* list = value.if_array(); list != nullptr && !list->empty()) {
      for (const auto& name : *list) {
        if (!known(name)) return fail(here, "unknown type " + json::serialize(name));
      }
      return ok();
    }
    return fail(here, "expected one of string, number, integer, boolean, object, array, null (or a list of them)");
  }

  static result<void> check_pattern(const json::value& value, const std::string& here) {
    if (!value.is_string()) return fail(here, "expected a string");
    try {
      std::regex(std::string(value.get_string()), std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
      return fail(here, "the pattern does not compile: " + std::string(e.what()));
    }
    return ok();
  }

  const json::object& root_;
};

}  // namespace

result<const json::value*> resolve_local_ref(const json::object& root, std::string_view reference) {
  if (reference.empty() || reference.front() != '#') {
    return make_error(errc::invalid_argument,
                      "$ref '" + std::string(reference) + "' is not local; only references into the schema (#/…) are");
  }
  const json::value* at = nullptr;
  const json::object* object = &root;
  std::string_view pointer = reference.substr(1);
  while (!pointer.empty()) {
    if (pointer.front() != '/') break;
    pointer.remove_prefix(1);
    const auto slash = pointer.find('/');
    std::string token(pointer.substr(0, slash));
    pointer = slash == std::string_view::npos ? std::string_view() : pointer.substr(slash);
    for (std::size_t i = 0; (i = token.find('~', i)) != std::string::npos; ++i) {
      if (i + 1 >= token.size() || (token[i + 1] != '0' && token[i + 1] != '1')) {
        return make_error(errc::invalid_argument, "$ref '" + std::string(reference) + "': a '~' must be ~0 or ~1");
      }
      token.replace(i, 2, token[i + 1] == '1' ? "/" : "~");
    }
    if (object == nullptr || (at = object->if_contains(token)) == nullptr) {
      return make_error(errc::not_found, "$ref '" + std::string(reference) + "' names nothing in the schema");
    }
    object = at->if_object();
  }
  if (!pointer.empty()) {
    return make_error(errc::invalid_argument, "$ref '" + std::string(reference) + "' is not a JSON Pointer (#/…)");
  }
  return at;  // null for "#": the root itself
}

result<void> check_tool_schema(const json::object& schema, std::string_view where) {
  return schema_checker(schema).check(schema, std::string(where));
}

}  // namespace parley::tools
