#include "parley/llm/openai/openai_chunk.hpp"

namespace parley::llm::openai {

void chunk_tool_call::clear() {
  index = -1;
  id.clear();
  has_function = false;
  name.clear();
  arguments.clear();
}

void chunk_message::clear() {
  present = false;
  reasoning_content.clear();
  reasoning.clear();
  content.clear();
  tool_call_count = 0;
}

namespace {

// The next entry of a list whose buffers are kept from chunk to chunk, cleared.
template <class Entry>
Entry& next_entry(std::vector<Entry>& entries, std::size_t& count) {
  if (count == entries.size()) entries.emplace_back();
  Entry& entry = entries[count++];
  entry.clear();
  return entry;
}

}  // namespace

chunk_tool_call& chunk_message::add_tool_call() { return next_entry(tool_calls, tool_call_count); }

void chunk_choice::clear() {
  index = 0;
  delta.clear();
  message.clear();
  finish_reason.clear();
}

void chunk_fields::clear() {
  usage = chunk_usage{};
  choice_count = 0;
}

chunk_choice& chunk_fields::add_choice() { return next_entry(choices, choice_count); }

}  // namespace parley::llm::openai
