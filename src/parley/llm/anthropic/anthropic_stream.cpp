#include "parley/llm/anthropic/anthropic_stream.hpp"

#include "parley/core/json_fields.hpp"
#include "parley/core/utf8.hpp"
#include "parley/core/vocabulary.hpp"
#include "parley/llm/anthropic/anthropic_event.hpp"

namespace parley::llm::anthropic {

namespace {

constexpr std::size_t kQuotedEvent = 200;

// The stream's vocabularies, each read once from its string; `other` stands for a type added
// after this was written, which the API asks clients to ignore.
enum class event_type {
  other,
  message_start,
  message_delta,
  message_stop,
  content_block_start,
  content_block_delta,
  content_block_stop,
  ping,
  error
};
enum class delta_type { other, text, thinking, signature, input_json };

constexpr name_table<event_type, 8> kEventTypes{{{event_type::message_start, "message_start"},
                                                 {event_type::message_delta, "message_delta"},
                                                 {event_type::message_stop, "message_stop"},
                                                 {event_type::content_block_start, "content_block_start"},
                                                 {event_type::content_block_delta, "content_block_delta"},
                                                 {event_type::content_block_stop, "content_block_stop"},
                                                 {event_type::ping, "ping"},
                                                 {event_type::error, "error"}}};
constexpr name_table<delta_type, 4> kDeltaTypes{{{delta_type::text, "text_delta"},
                                                 {delta_type::thinking, "thinking_delta"},
                                                 {delta_type::signature, "signature_delta"},
                                                 {delta_type::input_json, "input_json_delta"}}};
constexpr name_table<block_type, 3> kBlockTypes{
    {{block_type::text, "text"}, {block_type::thinking, "thinking"}, {block_type::tool_use, "tool_use"}}};

// An event's `type`, or the SSE event name where the data has none.
event_type event_type_of(std::string_view type, std::string_view event_name) {
  return lookup_name(kEventTypes, type.empty() ? event_name : type).value_or(event_type::other);
}
block_type block_type_of(std::string_view type) { return lookup_name(kBlockTypes, type).value_or(block_type::other); }

// The text came from the provider as bytes: it is quoted as UTF-8, because the error ends up in the
// log (drive_failed), which refuses anything else.
std::string quote(std::string_view text) { return utf8_excerpt(text, kQuotedEvent); }

std::string_view string_at(const json::object& obj, std::string_view key) {
  const auto* found = obj.if_contains(key);
  return found != nullptr && found->is_string() ? std::string_view(found->get_string()) : std::string_view{};
}

error stream_error(const json::object& event) {
  std::string message = "error in stream";
  if (const auto* detail = json_object_at(event, "error")) {
    json_fields in(*detail, "error");
    const std::string type = in.optional_string("type").value_or("");
    const std::string said = in.optional_string("message").value_or("");
    // An error whose fields are not the documented strings is quoted as it came.
    if (!in.ok()) return make_error(errc::provider_error, message + ": " + quote(to_json_text(*detail)));
    message += ": " + (type.empty() ? std::string() : type + ": ") + said;
  }
  return make_error(errc::provider_error, std::move(message));
}

}  // namespace

std::optional<std::string> finish_reason_for(std::string_view stop_reason) {
  if (stop_reason == "end_turn" || stop_reason == "stop_sequence") return "stop";
  if (stop_reason == "tool_use") return "tool_calls";
  // pause_turn: a long turn of the API's own server tools was cut, to be continued — the answer
  // so far is not all of it.
  if (stop_reason == "max_tokens" || stop_reason == "pause_turn") return "length";
  if (stop_reason == "refusal") return "content_filter";
  return std::nullopt;
}

result<void> stream_assembler::on_event(const http::sse_event& event) {
  // The events that come by the hundred are read without building a parse tree; the others, and
  // what is not a JSON object, are parsed.
  if (const event_fields* fields = read_event_fields(event.data)) {
    switch (event_type_of(fields->type, event.event)) {
      case event_type::content_block_delta:
        return on_block_delta(*fields);
      case event_type::content_block_stop:
        on_block_stop(fields->index);
        return ok();
      case event_type::message_stop:
        done_ = true;
        return ok();
      case event_type::ping:
        return ok();
      default:
        break;  // parsed whole below
    }
  }
  auto parsed = parse_json(event.data);
  if (!parsed || !parsed->is_object()) {
    return make_error(errc::provider_error,
                      "invalid JSON in stream event '" + quote(event.event) + "': " + quote(event.data));
  }
  const json::object& fields = parsed->get_object();
  switch (event_type_of(string_at(fields, "type"), event.event)) {
    case event_type::content_block_start:
      return on_block_start(fields);
    case event_type::message_start:
      if (const auto* message = json_object_at(fields, "message")) {
        if (const auto* usage = json_object_at(*message, "usage")) PARLEY_TRY(read_usage(*usage));
      }
      break;
    case event_type::message_delta:
      if (const auto* delta = json_object_at(fields, "delta")) {
        const std::string_view reason = string_at(*delta, "stop_reason");
        if (!reason.empty()) stop_reason_.assign(reason);
      }
      if (const auto* usage = json_object_at(fields, "usage")) PARLEY_TRY(read_usage(*usage));
      break;
    case event_type::error:
      return stream_error(fields);
    default:
      break;  // event types added after this was written are ignored, as the API asks
  }
  return ok();
}

result<void> stream_assembler::on_block_start(const json::object& event) {
  const auto* content = json_object_at(event, "content_block");
  if (content == nullptr) return make_error(errc::provider_error, "content_block_start without content_block");
  block started{block_type_of(string_at(*content, "type")),
                std::string(string_at(*content, "id")),
                std::string(string_at(*content, "name")),
                {},
                {}};
  switch (started.type) {
    case block_type::text:
      writer_.saying(string_at(*content, "text"));
      break;
    case block_type::thinking:
      writer_.thinking(string_at(*content, "thinking"));
      started.signature.assign(string_at(*content, "signature"));
      break;
    case block_type::tool_use: {
      // The input normally streams as input_json_delta; a non-empty start value stands otherwise.
      const auto* input = json_object_at(*content, "input");
      if (input != nullptr && !input->empty()) started.input_json = to_json_text(*input);
      break;
    }
    case block_type::other:
      break;
  }
  json_fields in(event, "content_block_start");
  const std::int64_t index = in.integer("index");
  if (!in.ok()) return make_error(errc::provider_error, in.message());
  open_blocks_[index] = std::move(started);
  return ok();
}

result<void> stream_assembler::on_block_delta(const event_fields& event) {
  if (!event.delta.present) return make_error(errc::provider_error, "content_block_delta without delta");
  const auto found = open_blocks_.find(event.index);
  if (found == open_blocks_.end()) {
    return make_error(errc::provider_error,
                      "content_block_delta for block " + std::to_string(event.index) + " that was not started");
  }
  block& target = found->second;
  switch (lookup_name(kDeltaTypes, event.delta.type).value_or(delta_type::other)) {
    case delta_type::text:
      writer_.saying(event.delta.text);
      break;
    case delta_type::thinking:
      writer_.thinking(event.delta.thinking);
      break;
    case delta_type::signature:
      target.signature.append(event.delta.signature);
      break;
    case delta_type::input_json:
      // A start value that deltas follow was only a placeholder.
      if (target.input_json == "{}") target.input_json.clear();
      target.input_json.append(event.delta.partial_json);
      break;
    case delta_type::other:
      break;
  }
  return ok();
}

void stream_assembler::on_block_stop(std::int64_t index) {
  const auto found = open_blocks_.find(index);
  if (found == open_blocks_.end()) return;
  block& stopped = found->second;
  switch (stopped.type) {
    case block_type::tool_use:
      finish_tool_use(stopped);
      break;
    case block_type::text:
    case block_type::thinking:
      writer_.close();
      if (!stopped.signature.empty()) response_.thinking_signature = stopped.signature;
      break;
    case block_type::other:
      break;
  }
  open_blocks_.erase(found);
}

void stream_assembler::finish_tool_use(block& tool_use) {
  if (tool_use.input_json.empty()) tool_use.input_json = "{}";
  writer_.tool_call(tool_call{std::move(tool_use.id), std::move(tool_use.name), std::move(tool_use.input_json)});
}

result<void> stream_assembler::read_usage(const json::object& usage) {
  // Each count is optional: message_start reports the input, message_delta often only the output
  // so far; an absent (or null) count is one this event does not report.
  json_fields in(usage, "usage");
  const auto fresh = in.optional_integer("input_tokens");
  const auto cache_read = in.optional_integer("cache_read_input_tokens");
  const auto cache_write = in.optional_integer("cache_creation_input_tokens");
  const auto output = in.optional_integer("output_tokens");
  if (!in.ok()) return make_error(errc::provider_error, in.message());
  // Anthropic counts cache reads and writes apart from input_tokens; the neutral input count
  // includes them, as OpenAI's prompt_tokens does.
  auto& total = response_.usage;
  if (fresh || cache_read || cache_write) {
    const auto counted = [](const std::optional<std::int64_t>& n) { return std::max<std::int64_t>(n.value_or(0), 0); };
    total.input_tokens = counted(fresh) + counted(cache_read) + counted(cache_write);
    total.cached_tokens = counted(cache_read);
  }
  if (output) total.output_tokens = *output;
  return ok();
}

result<void> stream_assembler::on_message(const json::object& message) {
  // A whole response's `type` is "message", or "error" as in the stream.
  if (event_type_of(string_at(message, "type"), {}) == event_type::error) return stream_error(message);
  if (const auto* content = json_array_at(message, "content")) {
    for (const auto& item : *content) {
      const auto* fields = item.if_object();
      if (fields == nullptr) continue;
      switch (block_type_of(string_at(*fields, "type"))) {
        case block_type::text:
          writer_.saying(string_at(*fields, "text"));
          break;
        case block_type::thinking:
          writer_.thinking(string_at(*fields, "thinking"));
          response_.thinking_signature.assign(string_at(*fields, "signature"));
          break;
        case block_type::tool_use: {
          const auto* input = json_object_at(*fields, "input");
          block tool_use{block_type::tool_use,
                         std::string(string_at(*fields, "id")),
                         std::string(string_at(*fields, "name")),
                         input != nullptr ? to_json_text(*input) : std::string(),
                         {}};
          finish_tool_use(tool_use);
          break;
        }
        case block_type::other:
          break;
      }
      writer_.close();
    }
  }
  stop_reason_.assign(string_at(message, "stop_reason"));
  if (const auto* usage = json_object_at(message, "usage")) PARLEY_TRY(read_usage(*usage));
  done_ = true;
  return ok();
}

result<model_response> stream_assembler::finish() {
  writer_.close();
  if (!done_) return make_error(errc::provider_error, "stream ended before message_stop");
  auto finish_reason = finish_reason_for(stop_reason_.empty() ? "end_turn" : stop_reason_);
  if (!finish_reason) {
    return make_error(errc::provider_error, "the model ended with stop_reason '" + quote(stop_reason_) +
                                                "', which is none of end_turn, stop_sequence, max_tokens, tool_use, "
                                                "pause_turn, refusal");
  }
  response_.finish_reason = std::move(*finish_reason);
  return std::move(response_);
}

model_response stream_assembler::interrupt() {
  writer_.close();
  open_blocks_.clear();
  response_.finish_reason = "interrupted";
  return std::move(response_);
}

}  // namespace parley::llm::anthropic
