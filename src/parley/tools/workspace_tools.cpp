// The specs of the workspace tools (what the model reads) and their registration.
#include "parley/tools/workspace_tools.hpp"

#include <boost/json/array.hpp>

#include "parley/tools/function_tool.hpp"
#include "parley/tools/search_tool.hpp"
#include "parley/tools/workspace_ops.hpp"

namespace parley::tools {
namespace {

namespace json = boost::json;

json::object text_property(std::string_view description) {
  return json::object{{"type", "string"}, {"description", description}};
}

json::object line_property(std::string_view description) {
  return json::object{{"type", "integer"}, {"minimum", 1}, {"description", description}};
}

json::object object_schema(json::object properties, json::array required) {
  return json::object{{"type", "object"},
                      {"properties", std::move(properties)},
                      {"required", std::move(required)},
                      {"additionalProperties", false}};
}

tool_spec list_dir_spec() {
  return {"list_dir",
          "List a folder of the workspace: sub-folders end in '/', files show their size. Taskdoc packages "
          "(*.tsk) are marked and cannot be opened with file tools.",
          object_schema(json::object{{"path", text_property("Folder relative to the workspace; default '.'")}},
                        json::array{})};
}

tool_spec read_file_spec() {
  json::object max_bytes{{"type", "integer"},
                         {"minimum", 1},
                         {"maximum", detail::kMaxReadBytes},
                         {"description", "Read at most this many bytes (default 262144)"}};
  json::object end_line{
      {"type", "integer"}, {"minimum", 0}, {"description", "Last line to read (inclusive); 0 or absent: to the end"}};
  return {"read_file",
          "Read a text file of the workspace, whole or by line range (start_line/end_line, 1-based; the answer "
          "then starts with the range and the file's line count). A PNG or JPEG image is given to you as an image "
          "if your model takes images.",
          object_schema(json::object{{"path", text_property("File relative to the workspace")},
                                     {"start_line", line_property("First line to read (1-based)")},
                                     {"end_line", std::move(end_line)},
                                     {"max_bytes", std::move(max_bytes)}},
                        json::array{"path"})};
}

tool_spec write_file_spec() {
  return {"write_file",
          "Create or replace a text file of the workspace with the given content, creating missing folders.",
          object_schema(json::object{{"path", text_property("File relative to the workspace")},
                                     {"content", text_property("The complete new content of the file")}},
                        json::array{"path", "content"})};
}

tool_spec edit_file_spec() {
  return {"edit_file",
          "Replace one passage of a text file: old_text must occur exactly once in the file, byte for byte, "
          "unless occurrence says which one to replace.",
          object_schema(
              json::object{{"path", text_property("File relative to the workspace")},
                           {"old_text", text_property("The exact text to replace (must occur once)")},
                           {"new_text", text_property("The replacement text")},
                           {"occurrence",
                            line_property("Replace this occurrence (1-based) when old_text occurs more than once")}},
              json::array{"path", "old_text", "new_text"})};
}

tool_spec replace_lines_spec() {
  json::object end_line{{"type", "integer"},
                        {"minimum", 0},
                        {"description", "Last line replaced (inclusive); start_line - 1 inserts before start_line"}};
  return {
      "replace_lines",
      "Replace lines start_line..end_line (1-based, inclusive) of a text file with new_text; an empty new_text "
      "deletes them, end_line = start_line - 1 inserts before start_line, start_line = line count + 1 appends.",
      object_schema(json::object{{"path", text_property("File relative to the workspace")},
                                 {"start_line", line_property("First line replaced (1-based)")},
                                 {"end_line", std::move(end_line)},
                                 {"new_text", text_property("The new lines; a final newline is added when missing")}},
                    json::array{"path", "start_line", "end_line", "new_text"})};
}

tool_spec insert_at_anchor_spec() {
  json::object position{{"type", "string"},
                        {"enum", json::array{"before", "after"}},
                        {"description", "Insert before or after the anchor's line (default after)"}};
  return {"insert_at_anchor",
          "Insert lines before or after the one line of a text file that contains anchor. An anchor found on "
          "several lines is an error unless occurrence chooses one.",
          object_schema(json::object{{"path", text_property("File relative to the workspace")},
                                     {"anchor", text_property("Text from the line to insert at (one line, exact)")},
                                     {"text", text_property("The lines to insert")},
                                     {"position", std::move(position)},
                                     {"occurrence",
                                      line_property("Which matching line (1-based) when the anchor is on several")}},
                        json::array{"path", "anchor", "text"})};
}

tool_spec apply_patch_spec() {
  return {"apply_patch",
          "Apply a patch to one or more files, in either format: a unified diff (diff -u / git diff: '--- a/path', "
          "'+++ b/path', '@@ -l,n +l,n @@' hunks; /dev/null creates or removes a file), or a Codex patch ('*** Begin "
          "Patch', then '*** Add File: path', '*** Update File: path' (optionally '*** Move to: path') with '@@' "
          "hunks of ' ', '-', '+' lines, or '*** Delete File: path', then '*** End Patch'). All or nothing: if any "
          "hunk does not apply, nothing changes and each rejected hunk is reported with why.",
          object_schema(json::object{{"patch", text_property("The unified diff, or the Codex patch from '*** Begin "
                                                             "Patch' to '*** End Patch'")}},
                        json::array{"patch"})};
}

tool_spec move_path_spec() {
  json::object overwrite{{"type", "boolean"}, {"description", "Replace an existing file at 'to' (default false)"}};
  return {"move_path", "Move or rename a file or folder of the workspace, creating missing folders.",
          object_schema(json::object{{"from", text_property("Path relative to the workspace")},
                                     {"to", text_property("New path relative to the workspace")},
                                     {"overwrite", std::move(overwrite)}},
                        json::array{"from", "to"})};
}

tool_spec remove_path_spec() {
  json::object recursive{{"type", "boolean"},
                         {"description", "Remove a folder with everything in it (default false: only an empty one)"}};
  return {"remove_path", "Remove a file, a symbolic link (not its target) or a folder of the workspace.",
          object_schema(json::object{{"path", text_property("Path relative to the workspace")},
                                     {"recursive", std::move(recursive)}},
                        json::array{"path"})};
}

tool_spec make_dir_spec() {
  return {
      "make_dir", "Create a folder of the workspace and any missing parents.",
      object_schema(json::object{{"path", text_property("Folder relative to the workspace")}}, json::array{"path"})};
}

}  // namespace

void register_workspace_tools(tool_registry& registry) {
  registry.add(std::make_unique<function_tool>(list_dir_spec(), detail::list_dir, function_tool::effects::none));
  registry.add(std::make_unique<function_tool>(read_file_spec(), detail::read_file, function_tool::effects::none));
  registry.add(std::make_unique<function_tool>(write_file_spec(), detail::write_file));
  registry.add(std::make_unique<function_tool>(edit_file_spec(), detail::edit_file));
  registry.add(std::make_unique<function_tool>(replace_lines_spec(), detail::replace_lines));
  registry.add(std::make_unique<function_tool>(insert_at_anchor_spec(), detail::insert_at_anchor));
  registry.add(std::make_unique<function_tool>(apply_patch_spec(), detail::apply_patch));
  registry.add(std::make_unique<function_tool>(move_path_spec(), detail::move_path));
  registry.add(std::make_unique<function_tool>(remove_path_spec(), detail::remove_path));
  registry.add(std::make_unique<function_tool>(make_dir_spec(), detail::make_dir));
  registry.add(make_search_tool());
  registry.add_toolset("workspace",
                       {"list_dir", "read_file", "search_files", "write_file", "edit_file", "replace_lines",
                        "insert_at_anchor", "apply_patch", "move_path", "remove_path", "make_dir"});
  registry.add_toolset("workspace_read", {"list_dir", "read_file", "search_files"});
}

}  // namespace parley::tools
