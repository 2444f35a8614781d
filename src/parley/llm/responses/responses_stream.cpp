#include "parley/llm/responses/responses_stream.hpp"

#include "parley/core/json.hpp"
#include "parley/core/json_fields.hpp"
#include "parley/core/utf8.hpp"
#include "parley/core/vocabulary.hpp"

namespace parley::llm::responses {

namespace {

constexpr std::size_t kQuotedResponsesEvent = 200;

// The stream's events this adapter reads; `other` stands for the many it has no use for (created,
// in_progress, content_part.*, *.done texts ...) and for types added after this was written.
enum class responses_event {
  other,
  text_delta,
  refusal_delta,
  summary_delta,
  arguments_delta,
  arguments_done,
  item_added,
  item_done,
  completed,
  incomplete,
  failed,
  error
};

constexpr name_table<responses_event, 11> kResponsesEvents{
    {{responses_event::text_delta, "response.output_text.delta"},
     {responses_event::refusal_delta, "response.refusal.delta"},
     {responses_event::summary_delta, "response.reasoning_summary_text.delta"},
     {responses_event::arguments_delta, "response.function_call_arguments.delta"},
     {responses_event::arguments_done, "response.function_call_arguments.done"},
     {responses_event::item_added, "response.output_item.added"},
     {responses_event::item_done, "response.output_item.done"},
     {responses_event::completed, "response.completed"},
     {responses_event::incomplete, "response.incomplete"},
     {responses_event::failed, "response.failed"},
     {responses_event::error, "error"}}};

std::string quote_responses(std::string_view text) { return utf8_excerpt(text, kQuotedResponsesEvent); }

error responses_field_error(const json_fields& in) { return make_error(errc::provider_error, in.message()); }

// "<code>: <message>" from an error object ({code, message} in response.failed and in `error`).
result<std::string> error_text(json_fields& in) {
  const auto code = in.optional_string("code");
  const auto message = in.optional_string("message");
  if (!in.ok()) return responses_field_error(in);
  std::string text = code.value_or("");
  if (message && !message->empty()) text += (text.empty() ? "" : ": ") + *message;
  return text.empty() ? std::string("(no message)") : text;
}

result<std::vector<std::string>> summary_texts(const json::object& item, std::string_view where) {
  json_fields in(item, std::string(where));
  const json::array* summary = in.optional_array("summary");
  if (!in.ok()) return responses_field_error(in);
  std::vector<std::string> texts;
  if (summary == nullptr) return texts;
  for (std::size_t i = 0; i < summary->size(); ++i) {
    const auto* part = (*summary)[i].if_object();
    if (part == nullptr) {
      return make_error(errc::provider_error,
                        "field '" + in.path_of("summary") + "[" + std::to_string(i) + "]': expected an object");
    }
    json_fields fields(*part, in.path_of("summary") + "[" + std::to_string(i) + "]");
    std::string text = fields.string("text");
    if (!fields.ok()) return responses_field_error(fields);
    texts.push_back(std::move(text));
  }
  return texts;
}

}  // namespace

result<void> stream_assembler::on_event(const http::sse_event& event) {
  auto parsed = parse_json(event.data);
  if (!parsed || !parsed->is_object()) {
    return make_error(errc::provider_error, "invalid JSON in stream event '" + quote_responses(event.event) +
                                                "': " + quote_responses(event.data));
  }
  const json::object& fields = parsed->get_object();
  const auto* type_value = fields.if_contains("type");
  const std::string_view type =
      type_value != nullptr && type_value->is_string() ? std::string_view(type_value->get_string()) : event.event;
  const auto kind = lookup_name(kResponsesEvents, type).value_or(responses_event::other);
  json_fields in(fields, std::string(type));
  switch (kind) {
    case responses_event::text_delta:
    case responses_event::refusal_delta: {
      const std::string delta = in.string("delta");
      if (!in.ok()) return responses_field_error(in);
      writer_.saying(delta);
      return ok();
    }
    case responses_event::summary_delta:
      return on_summary_delta(fields);
    case responses_event::arguments_delta:
      return on_arguments(fields, false);
    case responses_event::arguments_done:
      return on_arguments(fields, true);
    case responses_event::item_added:
      return on_item_added(fields);
    case responses_event::item_done: {
      const json::object* item = in.object("item");
      if (!in.ok()) return responses_field_error(in);
      return on_item_done(*item);
    }
    case responses_event::completed:
    case responses_event::incomplete:
    case responses_event::failed:
      return on_terminal(fields, type);
    case responses_event::error: {
      auto text = error_text(in);
      if (!text) return std::move(text).err();
      return make_error(errc::provider_error, "error in stream: " + *text);
    }
    case responses_event::other:
      break;
  }
  return ok();
}

result<void> stream_assembler::on_summary_delta(const json::object& event) {
  json_fields in(event, "response.reasoning_summary_text.delta");
  const std::string item_id = in.string("item_id");
  const std::int64_t index = in.integer("summary_index");
  const std::string delta = in.string("delta");
  if (!in.ok()) return responses_field_error(in);
  // Summary parts are paragraphs of their own; the thinking text keeps them apart.
  std::string at = item_id + "/" + std::to_string(index);
  if (at != summary_at_) {
    if (!summary_at_.empty()) writer_.thinking("\n\n");
    summary_at_ = std::move(at);
  }
  writer_.thinking(delta);
  return ok();
}

result<void> stream_assembler::on_arguments(const json::object& event, bool done) {
  json_fields in(event, done ? "response.function_call_arguments.done" : "response.function_call_arguments.delta");
  const std::string item_id = in.string("item_id");
  const std::string text = in.string(done ? "arguments" : "delta");
  if (!in.ok()) return responses_field_error(in);
  const auto found = calls_.find(item_id);
  if (found == calls_.end()) {
    return make_error(errc::provider_error,
                      "function call arguments for item '" + quote_responses(item_id) + "' that was not added");
  }
  if (done) {
    found->second.arguments = text;
  } else {
    found->second.arguments += text;
  }
  return ok();
}

result<void> stream_assembler::on_item_added(const json::object& event) {
  json_fields in(event, "response.output_item.added");
  const json::object* item = in.object("item");
  if (!in.ok()) return responses_field_error(in);
  json_fields fields(*item, "response.output_item.added.item");
  const std::string type = fields.string("type");
  if (!fields.ok()) return responses_field_error(fields);
  if (type != "function_call") return ok();
  const std::string id = fields.string("id");
  pending_call call{fields.string("call_id"), fields.string("name"), fields.optional_string("arguments").value_or("")};
  if (!fields.ok()) return responses_field_error(fields);
  calls_[id] = std::move(call);
  return ok();
}

result<void> stream_assembler::on_item_done(const json::object& item) {
  json_fields in(item, "response.output_item.done.item");
  const std::string type = in.string("type");
  if (!in.ok()) return responses_field_error(in);
  if (type == "reasoning") {
    writer_.close();
    reasoning_item kept{in.string("id"), in.optional_string("encrypted_content").value_or(""), {}};
    if (!in.ok()) return responses_field_error(in);
    auto texts = summary_texts(item, "response.output_item.done.item");
    if (!texts) return std::move(texts).err();
    kept.summary = std::move(*texts);
    reasoning_.push_back(std::move(kept));
    return ok();
  }
  if (type != "function_call") return ok();
  const auto id = in.optional_string("id").value_or("");
  pending_call call{in.string("call_id"), in.string("name"), in.optional_string("arguments").value_or("")};
  if (!in.ok()) return responses_field_error(in);
  if (const auto found = calls_.find(id); found != calls_.end()) {
    // The streamed arguments stand in for an item that leaves them out.
    if (call.arguments.empty()) call.arguments = std::move(found->second.arguments);
    calls_.erase(found);
  }
  if (call.arguments.empty()) call.arguments = "{}";
  writer_.tool_call(tool_call{std::move(call.call_id), std::move(call.name), std::move(call.arguments)});
  return ok();
}

result<void> stream_assembler::on_terminal(const json::object& event, std::string_view type) {
  json_fields in(event, std::string(type));
  const json::object* response = in.object("response");
  if (!in.ok()) return responses_field_error(in);
  // The items streamed already; the response's copy of them is not read again.
  return read_response(*response, false);
}

result<void> stream_assembler::read_usage(const json::object& usage) {
  json_fields in(usage, "response.usage");
  const auto input = in.optional_integer("input_tokens");
  const auto output = in.optional_integer("output_tokens");
  const json::object* input_details = in.optional_object("input_tokens_details");
  const json::object* output_details = in.optional_object("output_tokens_details");
  if (!in.ok()) return responses_field_error(in);
  std::optional<std::int64_t> cached;
  std::optional<std::int64_t> reasoning;
  if (input_details != nullptr) {
    json_fields details(*input_details, "response.usage.input_tokens_details");
    cached = details.optional_integer("cached_tokens");
    if (!details.ok()) return responses_field_error(details);
  }
  if (output_details != nullptr) {
    json_fields details(*output_details, "response.usage.output_tokens_details");
    reasoning = details.optional_integer("reasoning_tokens");
    if (!details.ok()) return responses_field_error(details);
  }
  // input_tokens counts the cached ones too, as the neutral input count does.
  response_.usage.input_tokens = input.value_or(0);
  response_.usage.output_tokens = output.value_or(0);
  response_.usage.cached_tokens = cached.value_or(0);
  response_.usage.reasoning_tokens = reasoning.value_or(0);
  return ok();
}

result<void> stream_assembler::read_whole_item(const json::object& item) {
  json_fields in(item, "response.output[]");
  const std::string type = in.string("type");
  const json::array* content = in.optional_array("content");
  if (!in.ok()) return responses_field_error(in);
  if (type == "reasoning") {
    auto texts = summary_texts(item, "response.output[]");
    if (!texts) return std::move(texts).err();
    for (std::size_t i = 0; i < texts->size(); ++i) writer_.thinking((i == 0 ? "" : "\n\n") + (*texts)[i]);
    return on_item_done(item);
  }
  if (type == "function_call") return on_item_done(item);
  if (type != "message" || content == nullptr) return ok();
  for (const auto& part : *content) {
    const auto* fields = part.if_object();
    if (fields == nullptr)
      return make_error(errc::provider_error, "field 'response.output[].content[]': expected an object");
    json_fields part_in(*fields, "response.output[].content[]");
    const std::string part_type = part_in.string("type");
    if (!part_in.ok()) return responses_field_error(part_in);
    if (part_type != "output_text" && part_type != "refusal") continue;
    const std::string text = part_in.string(part_type == "refusal" ? "refusal" : "text");
    if (!part_in.ok()) return responses_field_error(part_in);
    writer_.saying(text);
  }
  writer_.close();
  return ok();
}

result<void> stream_assembler::on_response(const json::object& response) { return read_response(response, true); }

result<void> stream_assembler::read_response(const json::object& response, bool with_output) {
  json_fields in(response, "response");
  const std::string status = in.optional_string("status").value_or("completed");
  const json::object* failure = in.optional_object("error");
  const json::object* usage = in.optional_object("usage");
  const json::array* output = in.optional_array("output");
  const json::object* incomplete = in.optional_object("incomplete_details");
  if (!in.ok()) return responses_field_error(in);
  if (status == "failed" || failure != nullptr) {
    std::string said = "(no error given)";
    if (failure != nullptr) {
      json_fields error_in(*failure, "response.error");
      auto text = error_text(error_in);
      if (!text) return std::move(text).err();
      said = std::move(*text);
    }
    return make_error(errc::provider_error, "response failed: " + said);
  }
  if (status != "completed" && status != "incomplete") {
    return make_error(errc::provider_error, "the response ended with status '" + quote_responses(status) +
                                                "', which is none of completed, incomplete, failed");
  }
  if (with_output && output != nullptr) {
    for (const auto& item : *output) {
      if (!item.is_object()) return make_error(errc::provider_error, "field 'response.output[]': expected an object");
      PARLEY_TRY(read_whole_item(item.get_object()));
    }
  }
  if (status == "incomplete") {
    incomplete_reason_ = "max_output_tokens";
    if (incomplete != nullptr) {
      json_fields details(*incomplete, "response.incomplete_details");
      if (auto reason = details.optional_string("reason")) incomplete_reason_ = std::move(*reason);
      if (!details.ok()) return responses_field_error(details);
    }
  }
  if (usage != nullptr) PARLEY_TRY(read_usage(*usage));
  done_ = true;
  return ok();
}

result<model_response> stream_assembler::finish() {
  writer_.close();
  if (!done_) return make_error(errc::provider_error, "stream ended before response.completed");
  if (!reasoning_.empty()) response_.thinking_signature = encode_reasoning_items(reasoning_);
  if (incomplete_reason_.empty()) {
    response_.finish_reason = response_.tool_calls.empty() ? "stop" : "tool_calls";
  } else {
    response_.finish_reason = incomplete_reason_ == "content_filter" ? "content_filter" : "length";
  }
  return std::move(response_);
}

model_response stream_assembler::interrupt() {
  writer_.close();
  calls_.clear();
  response_.finish_reason = "interrupted";
  return std::move(response_);
}

}  // namespace parley::llm::responses
