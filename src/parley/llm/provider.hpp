// The model adapter: provider-neutral messages, tools and streamed deltas. Every provider
// (scripted, OpenAI-compatible, Anthropic) implements `provider`; the engine only sees this header.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/json/object.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/core/tool_spec.hpp"

namespace parley::llm {

// A tool's description and a medium are core's (core/tool_spec.hpp); the providers speak of them here.
using parley::media_part;
using parley::tool_spec;

enum class role { system, user, assistant, tool };

struct tool_call {
  std::string id;
  std::string name;
  std::string arguments;  // JSON text exactly as the model produced it
};

struct chat_message {
  llm::role role = llm::role::user;
  std::string content;                // text (saying for assistant, output for tool)
  std::vector<media_part> media;      // user, and tool (images a tool read): sent beside the text
  std::string thinking;               // assistant only
  std::vector<tool_call> tool_calls;  // assistant only
  std::string tool_call_id;           // tool only
  std::string name;                   // tool only: the tool's name
  // assistant only: the provider's opaque proof of `thinking`, sent back with it — Anthropic's
  // signature, or the Responses API's reasoning items with their encrypted content.
  std::string thinking_signature;
};

// A member's tools, built once when the team is set up and shared by every request it makes: no
// copy per call, and a provider can keep their wire form (remote_provider does).
using tool_list = std::shared_ptr<const std::vector<tool_spec>>;

struct model_request {
  std::string member_id;
  std::string model;
  std::string system_prompt;
  std::vector<chat_message> messages;
  tool_list tools;             // null or empty: no tools
  boost::json::object params;  // temperature, max_tokens ... passed through to the provider
  std::int64_t round = 1;      // 1-based model round within the current drive
  std::string dialog_id;
  // false: the member wants whole answers (team.yaml `streaming: false`), for servers whose
  // streaming is broken or slower. A provider streams only when both it and the member allow it.
  bool stream = true;
};

// About the bytes a request's body takes, so the body is reserved once instead of growing.
inline std::size_t body_size_hint(const model_request& request) {
  std::size_t bytes = 256 + request.system_prompt.size();
  for (const auto& message : request.messages) {
    bytes += 64 + message.content.size() + message.thinking.size() + message.thinking_signature.size();
    for (const auto& call : message.tool_calls) bytes += 96 + call.arguments.size();
    for (const auto& part : message.media) bytes += 64 + part.data_base64.size();
  }
  return bytes;
}

struct usage {
  std::int64_t input_tokens = 0;
  std::int64_t output_tokens = 0;
  std::int64_t cached_tokens = 0;
  std::int64_t reasoning_tokens = 0;
};

struct model_response {
  std::string thinking;
  std::string saying;
  std::vector<tool_call> tool_calls;
  std::string finish_reason;  // "stop" | "tool_calls" | "length" | "interrupted" ...
  llm::usage usage;
  std::string thinking_signature;  // Anthropic, Responses API: kept in the log, sent back with `thinking`
};

// Receives the stream as it happens. Thinking and saying arrive as segments start → chunk* →
// finish that never overlap (seed 001's streaming order contract).
class stream_sink {
 public:
  virtual ~stream_sink() = default;
  virtual void on_thinking_start() {}
  virtual void on_thinking_chunk(std::string_view /*text*/) {}
  virtual void on_thinking_finish() {}
  virtual void on_saying_start() {}
  virtual void on_saying_chunk(std::string_view /*text*/) {}
  virtual void on_saying_finish() {}
  virtual void on_tool_call(const tool_call& /*call*/) {}
  // Everything streamed so far in this generation is void: the connection broke mid-stream and the
  // call starts again (seed 001's genseq discard). Open segments are abandoned, not finished.
  virtual void on_discard(std::string_view /*reason*/) {}
};

// Cancellation of one generation: `stop()` makes the provider end its stream at once, keeping
// what was produced so far (finish_reason "interrupted").
class generation_control {
 public:
  // `reason`: who or what stopped it, recorded with the stopped generation ("" when not said; the
  // first reason given is kept).
  void stop(std::string reason = {}) {
    if (!stopped_) reason_ = std::move(reason);
    stopped_ = true;
    signal_.emit(boost::asio::cancellation_type::terminal);
  }
  bool stopped() const noexcept { return stopped_; }
  const std::string& stop_reason() const noexcept { return reason_; }
  boost::asio::cancellation_slot slot() { return signal_.slot(); }

 private:
  boost::asio::cancellation_signal signal_;
  bool stopped_ = false;
  std::string reason_;
};

class provider {
 public:
  virtual ~provider() = default;
  // Streams one model call into `sink`, returning the assembled response. On stop the partial
  // response is returned with finish_reason "interrupted".
  virtual boost::asio::awaitable<result<model_response>> stream(const model_request& request, stream_sink& sink,
                                                                generation_control& control) = 0;
  virtual std::string_view kind() const = 0;  // "scripted" | "openai" | "anthropic" | "openai-responses"
};

}  // namespace parley::llm
