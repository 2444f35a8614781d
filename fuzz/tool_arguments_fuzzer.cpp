// Tool-argument validation (tools/json_schema.hpp) against the real schemas: every builtin tool's
// and every dialog tool's. An input is `<tool name>\n<arguments text>`; a first line that names
// no tool picks one by its hash.
//  - Refused: errc::invalid_argument (never internal: the real schemas are sound), and when the
//    text is UTF-8 the message is too (it becomes a tool result in the log and goes to the model).
//  - Accepted: exactly when the text is blank or JSON; an object with every required property,
//    none unknown where the schema says so, top-level properties of the declared types; a tree
//    the log can hold; validating it again, or parsing its serialization, accepts the same object
//    (doubles within a few ULP: Boost.JSON 1.81's parser is not correctly rounded).
//  - A dialog tool's typed decoder (engine/dialog_tool_args.hpp) reads every object the schema
//    accepted (so its errors can only be the schema's), and refuses any other object with
//    invalid_argument naming the field.
#include <boost/json/serialize.hpp>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "parley/core/json.hpp"
#include "parley/core/json_check.hpp"
#include "parley/core/json_read.hpp"
#include "parley/core/utf8.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/dialog_tool_args.hpp"
#include "parley/engine/dialog_tools.hpp"
#include "parley/tools/json_schema.hpp"

namespace {

using namespace parley;
using parley::fuzz::as_text;

const std::vector<llm::tool_spec>& all_specs() {
  static const std::vector<llm::tool_spec> specs = [] {
    std::vector<llm::tool_spec> out;
    const tools::tool_registry registry = engine::build_builtin_tools();
    for (const auto& name : registry.names()) out.push_back(registry.find(name)->spec());
    for (const auto& name : engine::dialog_tool_names()) {
      if (const auto* spec = engine::find_dialog_tool_spec(name)) out.push_back(*spec);
    }
    return out;
  }();
  return specs;
}

bool has_type(const json::value& value, std::string_view type) {
  if (type == "string") return value.is_string();
  if (type == "boolean") return value.is_bool();
  if (type == "object") return value.is_object();
  if (type == "array") return value.is_array();
  if (type == "null") return value.is_null();
  if (type == "number") return value.is_number();
  if (type == "integer") {
    if (value.is_int64() || value.is_uint64()) return true;
    return value.is_double() && std::trunc(value.get_double()) == value.get_double();
  }
  return true;
}

// Required, additionalProperties: false and the `type` of each top-level property, checked
// without the validator.
void check_against_schema(const json::object& args, const json::object& schema, const std::string& tool) {
  if (const auto* required = json_array_at(schema, "required")) {
    for (const auto& name : *required) {
      if (name.is_string()) {
        FUZZ_CHECK(args.contains(name.get_string()),
                   tool + ": accepted without required " + std::string(name.get_string()));
      }
    }
  }
  const json::object* properties = json_object_at(schema, "properties");
  const auto* additional = schema.if_contains("additionalProperties");
  const bool closed = additional != nullptr && additional->is_bool() && !additional->get_bool();
  for (const auto& [key, value] : args) {
    const json::value* property = properties != nullptr ? properties->if_contains(key) : nullptr;
    FUZZ_CHECK(property != nullptr || !closed, tool + ": accepted unknown property " + std::string(key));
    if (property == nullptr || !property->is_object()) continue;
    const auto* type = property->get_object().if_contains("type");
    if (type == nullptr || !type->is_string()) continue;
    FUZZ_CHECK(has_type(value, type->get_string()), tool + ": accepted " + std::string(key) + " = " +
                                                        boost::json::serialize(value) + " as " +
                                                        std::string(type->get_string()));
  }
}

// The dialog tool's typed decoder on `args`: ok (nullopt) or its error; nullopt also for a tool
// without one.
std::optional<error> typed_decode(std::string_view tool, const json::object& args) {
  namespace dt = engine::dialog_tool;
  auto failed = [](const auto& read) { return read ? std::nullopt : std::optional<error>(read.err()); };
  if (tool == dt::tellask || tool == dt::tellask_sessionless || tool == dt::tellask_back ||
      tool == dt::fresh_boots_reasoning || tool == dt::ask_human) {
    return failed(engine::read_teammate_call_args(tool, args));
  }
  if (tool == dt::self_reflect) return failed(engine::read_self_reflect_args(args));
  if (tool == dt::add_reminder || tool == dt::update_reminder || tool == dt::delete_reminder) {
    return failed(engine::read_reminder_args(tool, args));
  }
  if (tool == dt::change_mind) return failed(engine::read_change_mind_args(args));
  if (tool == dt::clear_mind) return failed(engine::read_clear_mind_args(args));
  return std::nullopt;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input = as_text(data, size);
  const std::size_t newline = input.find('\n');
  const std::string_view name = input.substr(0, newline);
  const std::string_view text = newline == std::string_view::npos ? std::string_view{} : input.substr(newline + 1);

  const auto& specs = all_specs();
  const llm::tool_spec* spec = nullptr;
  for (const auto& candidate : specs) {
    if (candidate.name == name) spec = &candidate;
  }
  if (spec == nullptr) spec = &specs[std::hash<std::string_view>{}(name) % specs.size()];

  auto parsed = tools::parse_tool_arguments(text, spec->parameters);
  const bool blank = text.find_first_not_of(" \t\r\n") == std::string_view::npos;
  boost::system::error_code ec;
  const json::value as_json = blank ? json::value(json::object{}) : read_json(text, ec);
  if (!ec && as_json.is_object()) {
    if (auto problem = typed_decode(spec->name, as_json.get_object())) {
      FUZZ_CHECK(!parsed, spec->name + ": the typed decoder refused what the schema accepted: " + problem->message);
      FUZZ_CHECK(problem->code == errc::invalid_argument && problem->message.starts_with("field '"),
                 spec->name + ": a decoder error that names no field: " + problem->message);
    }
  }
  if (!parsed) {
    FUZZ_CHECK(parsed.err().code == errc::invalid_argument,
               spec->name + ": refused with a code other than invalid_argument: " + parsed.err().message);
    if (is_valid_utf8(text)) {
      FUZZ_CHECK(is_valid_utf8(parsed.err().message),
                 spec->name + ": the message for UTF-8 arguments is not UTF-8: " + parsed.err().message);
    }
    return 0;
  }
  FUZZ_CHECK(!ec && as_json.is_object(), spec->name + ": accepted text that is not a JSON object");
  const json::object& args = *parsed;
  FUZZ_CHECK(json::value(args) == as_json, spec->name + ": the arguments differ from the text's JSON");
  FUZZ_CHECK(!find_unwritable_json(args), spec->name + ": accepted arguments the log cannot hold");
  check_against_schema(args, spec->parameters, spec->name);
  FUZZ_CHECK(tools::validate_arguments(json::value(args), spec->parameters).has_value(),
             spec->name + ": accepted arguments fail validation");
  const std::string written = boost::json::serialize(args);
  auto again = tools::parse_tool_arguments(written, spec->parameters);
  FUZZ_CHECK(again && json::value(*again) == json::value(args),
             spec->name + ": the serialized arguments read differently: " + written);
  return 0;
}
