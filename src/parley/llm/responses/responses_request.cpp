#include "parley/llm/responses/responses_request.hpp"

#include <array>
#include <string_view>

#include "parley/core/json.hpp"
#include "parley/core/json_fields.hpp"
#include "parley/core/json_text.hpp"
#include "parley/llm/responses/responses_reasoning.hpp"

namespace parley::llm::responses {

namespace {

// Besides the body's own keys: Dominds' per-provider `model_params` namespaces, which are not API
// parameters (`codex` is translated, the others belong to other providers).
constexpr std::array<std::string_view, 14> kResponsesOwnedKeys = {"model",
                                                                  "input",
                                                                  "instructions",
                                                                  "tools",
                                                                  "stream",
                                                                  "store",
                                                                  "include",
                                                                  "codex",
                                                                  "openai",
                                                                  "previous_response_id",
                                                                  "max_output_tokens",
                                                                  "google",
                                                                  "anthropic",
                                                                  "max_tokens"};

bool responses_owned(std::string_view key) {
  for (const auto owned_key : kResponsesOwnedKeys) {
    if (key == owned_key) return true;
  }
  return false;
}

void write_input_image(json_text_writer& w, const media_part& part) {
  w.begin_object().field("type", "input_image");
  w.field("image_url", "data:" + part.mime + ";base64," + part.data_base64).end_object();
}

void write_user_message(json_text_writer& w, const chat_message& message) {
  if (message.media.empty() && message.content.empty()) return;
  w.begin_object().field("type", "message").field("role", "user").key("content").begin_array();
  for (const auto& part : message.media) {
    if (part.kind == media_kind::image) {
      write_input_image(w, part);
    } else {
      w.begin_object().field("type", "input_text");
      w.field("text", "[an audio recording (" + part.format + ") this model cannot hear]").end_object();
    }
  }
  if (!message.content.empty())
    w.begin_object().field("type", "input_text").field("text", message.content).end_object();
  w.end_array().end_object();
}

// Reasoning goes back only as the items this adapter received (with their encrypted content);
// thinking from another provider, or without items, stays in the log only.
void write_reasoning_items(json_text_writer& w, const chat_message& message) {
  const auto items = decode_reasoning_items(message.thinking_signature);
  if (!items) return;
  for (const auto& item : *items) {
    // The id is left out: with store false the server keeps no item it could refer to.
    w.begin_object().field("type", "reasoning").key("summary").begin_array();
    for (const auto& part : item.summary) {
      w.begin_object().field("type", "summary_text").field("text", part).end_object();
    }
    w.end_array();
    if (!item.encrypted_content.empty()) w.field("encrypted_content", item.encrypted_content);
    w.end_object();
  }
}

void write_assistant_items(json_text_writer& w, const chat_message& message) {
  write_reasoning_items(w, message);
  if (!message.content.empty()) {
    w.begin_object().field("type", "message").field("role", "assistant").key("content").begin_array();
    w.begin_object().field("type", "output_text").field("text", message.content).end_object();
    w.end_array().end_object();
  }
  for (const auto& call : message.tool_calls) {
    w.begin_object().field("type", "function_call").field("call_id", call.id).field("name", call.name);
    w.field("arguments", call.arguments.empty() ? std::string_view("{}") : std::string_view(call.arguments));
    w.end_object();
  }
}

void write_tool_output(json_text_writer& w, const chat_message& message) {
  w.begin_object().field("type", "function_call_output").field("call_id", message.tool_call_id);
  bool has_image = false;
  for (const auto& part : message.media) has_image = has_image || part.kind == media_kind::image;
  if (!has_image) {
    w.field("output", message.content).end_object();
    return;
  }
  // An image a tool read (read_file of a PNG) goes inside its output, as the API takes it there.
  w.key("output").begin_array();
  w.begin_object().field("type", "input_text").field("text", message.content).end_object();
  for (const auto& part : message.media) {
    if (part.kind == media_kind::image) write_input_image(w, part);
  }
  w.end_array().end_object();
}

void write_input(json_text_writer& w, const std::vector<chat_message>& messages) {
  w.begin_array();
  for (const auto& message : messages) {
    switch (message.role) {
      case role::system:
        break;  // in instructions
      case role::user:
        write_user_message(w, message);
        break;
      case role::assistant:
        write_assistant_items(w, message);
        break;
      case role::tool:
        write_tool_output(w, message);
        break;
    }
  }
  w.end_array();
}

// Dominds' `model_params.codex` as the Responses API spells it.
result<void> write_codex_params(json_text_writer& w, const model_request& request) {
  const auto* codex = request.params.if_contains("codex");
  if (codex == nullptr) return ok();
  if (!codex->is_object()) return make_error(errc::invalid_argument, "model_params.codex: expected a mapping");
  json_fields in(codex->get_object(), "model_params.codex");
  const auto effort = in.optional_string("reasoning_effort");
  const auto summary = in.optional_string("reasoning_summary");
  const auto tier = in.optional_string("service_tier");
  const auto parallel = in.optional_boolean("parallel_tool_calls");
  const auto verbosity = in.optional_string("verbosity");
  if (!in.ok()) return in.status();
  if ((effort || summary) && !request.params.contains("reasoning")) {
    w.key("reasoning").begin_object();
    if (effort) w.field("effort", *effort);
    if (summary && *summary != "none") w.field("summary", *summary);
    w.end_object();
  }
  if (tier && !request.params.contains("service_tier")) w.field("service_tier", *tier);
  if (parallel && !request.params.contains("parallel_tool_calls")) w.key("parallel_tool_calls").boolean(*parallel);
  if (verbosity && !request.params.contains("text")) {
    w.key("text").begin_object().field("verbosity", *verbosity).end_object();
  }
  return ok();
}

std::string instructions_of(const model_request& request) {
  std::string instructions = request.system_prompt;
  for (const auto& message : request.messages) {
    if (message.role != role::system || message.content.empty()) continue;
    if (!instructions.empty()) instructions += "\n\n";
    instructions += message.content;
  }
  return instructions;
}

}  // namespace

json::array tools_json(const std::vector<tool_spec>& tools) {
  json::array out;
  for (const auto& tool : tools) {
    json::object schema =
        tool.parameters.empty() ? json::object{{"type", "object"}, {"properties", json::object{}}} : tool.parameters;
    out.push_back(json::object{{"type", "function"},
                               {"name", tool.name},
                               {"description", tool.description},
                               {"parameters", std::move(schema)},
                               {"strict", false}});
  }
  return out;
}

result<std::string> build_request_body(const model_request& request, bool streaming) {
  std::string body;
  body.reserve(body_size_hint(request));
  json_text_writer w(body);
  w.begin_object();
  for (const auto& param : request.params) {
    if (!responses_owned(param.key())) w.key(param.key()).value(param.value());
  }
  if (const auto* max_tokens = request.params.if_contains("max_tokens")) w.key("max_output_tokens").value(*max_tokens);
  if (const auto* max_output = request.params.if_contains("max_output_tokens")) {
    if (!request.params.contains("max_tokens")) w.key("max_output_tokens").value(*max_output);
  }
  PARLEY_TRY(write_codex_params(w, request));
  w.field("model", request.model);
  const std::string instructions = instructions_of(request);
  if (!instructions.empty()) w.field("instructions", instructions);
  write_input(w.key("input"), request.messages);
  w.key("store").boolean(false);
  w.key("include").begin_array().string("reasoning.encrypted_content").end_array();
  w.key("stream").boolean(streaming);
  w.end_object();
  return body;
}

}  // namespace parley::llm::responses
