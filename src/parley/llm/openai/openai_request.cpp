#include "parley/llm/openai/openai_request.hpp"

#include <boost/json/array.hpp>

#include <array>
#include <string_view>

#include "parley/core/json_text.hpp"

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

void write_assistant(json_text_writer& w, const chat_message& message) {
  w.field("role", "assistant");
  // With tool calls and no text, OpenAI wants content null rather than "".
  if (message.content.empty() && !message.tool_calls.empty()) {
    w.key("content").null();
  } else {
    w.field("content", message.content);
  }
  if (message.tool_calls.empty()) return;
  w.key("tool_calls").begin_array();
  for (const auto& call : message.tool_calls) {
    w.begin_object().field("id", call.id).field("type", "function");
    w.key("function").begin_object().field("name", call.name);
    w.field("arguments", call.arguments.empty() ? std::string_view("{}") : std::string_view(call.arguments));
    w.end_object().end_object();
  }
  w.end_array();
}

// Text and media as the chat completions API takes them: images as data URLs, audio as input_audio.
void write_user(json_text_writer& w, const chat_message& message) {
  w.field("role", "user");
  if (message.media.empty()) {
    w.field("content", message.content);
    return;
  }
  w.key("content").begin_array();
  if (!message.content.empty()) w.begin_object().field("type", "text").field("text", message.content).end_object();
  for (const auto& part : message.media) {
    if (part.kind == media_kind::image) {
      w.begin_object().field("type", "image_url");
      w.key("image_url").begin_object().field("url", "data:" + part.mime + ";base64," + part.data_base64).end_object();
      w.end_object();
    } else {
      w.begin_object().field("type", "input_audio");
      w.key("input_audio").begin_object().field("data", part.data_base64).field("format", part.format).end_object();
      w.end_object();
    }
  }
  w.end_array();
}

void write_message(json_text_writer& w, const chat_message& message) {
  w.begin_object();
  switch (message.role) {
    case role::system:
      w.field("role", "system").field("content", message.content);
      break;
    case role::user:
      write_user(w, message);
      break;
    case role::assistant:
      write_assistant(w, message);
      break;
    case role::tool:
      w.field("role", "tool").field("tool_call_id", message.tool_call_id).field("content", message.content);
      break;
  }
  w.end_object();
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

std::string build_request_body(const model_request& request, bool streaming) {
  std::string body;
  body.reserve(body_size_hint(request));
  json_text_writer w(body);
  w.begin_object();
  for (const auto& param : request.params) {
    if (!owned(param.key())) w.key(param.key()).value(param.value());
  }
  w.field("model", request.model);
  w.key("messages").begin_array();
  if (!request.system_prompt.empty()) {
    w.begin_object().field("role", "system").field("content", request.system_prompt).end_object();
  }
  // Chat Completions takes images in user messages only: the images tool results carry (read_file
  // of a PNG) follow the run of tool messages they belong to, in one user message.
  chat_message tool_images;
  tool_images.role = role::user;
  auto flush_tool_images = [&] {
    if (tool_images.media.empty()) return;
    tool_images.content = "[the images of the tool results above]";
    write_message(w, tool_images);
    tool_images.media.clear();
  };
  for (const auto& message : request.messages) {
    if (message.role != role::tool) flush_tool_images();
    write_message(w, message);
    if (message.role == role::tool) {
      for (const auto& part : message.media) {
        if (part.kind == media_kind::image) tool_images.media.push_back(part);
      }
    }
  }
  flush_tool_images();
  w.end_array();
  if (streaming) {
    w.key("stream").boolean(true);
    w.key("stream_options").begin_object().key("include_usage").boolean(true).end_object();
  }
  w.end_object();
  return body;
}

}  // namespace parley::llm::openai
