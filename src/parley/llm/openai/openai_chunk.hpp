// Internal: the fields of a Chat Completions chunk (or of a whole, non-streamed response) that the
// stream assembler uses. read_chunk_fields walks the text once with a SAX parser and keeps only
// these fields: a streamed answer is hundreds of small chunks, and building and freeing a JSON tree
// for each was a third of a streamed model call's CPU. What it finds is what a full parse of the
// text finds (the tests hold it to that); where the JSON repeats a key, the last one counts, as in
// Boost.JSON's objects.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parley::llm::openai {

// Strings are empty where the chunk has no string; an index is -1 where it has no number.
struct chunk_tool_call {
  std::int64_t index = -1;
  std::string id;
  bool has_function = false;  // `function` is an object
  std::string name;
  std::string arguments;

  void clear();
};

struct chunk_message {
  bool present = false;  // the field is an object
  std::string reasoning_content;
  std::string reasoning;
  std::string content;
  // Buffers are kept from chunk to chunk: the first `tool_call_count` entries are this chunk's.
  std::vector<chunk_tool_call> tool_calls;
  std::size_t tool_call_count = 0;

  void clear();
  chunk_tool_call& add_tool_call();
};

struct chunk_choice {
  std::int64_t index = 0;  // 0 where the choice has no number
  chunk_message delta;
  chunk_message message;  // a whole response's
  std::string finish_reason;

  void clear();
};

// A count is empty where the chunk has no number for it.
struct chunk_usage {
  bool present = false;  // `usage` is an object
  std::optional<std::int64_t> prompt_tokens;
  std::optional<std::int64_t> completion_tokens;
  std::optional<std::int64_t> cached_tokens;     // prompt_tokens_details.cached_tokens
  std::optional<std::int64_t> reasoning_tokens;  // completion_tokens_details.reasoning_tokens
};

struct chunk_fields {
  chunk_usage usage;
  std::vector<chunk_choice> choices;  // object elements of `choices` only
  std::size_t choice_count = 0;

  void clear();
  chunk_choice& add_choice();
};

// The chunk's fields, or nullptr when `text` is not a JSON object, is invalid, or carries a
// non-null `error`: a full parse then says what is wrong. The fields stay valid until the next
// call on the same thread.
const chunk_fields* read_chunk_fields(std::string_view text);

}  // namespace parley::llm::openai
