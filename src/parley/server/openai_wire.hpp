// The OpenAI side of the endpoint's wire (docs/server.md, "OpenAI-compatible endpoint"): chat
// completions, their streamed chunks as Server-Sent Events, model objects and OpenAI's error
// object, written from typed values. JSON exists only here and in openai_chat_request.cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "parley/core/result.hpp"
#include "parley/server/asked_question.hpp"

namespace parley::server {

// The tokens of the model calls a completion made, in OpenAI's terms.
struct token_counts {
  std::int64_t prompt_tokens = 0;
  std::int64_t completion_tokens = 0;
};

// What every chunk of one completion repeats.
struct completion_head {
  std::string id;  // "chatcmpl-" and 32 hex digits
  std::int64_t created = 0;
  std::string model;  // as the request named it
};

completion_head new_completion_head(std::string model);

// A whole `chat.completion` with one choice, finish_reason "stop".
std::string completion_json(const completion_head& head, std::string_view content, token_counts usage);

// One `chat.completion.chunk` as an SSE event ("data: {...}\n\n").
struct chunk_delta {
  bool role = false;  // the first chunk says the assistant speaks
  std::optional<std::string_view> content;
  bool stop = false;  // the last chunk with a choice: empty delta, finish_reason "stop"
};
// `usage_null`: with stream_options.include_usage every chunk but the last carries "usage": null.
std::string chunk_event(const completion_head& head, const chunk_delta& delta, bool usage_null);
// The usage chunk of stream_options.include_usage: no choices.
std::string usage_event(const completion_head& head, token_counts usage);
std::string_view done_event();

// OpenAI's error object. An empty `param` or `code` is written as null.
struct openai_error {
  unsigned status = 400;
  std::string message;
  std::string param;
  std::string code;
  std::string type = "invalid_request_error";
};
std::string error_json(const openai_error& error);
// The error as an SSE event, for a stream that fails after its header went out.
std::string error_event(const openai_error& error);
// A bad field (400): the message's leading field path ("messages[1].role: ...") becomes `param`.
openai_error invalid_request(const error& err);
// Any other failure, its status by its code as the REST API has it (404, 409, 507, 503 ...).
openai_error openai_error_of(const error& err);

// `GET /v1/models` and `GET /v1/models/{model}`: "parley/<member id>" objects.
std::string models_json(std::span<const std::string> member_ids, std::int64_t created);
std::string model_json(std::string_view member_id, std::int64_t created);

// "[Parley asks: … — answer with POST /api/dialogs/ID/answer, question id QID]" for each
// question, set off by a blank line from each other and, `after_text`, from text before them.
std::string questions_note(std::span<const asked_question> questions, bool after_text);

}  // namespace parley::server
