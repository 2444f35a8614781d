// Turns a provider's deltas into the sink's segment events and the assembled response at once,
// keeping the stream order contract: a thinking or saying segment is finished before the other
// kind starts or a tool call is announced, and empty text never opens a segment.
#pragma once

#include <string_view>

#include "parley/llm/provider.hpp"

namespace parley::llm {

class segment_writer {
 public:
  segment_writer(stream_sink& sink, model_response& response) : sink_(sink), response_(response) {}
  segment_writer(const segment_writer&) = delete;
  segment_writer& operator=(const segment_writer&) = delete;

  void thinking(std::string_view text);
  void saying(std::string_view text);
  // Finishes the open segment, if any.
  void close();
  // Closes the open segment, records the call in the response and announces it.
  void tool_call(llm::tool_call call);

 private:
  enum class segment { none, thinking, saying };
  void open(segment kind);

  stream_sink& sink_;
  model_response& response_;
  segment open_ = segment::none;
};

}  // namespace parley::llm
