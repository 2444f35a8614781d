#include "parley/llm/openai/openai_stream.hpp"

#include <array>
#include <optional>
#include <utility>

#include "parley/core/json_fields.hpp"
#include "parley/core/utf8.hpp"
#include "parley/core/vocabulary.hpp"
#include "parley/llm/remote_call.hpp"

namespace parley::llm::openai {

namespace {

constexpr std::size_t kQuotedChunk = 200;

// The text came from the provider as bytes: it is quoted as UTF-8, because the error ends up in the
// log (drive_failed), which refuses anything else.
std::string quote(std::string_view text) { return utf8_excerpt(text, kQuotedChunk); }

// The finish reasons a model of this API can end with, and the engine's names for them
// (model_response::finish_reason).
enum class finish_kind { stop, length, tool_calls, content_filter };
constexpr name_table<finish_kind, 4> kEngineNames{{{finish_kind::stop, "stop"},
                                                   {finish_kind::length, "length"},
                                                   {finish_kind::tool_calls, "tool_calls"},
                                                   {finish_kind::content_filter, "content_filter"}}};

// The finish reasons of Chat Completions, and those compatible servers use for the same things
// (text-generation-inference, Mistral, the legacy function_call).
std::optional<finish_kind> known_finish_reason(std::string_view reason) {
  static constexpr name_table<finish_kind, 10> kKnown{{
      {finish_kind::stop, "stop"},
      {finish_kind::length, "length"},
      {finish_kind::tool_calls, "tool_calls"},
      {finish_kind::content_filter, "content_filter"},
      {finish_kind::tool_calls, "function_call"},
      {finish_kind::stop, "eos_token"},
      {finish_kind::stop, "stop_sequence"},
      {finish_kind::stop, "end_turn"},
      {finish_kind::length, "model_length"},
      {finish_kind::length, "max_tokens"},
  }};
  return lookup_name(kKnown, reason);
}

// A chunk or whole answer the reader left to the full parse, parsed: the error it carries. The
// reader takes every other object itself; one it refused all the same is reported, not dropped.
error refused_chunk(const json::object& chunk, std::string_view text) {
  if (const auto* err = chunk.if_contains("error"); err != nullptr && !err->is_null()) {
    std::string message = err->is_string() ? std::string(err->get_string()) : std::string();
    if (const auto* detail = err->if_object()) {
      // The documented {message}; an error object without one (or with another kind) is quoted whole.
      json_fields in(*detail, "error");
      message = in.optional_string("message").value_or(to_json_text(*err));
      if (!in.ok()) message = to_json_text(*err);
    }
    return make_error(errc::provider_error, "error in stream: " + message);
  }
  return make_error(errc::internal, "the stream reader could not take this chunk: " + quote(text));
}

}  // namespace

result<void> stream_assembler::on_event(const http::sse_event& event) {
  if (event.data == "[DONE]") {
    done_ = true;
    return ok();
  }
  if (const chunk_fields* fields = read_chunk_fields(event.data)) {
    take(*fields);
    return ok();
  }
  // An error, or not a JSON object: the full parse says what is wrong.
  auto parsed = parse_json(event.data);
  if (!parsed) {
    return make_error(errc::provider_error,
                      "invalid JSON in stream chunk (" + parsed.err().message + "): " + quote(event.data));
  }
  if (!parsed->is_object()) {
    return make_error(errc::provider_error, "stream chunk is a " + std::string(json_kind_name(*parsed)) +
                                                ", not an object: " + quote(event.data));
  }
  return refused_chunk(parsed->get_object(), event.data);
}

result<void> stream_assembler::on_whole_answer(std::string_view body) {
  if (const chunk_fields* fields = read_chunk_fields(body)) {
    take(*fields);
    return ok();
  }
  auto answer = answer_object(body);
  if (!answer) return std::move(answer).err();
  return refused_chunk(*answer, body);
}

void stream_assembler::take(const chunk_fields& chunk) {
  if (chunk.usage.present) read_usage(chunk.usage);
  // One completion is asked for; servers that send several choices number them, and only 0 counts.
  for (std::size_t i = 0; i < chunk.choice_count; ++i) {
    if (chunk.choices[i].index == 0) on_choice(chunk.choices[i]);
  }
}

void stream_assembler::on_choice(const chunk_choice& choice) {
  const chunk_message* delta = choice.delta.present ? &choice.delta : nullptr;
  if (delta == nullptr && choice.message.present) delta = &choice.message;
  if (delta != nullptr) {
    writer_.thinking(!delta->reasoning_content.empty() ? delta->reasoning_content : delta->reasoning);
    writer_.saying(delta->content);
    for (std::size_t i = 0; i < delta->tool_call_count; ++i) on_tool_call_delta(delta->tool_calls[i]);
  }
  if (!choice.finish_reason.empty()) {
    response_.finish_reason = choice.finish_reason;
    finished_ = true;
  }
}

void stream_assembler::on_tool_call_delta(const chunk_tool_call& delta) {
  std::int64_t index = delta.index;
  if (index < 0) {
    // Without an index (whole responses, a few servers) a new id starts a new call.
    const bool new_call = last_index_ < 0 || (!delta.id.empty() && calls_[last_index_].id != delta.id);
    index = new_call ? static_cast<std::int64_t>(calls_.size()) : last_index_;
    while (new_call && calls_.count(index) != 0) ++index;
  }
  last_index_ = index;
  partial_call& call = calls_[index];
  if (!delta.id.empty()) call.id.assign(delta.id);
  if (delta.has_function) {
    if (!delta.name.empty()) call.name.assign(delta.name);
    call.arguments.append(delta.arguments);
  }
}

void stream_assembler::read_usage(const chunk_usage& usage) {
  response_.usage.input_tokens = usage.prompt_tokens.value_or(response_.usage.input_tokens);
  response_.usage.output_tokens = usage.completion_tokens.value_or(response_.usage.output_tokens);
  response_.usage.cached_tokens = usage.cached_tokens.value_or(response_.usage.cached_tokens);
  response_.usage.reasoning_tokens = usage.reasoning_tokens.value_or(response_.usage.reasoning_tokens);
}

result<model_response> stream_assembler::finish() {
  writer_.close();
  if (!done_ && !finished_) {
    return make_error(errc::provider_error, "stream ended before the model finished (no finish_reason, no [DONE])");
  }
  std::optional<finish_kind> reason;  // none given: decided by the calls below
  if (!response_.finish_reason.empty()) {
    reason = known_finish_reason(response_.finish_reason);
    if (!reason) {
      return make_error(errc::provider_error, "the model ended with finish_reason '" + quote(response_.finish_reason) +
                                                  "', which is none of stop, length, tool_calls, content_filter");
    }
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
  if (!reason || (*reason == finish_kind::stop && !response_.tool_calls.empty())) {
    reason = response_.tool_calls.empty() ? finish_kind::stop : finish_kind::tool_calls;
  }
  response_.finish_reason = name_in(kEngineNames, *reason);
  return std::move(response_);
}

model_response stream_assembler::interrupt() {
  writer_.close();
  calls_.clear();
  response_.finish_reason = "interrupted";
  return std::move(response_);
}

}  // namespace parley::llm::openai
