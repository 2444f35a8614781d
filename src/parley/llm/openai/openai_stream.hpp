// Internal: assembles a Chat Completions answer from its streamed chunks (or from one whole
// response) while forwarding it to the sink. Tool calls are put together by `index` — id and name
// come in the first delta of a call, its arguments in pieces — and announced when the stream ends.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "parley/http/sse_parser.hpp"
#include "parley/llm/openai/openai_chunk.hpp"
#include "parley/llm/provider.hpp"
#include "parley/llm/segment_writer.hpp"

namespace parley::llm::openai {

class stream_assembler {
 public:
  explicit stream_assembler(stream_sink& sink) : writer_(sink, response_) {}

  // One SSE event: a JSON chunk, or "[DONE]".
  result<void> on_event(const http::sse_event& event);
  // The body of a non-streamed answer, which has the shape of one big chunk with `message`.
  result<void> on_whole_answer(std::string_view body);
  bool done() const noexcept { return done_; }

  // The end of the body: announces the tool calls and returns the response. An error when the
  // stream stopped before the model finished.
  result<model_response> finish();
  // Stopped on purpose: what arrived so far, without the unfinished tool calls.
  model_response interrupt();

 private:
  struct partial_call {
    std::string id;
    std::string name;
    std::string arguments;
  };

  void take(const chunk_fields& chunk);
  void on_choice(const chunk_choice& choice);
  void on_tool_call_delta(const chunk_tool_call& delta);
  void read_usage(const chunk_usage& usage);

  model_response response_;
  segment_writer writer_;
  std::map<std::int64_t, partial_call> calls_;  // by index: the order the model made them in
  std::int64_t last_index_ = -1;
  bool done_ = false;      // "[DONE]" seen
  bool finished_ = false;  // a finish_reason seen
};

}  // namespace parley::llm::openai
