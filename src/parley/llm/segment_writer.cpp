#include "parley/llm/segment_writer.hpp"

namespace parley::llm {

void segment_writer::open(segment kind) {
  if (open_ == kind) return;
  close();
  open_ = kind;
  if (kind == segment::thinking) sink_.on_thinking_start();
  if (kind == segment::saying) sink_.on_saying_start();
}

void segment_writer::thinking(std::string_view text) {
  if (text.empty()) return;
  open(segment::thinking);
  response_.thinking.append(text);
  sink_.on_thinking_chunk(text);
}

void segment_writer::saying(std::string_view text) {
  if (text.empty()) return;
  open(segment::saying);
  response_.saying.append(text);
  sink_.on_saying_chunk(text);
}

void segment_writer::close() {
  const segment was = open_;
  open_ = segment::none;
  if (was == segment::thinking) sink_.on_thinking_finish();
  if (was == segment::saying) sink_.on_saying_finish();
}

void segment_writer::tool_call(llm::tool_call call) {
  close();
  response_.tool_calls.push_back(std::move(call));
  sink_.on_tool_call(response_.tool_calls.back());
}

}  // namespace parley::llm
