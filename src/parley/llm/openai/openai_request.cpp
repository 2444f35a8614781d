#include "parley/llm/openai/openai_request.hpp"

#include <boost/json/array.hpp>

#include <array>
#include <string_view>

namespace parley::llm::openai {

namespace json = boost::json;

namespace {

constexpr std::array<std::string_view, 5> kOwnedKeys = {"model", "messages", "tools", "stream", "stream_options"};

bool owned(std::string_view key) {
  for (const auto owned_key : kOwnedKeys) {
    if (key == owned_key) return true;
  }
  return false;
}

json::object assistant_message(const chat_message& message) {
  json::object out{{"role", "assistant"}};
  // With tool calls and no text, OpenAI wants content null rather than "".
  if (message.content.empty() && !message.tool_calls.empty()) {
    out["content"] = nullptr;
  } else {
    out["content"] = message.content;
  }
  if (!message.tool_calls.empty()) {
    json::array calls;
    for (const auto& call : message.tool_calls) {
      calls.push_back(json::object{
          {"id", call.id},
          {"type", "function"},
          {"function",
           json::object{{"name", call.name}, {"arguments", call.arguments.empty() ? "{}" : call.arguments}}}});
    }
    out["tool_calls"] = std::move(calls);
  }
  return out;
}

// Text and media as the chat completions API takes them: images as data URLs, audio as input_audio.
json::object user_message(const chat_message& message) {
  if (message.media.empty()) return {{"role", "user"}, {"content", message.content}};
  json::array parts;
  if (!message.content.empty()) parts.push_back(json::object{{"type", "text"}, {"text", message.content}});
  for (const auto& part : message.media) {
    if (part.kind == "image") {
      parts.push_back(
          json::object{{"type", "image_url"},
                       {"image_url", json::object{{"url", "data:" + part.mime + ";base64," + part.data_base64}}}});
    } else {
      parts.push_back(json::object{{"type", "input_audio"},
                                   {"input_audio", json::object{{"data", part.data_base64}, {"format", part.format}}}});
    }
  }
  return {{"role", "user"}, {"content", std::move(parts)}};
}

json::object to_message(const chat_message& message) {
  switch (message.role) {
    case role::system:
      return {{"role", "system"}, {"content", message.content}};
    case role::user:
      return user_message(message);
    case role::assistant:
      return assistant_message(message);
    case role::tool:
      return {{"role", "tool"}, {"tool_call_id", message.tool_call_id}, {"content", message.content}};
  }
  return {};
}

}  // namespace

json::array tools_json(const std::vector<tool_spec>& tools) {
  json::array out;
  for (const auto& tool : tools) {
    json::object function{{"name", tool.name}, {"description", tool.description}};
    function["parameters"] =
        tool.parameters.empty() ? json::object{{"type", "object"}, {"properties", json::object{}}} : tool.parameters;
    out.push_back(json::object{{"type", "function"}, {"function", std::move(function)}});
  }
  return out;
}

json::object build_request_body(const model_request& request, bool streaming) {
  json::object body;
  for (const auto& param : request.params) {
    if (!owned(param.key())) body[param.key()] = param.value();
  }
  body["model"] = request.model;
  json::array messages;
  if (!request.system_prompt.empty()) {
    messages.push_back(json::object{{"role", "system"}, {"content", request.system_prompt}});
  }
  for (const auto& message : request.messages) messages.push_back(to_message(message));
  body["messages"] = std::move(messages);
  if (streaming) {
    body["stream"] = true;
    body["stream_options"] = json::object{{"include_usage", true}};
  }
  return body;
}

}  // namespace parley::llm::openai
