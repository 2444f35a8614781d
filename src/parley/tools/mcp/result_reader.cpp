#include "parley/tools/mcp/result_reader.hpp"

#include <boost/json/object.hpp>

#include <functional>

#include "parley/core/json_fields.hpp"

namespace parley::tools::mcp {

namespace json = boost::json;

namespace {

error malformed(std::string message) { return make_error(errc::invalid_argument, std::move(message)); }

result<const json::object*> result_object(const json::value& value) {
  if (!value.is_object()) return malformed("field 'result': expected an object");
  return &value.get_object();
}

std::string indexed(std::string_view where, std::size_t index) {
  return std::string(where) + "[" + std::to_string(index) + "]";
}

// Reads an embedded resource's contents (`resource` of a content block, or an entry of
// resources/read's `contents`): a uri and exactly one of text and blob.
result<resource_contents> read_contents(const json::object& obj, const std::string& where) {
  json_fields in(obj, where);
  resource_contents out;
  out.uri = in.string("uri");
  out.mime_type = in.optional_string("mimeType").value_or("");
  auto text = in.optional_string("text");
  auto blob = in.optional_string("blob");
  PARLEY_TRY(in.status());
  if (text.has_value() == blob.has_value()) {
    return malformed("field '" + where + "': expected exactly one of 'text' and 'blob'");
  }
  out.is_blob = blob.has_value();
  out.text = std::move(text).value_or("");
  out.blob = std::move(blob).value_or("");
  return out;
}

result<content_block> read_content_block(const json::value& value, const std::string& where) {
  const auto* obj = value.if_object();
  if (obj == nullptr) return malformed("field '" + where + "': expected an object");
  json_fields in(*obj, where);
  const std::string type = in.string("type");
  PARLEY_TRY(in.status());
  content_block out;
  if (type == "text") {
    out.what = content_block::kind::text;
    out.text = in.string("text");
  } else if (type == "image" || type == "audio") {
    out.what = type == "image" ? content_block::kind::image : content_block::kind::audio;
    out.data = in.string("data");
    out.mime_type = in.string("mimeType");
  } else if (type == "resource_link") {
    out.what = content_block::kind::resource_link;
    out.uri = in.string("uri");
    out.name = in.string("name");
    out.mime_type = in.optional_string("mimeType").value_or("");
    out.description = in.optional_string("description").value_or("");
  } else if (type == "resource") {
    out.what = content_block::kind::resource;
    const auto* embedded = in.object("resource");
    PARLEY_TRY(in.status());
    auto contents = read_contents(*embedded, where + ".resource");
    if (!contents) return std::move(contents).err();
    out.uri = std::move(contents->uri);
    out.mime_type = std::move(contents->mime_type);
    out.blob = contents->is_blob;
    out.text = std::move(contents->text);
    out.data = std::move(contents->blob);
  } else {
    return malformed("field '" + where + ".type': unknown content type '" + type +
                     "' (expected text, image, audio, resource_link or resource)");
  }
  PARLEY_TRY(in.status());
  return out;
}

// A list result: its array `key`, each entry read by `read` (or skipped with its problem), and
// the optional nextCursor.
template <class T>
result<listed_page<T>> read_page(const json::value& value, std::string_view key,
                                 const std::function<result<T>(const json::object&, const std::string&)>& read) {
  auto obj = result_object(value);
  if (!obj) return std::move(obj).err();
  json_fields in(**obj, "result");
  const auto* entries = in.array(key);
  auto cursor = in.optional_string("nextCursor");
  PARLEY_TRY(in.status());
  listed_page<T> page;
  page.next_cursor = std::move(cursor);
  for (std::size_t i = 0; i < entries->size(); ++i) {
    const std::string where = indexed(std::string(key), i);
    const auto* entry = (*entries)[i].if_object();
    if (entry == nullptr) {
      page.skipped.push_back("field '" + where + "': expected an object");
      continue;
    }
    auto item = read(*entry, where);
    if (!item) {
      page.skipped.push_back(std::move(item).err().message);
      continue;
    }
    page.items.push_back(std::move(*item));
  }
  return page;
}

result<tool_info> read_tool(const json::object& obj, const std::string& where) {
  json_fields in(obj, where);
  tool_info out;
  out.name = in.string("name");
  out.title = in.optional_string("title").value_or("");
  out.description = in.optional_string("description").value_or("");
  const auto* schema = in.object("inputSchema");
  PARLEY_TRY(in.status());
  out.input_schema = *schema;
  return out;
}

result<resource_info> read_resource(const json::object& obj, const std::string& where) {
  json_fields in(obj, where);
  resource_info out;
  out.uri = in.string("uri");
  out.name = in.string("name");
  out.title = in.optional_string("title").value_or("");
  out.description = in.optional_string("description").value_or("");
  out.mime_type = in.optional_string("mimeType").value_or("");
  PARLEY_TRY(in.status());
  return out;
}

result<resource_template_info> read_resource_template(const json::object& obj, const std::string& where) {
  json_fields in(obj, where);
  resource_template_info out;
  out.uri_template = in.string("uriTemplate");
  out.name = in.string("name");
  out.title = in.optional_string("title").value_or("");
  out.description = in.optional_string("description").value_or("");
  out.mime_type = in.optional_string("mimeType").value_or("");
  PARLEY_TRY(in.status());
  return out;
}

result<prompt_info> read_prompt(const json::object& obj, const std::string& where) {
  json_fields in(obj, where);
  prompt_info out;
  out.name = in.string("name");
  out.title = in.optional_string("title").value_or("");
  out.description = in.optional_string("description").value_or("");
  const auto* arguments = in.optional_array("arguments");
  PARLEY_TRY(in.status());
  if (arguments == nullptr) return out;
  for (std::size_t i = 0; i < arguments->size(); ++i) {
    const std::string at = where + "." + indexed("arguments", i);
    const auto* argument = (*arguments)[i].if_object();
    if (argument == nullptr) return malformed("field '" + at + "': expected an object");
    json_fields arg(*argument, at);
    prompt_argument read{arg.string("name"), arg.optional_string("description").value_or(""),
                         arg.optional_boolean("required").value_or(false)};
    PARLEY_TRY(arg.status());
    out.arguments.push_back(std::move(read));
  }
  return out;
}

}  // namespace

bool is_supported_protocol_version(std::string_view version) {
  for (const char* known : kSupportedProtocolVersions) {
    if (version == known) return true;
  }
  return false;
}

result<server_identity> read_initialize_result(const json::value& value) {
  auto obj = result_object(value);
  if (!obj) return std::move(obj).err();
  json_fields in(**obj, "result");
  server_identity out;
  out.protocol_version = in.string("protocolVersion");
  const auto* capabilities = in.object("capabilities");
  const auto* info = in.object("serverInfo");
  out.instructions = in.optional_string("instructions").value_or("");
  PARLEY_TRY(in.status());
  json_fields server(*info, "result.serverInfo");
  out.name = server.string("name");
  out.version = server.string("version");
  PARLEY_TRY(server.status());
  json_fields offered(*capabilities, "result.capabilities");
  out.has_tools = offered.optional_object("tools") != nullptr;
  out.has_resources = offered.optional_object("resources") != nullptr;
  out.has_prompts = offered.optional_object("prompts") != nullptr;
  PARLEY_TRY(offered.status());
  return out;
}

result<listed_page<tool_info>> read_tools_page(const json::value& value) {
  return read_page<tool_info>(value, "tools", read_tool);
}

result<tool_call_result> read_tool_call_result(const json::value& value) {
  auto obj = result_object(value);
  if (!obj) return std::move(obj).err();
  json_fields in(**obj, "result");
  const auto* content = in.array("content");
  tool_call_result out;
  out.is_error = in.optional_boolean("isError").value_or(false);
  if (const auto* structured = in.optional_object("structuredContent")) out.structured_content = *structured;
  PARLEY_TRY(in.status());
  out.content.reserve(content->size());
  for (std::size_t i = 0; i < content->size(); ++i) {
    auto block = read_content_block((*content)[i], "result." + indexed("content", i));
    if (!block) return std::move(block).err();
    out.content.push_back(std::move(*block));
  }
  return out;
}

result<listed_page<resource_info>> read_resources_page(const json::value& value) {
  return read_page<resource_info>(value, "resources", read_resource);
}

result<listed_page<resource_template_info>> read_resource_templates_page(const json::value& value) {
  return read_page<resource_template_info>(value, "resourceTemplates", read_resource_template);
}

result<std::vector<resource_contents>> read_resource_result(const json::value& value) {
  auto obj = result_object(value);
  if (!obj) return std::move(obj).err();
  json_fields in(**obj, "result");
  const auto* contents = in.array("contents");
  PARLEY_TRY(in.status());
  std::vector<resource_contents> out;
  for (std::size_t i = 0; i < contents->size(); ++i) {
    const std::string where = "result." + indexed("contents", i);
    const auto* entry = (*contents)[i].if_object();
    if (entry == nullptr) return malformed("field '" + where + "': expected an object");
    auto read = read_contents(*entry, where);
    if (!read) return std::move(read).err();
    out.push_back(std::move(*read));
  }
  return out;
}

result<listed_page<prompt_info>> read_prompts_page(const json::value& value) {
  return read_page<prompt_info>(value, "prompts", read_prompt);
}

result<prompt_result> read_prompt_result(const json::value& value) {
  auto obj = result_object(value);
  if (!obj) return std::move(obj).err();
  json_fields in(**obj, "result");
  prompt_result out;
  out.description = in.optional_string("description").value_or("");
  const auto* messages = in.array("messages");
  PARLEY_TRY(in.status());
  for (std::size_t i = 0; i < messages->size(); ++i) {
    const std::string where = "result." + indexed("messages", i);
    const auto* entry = (*messages)[i].if_object();
    if (entry == nullptr) return malformed("field '" + where + "': expected an object");
    json_fields message(*entry, where);
    prompt_message read;
    read.role = message.string("role");
    const auto* content = message.value("content");
    PARLEY_TRY(message.status());
    if (read.role != "user" && read.role != "assistant") {
      return malformed("field '" + where + ".role': expected user or assistant, got '" + read.role + "'");
    }
    auto block = read_content_block(*content, where + ".content");
    if (!block) return std::move(block).err();
    read.content = std::move(*block);
    out.messages.push_back(std::move(read));
  }
  return out;
}

}  // namespace parley::tools::mcp
