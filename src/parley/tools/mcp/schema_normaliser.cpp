#include "parley/tools/mcp/schema_normaliser.hpp"

#include <boost/json/array.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <string_view>

#include "parley/tools/schema_check.hpp"

namespace parley::tools::mcp {

namespace json = boost::json;

namespace {

constexpr std::array<std::string_view, 9> kSharedFormats = {"date-time", "date", "time", "duration", "email",
                                                            "hostname",  "ipv4", "ipv6", "uuid"};
constexpr std::array<std::string_view, 3> kDroppedKeys = {"$schema", "$id", "$comment"};
constexpr std::array<std::string_view, 3> kSchemaMaps = {"properties", "$defs", "definitions"};
constexpr std::array<std::string_view, 3> kSchemaLists = {"allOf", "anyOf", "oneOf"};

template <std::size_t N>
bool listed(const std::array<std::string_view, N>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

error refused(const std::string& path, const std::string& problem) {
  return make_error(errc::invalid_argument, path + ": " + problem);
}

bool valid_property_name(std::string_view name) {
  if (name.empty() || name.size() > 64) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '.' || c == '-';
  });
}

bool has_type(const json::object& schema, std::string_view type) {
  const auto* declared = schema.if_contains("type");
  if (declared == nullptr) return false;
  if (declared->is_string()) return declared->get_string() == type;
  if (const auto* list = declared->if_array()) {
    return std::any_of(list->begin(), list->end(),
                       [&](const json::value& entry) { return entry.is_string() && entry.get_string() == type; });
  }
  return false;
}

class normaliser {
 public:
  result<json::value> schema(const json::value& value, const std::string& path, std::size_t depth) const {
    if (depth > kMaxSchemaDepth) {
      return refused(path, "nested deeper than " + std::to_string(kMaxSchemaDepth) + " levels");
    }
    if (value.is_bool()) return value.get_bool() ? json::value(json::object{}) : json::object{{"not", json::object{}}};
    const auto* object = value.if_object();
    if (object == nullptr) return refused(path, "a schema must be an object or a boolean");
    auto normalised = schema_object(*object, path, depth);
    if (!normalised) return std::move(normalised).err();
    return json::value(std::move(*normalised));
  }

  result<json::object> schema_object(const json::object& in, const std::string& path, std::size_t depth) const {
    json::object out;
    json::array tuple;                // the members of a tuple, from prefixItems or a list of items
    std::optional<json::value> rest;  // the schema of the items after the tuple's
    for (const auto& [key, value] : in) {
      const std::string here = path + "." + std::string(key);
      if (listed(kDroppedKeys, key)) continue;
      if (key == "format") {
        if (value.is_string() && listed(kSharedFormats, value.get_string())) out[key] = value;
      } else if (listed(kSchemaMaps, key) && value.is_object()) {
        json::object map;
        for (const auto& [name, sub] : value.get_object()) {
          if (key == "properties" && !valid_property_name(name)) {
            return refused(here, "property name '" + std::string(name) +
                                     "' is not accepted by Anthropic's API (letters, digits, _ . - only, at most 64)");
          }
          auto normalised = schema(sub, here + "." + std::string(name), depth + 1);
          if (!normalised) return std::move(normalised).err();
          map[name] = std::move(*normalised);
        }
        out[key] = std::move(map);
      } else if (listed(kSchemaLists, key) && value.is_array()) {
        json::array list;
        for (std::size_t i = 0; i < value.get_array().size(); ++i) {
          auto normalised = schema(value.get_array()[i], here + "[" + std::to_string(i) + "]", depth + 1);
          if (!normalised) return std::move(normalised).err();
          list.push_back(std::move(*normalised));
        }
        out[key] = std::move(list);
      } else if ((key == "prefixItems" || key == "items") && value.is_array()) {
        for (std::size_t i = 0; i < value.get_array().size(); ++i) {
          auto normalised = schema(value.get_array()[i], here + "[" + std::to_string(i) + "]", depth + 1);
          if (!normalised) return std::move(normalised).err();
          tuple.push_back(std::move(*normalised));
        }
      } else if (key == "items" || key == "not" || (key == "additionalProperties" && !value.is_bool())) {
        auto normalised = schema(value, here, depth + 1);
        if (!normalised) return std::move(normalised).err();
        if (key == "items" && in.contains("prefixItems")) {
          rest = std::move(*normalised);  // 2020-12: items after the tuple's
        } else {
          out[key] = std::move(*normalised);
        }
      } else if (key == "additionalItems") {
        // draft 7: items after a tuple's; false (none) cannot be said once the tuple is one schema.
        if (!value.is_bool()) {
          auto normalised = schema(value, here, depth + 1);
          if (!normalised) return std::move(normalised).err();
          rest = std::move(*normalised);
        }
      } else {
        out[key] = value;
      }
    }
    if (!tuple.empty() || rest) {
      if (rest) tuple.push_back(std::move(*rest));
      json::array members;  // each schema once: a pair of numbers is items of type number
      for (auto& member : tuple) {
        if (std::find(members.begin(), members.end(), member) == members.end()) members.push_back(std::move(member));
      }
      tuple = std::move(members);
      out["items"] = tuple.size() == 1 ? tuple[0] : json::object{{"anyOf", std::move(tuple)}};
    }
    if (has_type(out, "object") && !out.contains("properties")) out["properties"] = json::object{};
    if (has_type(out, "array") && !out.contains("items")) out["items"] = json::object{};
    return out;
  }
};

// The object alternatives of a top-level combiner: the branches that are (or refer to) objects.
std::vector<json::object> object_branches(const json::object& root, const json::array& branches) {
  std::vector<json::object> out;
  for (const auto& branch : branches) {
    const auto* object = branch.if_object();
    if (object == nullptr) continue;
    if (const auto* ref = object->if_contains("$ref"); ref != nullptr && ref->is_string()) {
      auto target = resolve_local_ref(root, ref->get_string());
      if (!target || *target == nullptr || !(*target)->is_object()) continue;
      object = &(*target)->get_object();
    }
    if (object->contains("type") && !has_type(*object, "object")) continue;
    out.push_back(*object);
  }
  return out;
}

std::vector<std::string> required_of(const json::object& schema) {
  std::vector<std::string> names;
  const auto* required = schema.if_contains("required");
  if (required == nullptr || !required->is_array()) return names;
  for (const auto& name : required->get_array()) {
    if (name.is_string()) names.emplace_back(name.get_string());
  }
  return names;
}

// Merges the top-level `combiner` (allOf, anyOf, oneOf) into the top: the branches' properties
// (one named by several branches takes all their schemas, under the same combiner), and the
// required names of all branches (allOf) or of every branch (anyOf, oneOf).
void merge_top_level(json::object& top, std::string_view combiner) {
  const auto* value = top.if_contains(combiner);
  if (value == nullptr || !value->is_array()) return;
  const json::array branches_value = value->get_array();
  top.erase(combiner);
  const auto branches = object_branches(top, branches_value);
  auto& properties = top["properties"].as_object();  // normalise_tool_schema made it an object
  const bool all = combiner == "allOf";
  std::vector<std::string> required = required_of(top);
  std::optional<std::vector<std::string>> common;
  for (const auto& branch : branches) {
    if (const auto* listed_properties = branch.if_contains("properties");
        listed_properties != nullptr && listed_properties->is_object()) {
      for (const auto& [name, schema] : listed_properties->get_object()) {
        if (auto* existing = properties.if_contains(name); existing != nullptr && *existing != schema) {
          *existing = json::object{{combiner, json::array{*existing, schema}}};
        } else {
          properties[name] = schema;
        }
      }
    }
    auto names = required_of(branch);
    if (all) {
      required.insert(required.end(), names.begin(), names.end());
    } else if (!common) {
      common = std::move(names);
    } else {
      std::erase_if(
          *common, [&](const std::string& name) { return std::find(names.begin(), names.end(), name) == names.end(); });
    }
  }
  if (common) required.insert(required.end(), common->begin(), common->end());
  json::array unique;
  for (const auto& name : required) {
    if (std::find(unique.begin(), unique.end(), json::value(name)) == unique.end()) unique.emplace_back(name);
  }
  if (unique.empty()) {
    top.erase("required");
  } else {
    top["required"] = std::move(unique);
  }
}

}  // namespace

result<json::object> normalise_tool_schema(const json::object& input_schema) {
  auto normalised = normaliser{}.schema_object(input_schema, "inputSchema", 0);
  if (!normalised) return std::move(normalised).err();
  json::object top = std::move(*normalised);
  if (const auto* type = top.if_contains("type");
      type != nullptr && !(type->is_string() && type->get_string() == "object")) {
    if (!has_type(top, "object")) {
      return refused("inputSchema.type",
                     "the arguments must be an object, and this schema says " + json::serialize(*type));
    }
  }
  top["type"] = "object";
  if (const auto* properties = top.if_contains("properties"); properties == nullptr || !properties->is_object()) {
    if (properties != nullptr) return refused("inputSchema.properties", "expected an object of schemas");
    top["properties"] = json::object{};
  }
  for (const std::string_view combiner : {"allOf", "anyOf", "oneOf"}) merge_top_level(top, combiner);
  for (const std::string_view dropped : {"not", "enum", "const"}) top.erase(dropped);
  if (const std::size_t size = json::serialize(top).size(); size > kMaxSchemaBytes) {
    return refused("inputSchema", "is " + std::to_string(size) + " bytes, more than the " +
                                      std::to_string(kMaxSchemaBytes) + " a tool's schema may have");
  }
  return top;
}

}  // namespace parley::tools::mcp
