// The specs of the workspace tools (what the model reads) and their registration.
#include "parley/tools/workspace_tools.hpp"

#include <boost/json/array.hpp>

#include "parley/tools/function_tool.hpp"
#include "parley/tools/workspace_ops.hpp"

namespace parley::tools {
namespace {

namespace json = boost::json;

json::object text_property(std::string_view description) {
  return json::object{{"type", "string"}, {"description", description}};
}

json::object object_schema(json::object properties, json::array required) {
  return json::object{{"type", "object"},
                      {"properties", std::move(properties)},
                      {"required", std::move(required)},
                      {"additionalProperties", false}};
}

llm::tool_spec list_dir_spec() {
  return {"list_dir",
          "List a folder of the workspace: sub-folders end in '/', files show their size. Taskdoc packages "
          "(*.tsk) are marked and cannot be opened with file tools.",
          object_schema(json::object{{"path", text_property("Folder relative to the workspace; default '.'")}},
                        json::array{})};
}

llm::tool_spec read_file_spec() {
  json::object max_bytes{{"type", "integer"},
                         {"minimum", 1},
                         {"maximum", detail::kMaxReadBytes},
                         {"description", "Read at most this many bytes (default 262144)"}};
  return {"read_file", "Read a text file of the workspace.",
          object_schema(json::object{{"path", text_property("File relative to the workspace")},
                                     {"max_bytes", std::move(max_bytes)}},
                        json::array{"path"})};
}

llm::tool_spec write_file_spec() {
  return {"write_file",
          "Create or replace a text file of the workspace with the given content, creating missing folders.",
          object_schema(json::object{{"path", text_property("File relative to the workspace")},
                                     {"content", text_property("The complete new content of the file")}},
                        json::array{"path", "content"})};
}

llm::tool_spec edit_file_spec() {
  return {"edit_file",
          "Replace one passage of a text file: old_text must occur exactly once in the file, byte for byte.",
          object_schema(json::object{{"path", text_property("File relative to the workspace")},
                                     {"old_text", text_property("The exact text to replace (must occur once)")},
                                     {"new_text", text_property("The replacement text")}},
                        json::array{"path", "old_text", "new_text"})};
}

}  // namespace

void register_workspace_tools(tool_registry& registry) {
  registry.add(std::make_unique<function_tool>(list_dir_spec(), detail::list_dir, function_tool::effects::none));
  registry.add(std::make_unique<function_tool>(read_file_spec(), detail::read_file, function_tool::effects::none));
  registry.add(std::make_unique<function_tool>(write_file_spec(), detail::write_file));
  registry.add(std::make_unique<function_tool>(edit_file_spec(), detail::edit_file));
  registry.add_toolset("workspace", {"list_dir", "read_file", "write_file", "edit_file"});
  registry.add_toolset("workspace_read", {"list_dir", "read_file"});
}

}  // namespace parley::tools
