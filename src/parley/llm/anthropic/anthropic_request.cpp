#include "parley/llm/anthropic/anthropic_request.hpp"

#include <boost/json/array.hpp>

#include <array>
#include <string_view>

#include "parley/core/json.hpp"

namespace parley::llm::anthropic {

namespace {

constexpr std::array<std::string_view, 5> kOwnedKeys = {"model", "messages", "system", "tools", "stream"};

bool owned(std::string_view key) {
  for (const auto owned_key : kOwnedKeys) {
    if (key == owned_key) return true;
  }
  return false;
}

json::object text_block(const std::string& text) { return {{"type", "text"}, {"text", text}}; }

// Tool arguments are JSON text as the model wrote them; the API wants the object itself.
json::value tool_input(const std::string& arguments) {
  auto parsed = parse_json(arguments);
  if (parsed && parsed->is_object()) return std::move(*parsed);
  return json::object{};
}

json::array assistant_blocks(const chat_message& message) {
  json::array blocks;
  // Thinking without its signature would be rejected, so it is only sent back when signed.
  if (!message.thinking.empty() && !message.thinking_signature.empty()) {
    blocks.push_back(
        json::object{{"type", "thinking"}, {"thinking", message.thinking}, {"signature", message.thinking_signature}});
  }
  if (!message.content.empty()) blocks.push_back(text_block(message.content));
  for (const auto& call : message.tool_calls) {
    blocks.push_back(json::object{
        {"type", "tool_use"}, {"id", call.id}, {"name", call.name}, {"input", tool_input(call.arguments)}});
  }
  return blocks;
}

json::array user_blocks(const chat_message& message) {
  json::array blocks;
  if (message.role == role::tool) {
    blocks.push_back(
        json::object{{"type", "tool_result"}, {"tool_use_id", message.tool_call_id}, {"content", message.content}});
    return blocks;
  }
  // Images come before the words about them, as Anthropic recommends; its models take no audio.
  for (const auto& part : message.media) {
    if (part.kind == "image") {
      blocks.push_back(json::object{
          {"type", "image"},
          {"source", json::object{{"type", "base64"}, {"media_type", part.mime}, {"data", part.data_base64}}}});
    } else {
      blocks.push_back(text_block("[an audio recording (" + part.format + ") this model cannot hear]"));
    }
  }
  if (!message.content.empty()) blocks.push_back(text_block(message.content));
  return blocks;
}

// Appends a message, merging it into the previous one when both have the same role.
void append(json::array& messages, std::string_view role_name, json::array blocks) {
  if (blocks.empty()) return;  // empty content is rejected
  if (!messages.empty()) {
    auto& last = messages.back().as_object();
    if (last["role"].as_string() == role_name) {
      auto& content = last["content"].as_array();
      for (auto& block : blocks) content.push_back(std::move(block));
      return;
    }
  }
  messages.push_back(json::object{{"role", role_name}, {"content", std::move(blocks)}});
}

}  // namespace

json::array tools_json(const std::vector<tool_spec>& tools) {
  json::array out;
  for (const auto& tool : tools) {
    json::object schema =
        tool.parameters.empty() ? json::object{{"type", "object"}, {"properties", json::object{}}} : tool.parameters;
    out.push_back(
        json::object{{"name", tool.name}, {"description", tool.description}, {"input_schema", std::move(schema)}});
  }
  return out;
}

json::object build_request_body(const model_request& request, bool streaming) {
  json::object body;
  for (const auto& param : request.params) {
    if (!owned(param.key())) body[param.key()] = param.value();
  }
  body["model"] = request.model;
  if (!body.contains("max_tokens")) body["max_tokens"] = kDefaultMaxTokens;

  std::string system = request.system_prompt;
  json::array messages;
  for (const auto& message : request.messages) {
    switch (message.role) {
      case role::system:
        if (!system.empty() && !message.content.empty()) system += "\n\n";
        system += message.content;
        break;
      case role::assistant:
        append(messages, "assistant", assistant_blocks(message));
        break;
      case role::user:
      case role::tool:
        append(messages, "user", user_blocks(message));
        break;
    }
  }
  if (!system.empty()) body["system"] = system;
  body["messages"] = std::move(messages);
  if (streaming) body["stream"] = true;
  return body;
}

}  // namespace parley::llm::anthropic
