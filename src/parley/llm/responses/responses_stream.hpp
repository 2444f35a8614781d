// Internal: assembles a Responses API answer from its stream events (or from one whole response
// object) while forwarding it to the sink. Reasoning summary text streams as thinking and output
// text as saying; a function call's arguments are collected and the call announced when its item
// is done; reasoning items are kept, with their encrypted content, as the response's
// thinking_signature (responses_reasoning.hpp). Known events are read strictly (an error names the
// event and field); event types added after this was written are ignored, as the API asks.
#pragma once

#include <boost/json/object.hpp>

#include <map>
#include <string>
#include <vector>

#include "parley/http/sse_parser.hpp"
#include "parley/llm/provider.hpp"
#include "parley/llm/responses/responses_reasoning.hpp"
#include "parley/llm/segment_writer.hpp"

namespace parley::llm::responses {

class stream_assembler {
 public:
  explicit stream_assembler(stream_sink& sink) : writer_(sink, response_) {}

  result<void> on_event(const http::sse_event& event);
  // A whole non-streamed response object.
  result<void> on_response(const boost::json::object& response);

  // The end of the body; an error when no terminal event (completed, incomplete) came.
  result<model_response> finish();
  // Stopped on purpose: what arrived so far; tool calls already announced are kept.
  model_response interrupt();

 private:
  struct pending_call {
    std::string call_id;
    std::string name;
    std::string arguments;
  };

  result<void> on_item_added(const boost::json::object& event);
  result<void> on_item_done(const boost::json::object& item);
  result<void> on_summary_delta(const boost::json::object& event);
  result<void> on_arguments(const boost::json::object& event, bool done);
  result<void> on_terminal(const boost::json::object& event, std::string_view type);
  result<void> read_response(const boost::json::object& response, bool with_output);
  result<void> read_usage(const boost::json::object& usage);
  result<void> read_whole_item(const boost::json::object& item);

  model_response response_;
  segment_writer writer_;
  std::map<std::string, pending_call, std::less<>> calls_;  // by item id, until the item is done
  std::vector<reasoning_item> reasoning_;
  std::string summary_at_;  // "item id/summary index" of the last summary text, to separate parts
  std::string incomplete_reason_;
  bool done_ = false;  // response.completed or response.incomplete seen
};

}  // namespace parley::llm::responses
