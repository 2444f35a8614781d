// Internal: assembles a Messages API answer from its stream events (or from one whole response)
// while forwarding it to the sink. Content blocks are tracked by index: text and thinking stream
// straight through, a tool_use block's input JSON is collected and the call announced when the
// block stops.
#pragma once

#include <boost/json/object.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "parley/http/sse_parser.hpp"
#include "parley/llm/anthropic/anthropic_event.hpp"
#include "parley/llm/provider.hpp"
#include "parley/llm/segment_writer.hpp"

namespace parley::llm::anthropic {

// The engine's name for a stop_reason (end_turn and stop_sequence → stop, tool_use → tool_calls,
// max_tokens and pause_turn → length, refusal → content_filter); nullopt for one the API does not
// document, which ends the generation with an error.
std::optional<std::string> finish_reason_for(std::string_view stop_reason);

// A content block's `type`, read once where the block arrives; `other`: a type added after this
// was written, whose content is ignored.
enum class block_type { other, text, thinking, tool_use };

class stream_assembler {
 public:
  explicit stream_assembler(stream_sink& sink) : writer_(sink, response_) {}

  result<void> on_event(const http::sse_event& event);
  // A whole non-streamed response.
  result<void> on_message(const boost::json::object& message);
  bool done() const noexcept { return done_; }

  // The end of the body; an error when message_stop never came.
  result<model_response> finish();
  // Stopped on purpose: what arrived so far; tool calls already announced are kept.
  model_response interrupt();

 private:
  struct block {
    block_type type = block_type::other;
    std::string id;
    std::string name;
    std::string input_json;
    std::string signature;
  };

  result<void> on_block_start(const boost::json::object& event);
  result<void> on_block_delta(const event_fields& event);
  void on_block_stop(std::int64_t index);
  result<void> read_usage(const boost::json::object& usage);
  void finish_tool_use(block& tool_use);

  model_response response_;
  segment_writer writer_;
  std::map<std::int64_t, block> open_blocks_;
  std::string stop_reason_;
  bool done_ = false;  // message_stop seen
};

}  // namespace parley::llm::anthropic
