#include "parley/llm/anthropic/anthropic_request.hpp"

#include <boost/json/array.hpp>

#include <array>
#include <string_view>

#include "parley/core/json.hpp"
#include "parley/core/json_text.hpp"

namespace parley::llm::anthropic {

namespace {

constexpr std::array<std::string_view, 5> kOwnedKeys = {"model", "messages", "system", "tools", "stream"};

bool owned(std::string_view key) {
  for (const auto owned_key : kOwnedKeys) {
    if (key == owned_key) return true;
  }
  return false;
}

void write_text_block(json_text_writer& w, std::string_view text) {
  w.begin_object().field("type", "text").field("text", text).end_object();
}

// Tool arguments are JSON text as the model wrote them; the API wants the object itself, so they
// are sent as they are when they hold an object.
void write_tool_input(json_text_writer& w, const std::string& arguments) {
  auto parsed = parse_json(arguments);
  if (parsed && parsed->is_object()) {
    w.raw(arguments);
  } else {
    w.begin_object().end_object();
  }
}

// Thinking without its signature would be rejected, so it is only sent back when signed — by
// Anthropic: a signature in braces is the Responses API's reasoning items (responses_reasoning.hpp)
// of a turn the member's model took before it changed provider.
bool sends_thinking(const chat_message& message) {
  return !message.thinking.empty() && !message.thinking_signature.empty() && message.thinking_signature.front() != '{';
}

bool has_blocks(const chat_message& message) {
  switch (message.role) {
    case role::system:
      return false;
    case role::assistant:
      return sends_thinking(message) || !message.content.empty() || !message.tool_calls.empty();
    case role::tool:
      return true;
    case role::user:
      return !message.media.empty() || !message.content.empty();
  }
  return false;
}

void write_assistant_blocks(json_text_writer& w, const chat_message& message) {
  if (sends_thinking(message)) {
    w.begin_object().field("type", "thinking").field("thinking", message.thinking);
    w.field("signature", message.thinking_signature).end_object();
  }
  if (!message.content.empty()) write_text_block(w, message.content);
  for (const auto& call : message.tool_calls) {
    w.begin_object().field("type", "tool_use").field("id", call.id).field("name", call.name);
    write_tool_input(w.key("input"), call.arguments);
    w.end_object();
  }
}

void write_user_blocks(json_text_writer& w, const chat_message& message) {
  if (message.role == role::tool) {
    w.begin_object().field("type", "tool_result").field("tool_use_id", message.tool_call_id);
    if (message.media.empty()) {
      w.field("content", message.content).end_object();
      return;
    }
    // An image a tool read (read_file of a PNG): Anthropic takes it inside the tool_result.
    w.key("content").begin_array();
    write_text_block(w, message.content);
    for (const auto& part : message.media) {
      if (part.kind != media_kind::image) continue;
      w.begin_object().field("type", "image").key("source").begin_object().field("type", "base64");
      w.field("media_type", part.mime).field("data", part.data_base64).end_object().end_object();
    }
    w.end_array().end_object();
    return;
  }
  // Images come before the words about them, as Anthropic recommends; its models take no audio.
  for (const auto& part : message.media) {
    if (part.kind == media_kind::image) {
      w.begin_object().field("type", "image").key("source").begin_object().field("type", "base64");
      w.field("media_type", part.mime).field("data", part.data_base64).end_object().end_object();
    } else {
      write_text_block(w, "[an audio recording (" + part.format + ") this model cannot hear]");
    }
  }
  if (!message.content.empty()) write_text_block(w, message.content);
}

// The messages, each merged into the one before when both have the same role (Anthropic wants
// user and assistant to alternate); a message without blocks is left out, as empty content is
// rejected.
void write_messages(json_text_writer& w, const std::vector<chat_message>& messages) {
  w.begin_array();
  std::string_view open_role;
  for (const auto& message : messages) {
    if (!has_blocks(message)) continue;
    const std::string_view role_name = message.role == role::assistant ? "assistant" : "user";
    if (role_name != open_role) {
      if (!open_role.empty()) w.end_array().end_object();
      w.begin_object().field("role", role_name).key("content").begin_array();
      open_role = role_name;
    }
    if (message.role == role::assistant) {
      write_assistant_blocks(w, message);
    } else {
      write_user_blocks(w, message);
    }
  }
  if (!open_role.empty()) w.end_array().end_object();
  w.end_array();
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

std::string build_request_body(const model_request& request, bool streaming) {
  std::string body;
  body.reserve(body_size_hint(request));
  json_text_writer w(body);
  w.begin_object();
  for (const auto& param : request.params) {
    if (!owned(param.key())) w.key(param.key()).value(param.value());
  }
  w.field("model", request.model);
  if (!request.params.contains("max_tokens")) w.key("max_tokens").integer(kDefaultMaxTokens);
  std::string system = request.system_prompt;
  for (const auto& message : request.messages) {
    if (message.role != role::system) continue;
    if (!system.empty() && !message.content.empty()) system += "\n\n";
    system += message.content;
  }
  if (!system.empty()) w.field("system", system);
  write_messages(w.key("messages"), request.messages);
  if (streaming) w.key("stream").boolean(true);
  w.end_object();
  return body;
}

}  // namespace parley::llm::anthropic
