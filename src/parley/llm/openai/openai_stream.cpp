#include "parley/llm/openai/openai_stream.hpp"

#include "parley/core/json.hpp"

namespace parley::llm::openai {

namespace {

constexpr std::size_t kQuotedChunk = 200;

std::string quote(std::string_view text) {
  return std::string(text.substr(0, kQuotedChunk)) + (text.size() > kQuotedChunk ? "..." : "");
}

std::string_view string_at(const json::object& obj, std::string_view key) {
  const auto* found = obj.if_contains(key);
  return found != nullptr && found->is_string() ? std::string_view(found->get_string()) : std::string_view{};
}

}  // namespace

result<void> stream_assembler::on_event(const sse_event& event) {
  if (event.data == "[DONE]") {
    done_ = true;
    return ok();
  }
  auto parsed = parse_json(event.data);
  if (!parsed) {
    return make_error(errc::provider_error,
                      "invalid JSON in stream chunk (" + parsed.err().message + "): " + quote(event.data));
  }
  if (!parsed->is_object()) {
    return make_error(errc::provider_error, "stream chunk is a " + std::string(json_kind_name(*parsed)) +
                                                ", not an object: " + quote(event.data));
  }
  return on_chunk(parsed->get_object());
}

result<void> stream_assembler::on_chunk(const json::object& chunk) {
  if (const auto* err = chunk.if_contains("error"); err != nullptr && !err->is_null()) {
    std::string message = err->is_string() ? std::string(err->get_string()) : std::string();
    if (const auto* detail = err->if_object()) message = json_string_or(*detail, "message", to_json_text(*err));
    return make_error(errc::provider_error, "error in stream: " + message);
  }
  if (const auto* usage = json_object_at(chunk, "usage")) read_usage(*usage);
  const auto* choices = json_array_at(chunk, "choices");
  if (choices == nullptr) return ok();
  // One completion is asked for; servers that send several choices number them, and only 0 counts.
  for (const auto& choice : *choices) {
    const auto* fields = choice.if_object();
    if (fields == nullptr || json_int_or(*fields, "index", 0) != 0) continue;
    if (auto taken = on_choice(*fields); !taken) return taken;
  }
  return ok();
}

result<void> stream_assembler::on_choice(const json::object& choice) {
  const auto* delta = json_object_at(choice, "delta");
  if (delta == nullptr) delta = json_object_at(choice, "message");
  if (delta != nullptr) {
    const std::string_view reasoning = string_at(*delta, "reasoning_content");
    writer_.thinking(!reasoning.empty() ? reasoning : string_at(*delta, "reasoning"));
    writer_.saying(string_at(*delta, "content"));
    if (const auto* calls = json_array_at(*delta, "tool_calls")) {
      for (const auto& call : *calls) {
        if (const auto* fields = call.if_object()) on_tool_call_delta(*fields);
      }
    }
  }
  const std::string_view reason = string_at(choice, "finish_reason");
  if (!reason.empty()) {
    response_.finish_reason = reason == "function_call" ? "tool_calls" : std::string(reason);
    finished_ = true;
  }
  return ok();
}

void stream_assembler::on_tool_call_delta(const json::object& delta) {
  const std::string_view id = string_at(delta, "id");
  std::int64_t index = json_int_or(delta, "index", -1);
  if (index < 0) {
    // Without an index (whole responses, a few servers) a new id starts a new call.
    const bool new_call = last_index_ < 0 || (!id.empty() && calls_[last_index_].id != id);
    index = new_call ? static_cast<std::int64_t>(calls_.size()) : last_index_;
    while (new_call && calls_.count(index) != 0) ++index;
  }
  last_index_ = index;
  partial_call& call = calls_[index];
  if (!id.empty()) call.id.assign(id);
  if (const auto* function = json_object_at(delta, "function")) {
    const std::string_view name = string_at(*function, "name");
    if (!name.empty()) call.name.assign(name);
    call.arguments.append(string_at(*function, "arguments"));
  }
}

void stream_assembler::read_usage(const json::object& usage) {
  response_.usage.input_tokens = json_int_or(usage, "prompt_tokens", response_.usage.input_tokens);
  response_.usage.output_tokens = json_int_or(usage, "completion_tokens", response_.usage.output_tokens);
  if (const auto* prompt = json_object_at(usage, "prompt_tokens_details")) {
    response_.usage.cached_tokens = json_int_or(*prompt, "cached_tokens", response_.usage.cached_tokens);
  }
  if (const auto* completion = json_object_at(usage, "completion_tokens_details")) {
    response_.usage.reasoning_tokens = json_int_or(*completion, "reasoning_tokens", response_.usage.reasoning_tokens);
  }
}

result<model_response> stream_assembler::finish() {
  writer_.close();
  if (!done_ && !finished_) {
    return make_error(errc::provider_error, "stream ended before the model finished (no finish_reason, no [DONE])");
  }
  for (auto& [index, call] : calls_) {
    if (call.name.empty()) {
      return make_error(errc::provider_error, "tool call #" + std::to_string(index) + " has no function name");
    }
    if (call.id.empty()) call.id = "call_" + std::to_string(index);
    if (call.arguments.empty()) call.arguments = "{}";
    writer_.tool_call(tool_call{std::move(call.id), std::move(call.name), std::move(call.arguments)});
  }
  calls_.clear();
  if (response_.finish_reason.empty() || (response_.finish_reason == "stop" && !response_.tool_calls.empty())) {
    response_.finish_reason = response_.tool_calls.empty() ? "stop" : "tool_calls";
  }
  return std::move(response_);
}

model_response stream_assembler::interrupt() {
  writer_.close();
  calls_.clear();
  response_.finish_reason = "interrupted";
  return std::move(response_);
}

}  // namespace parley::llm::openai
