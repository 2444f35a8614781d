// Internal: the fields of a Messages stream event that the assembler reads for the events that
// come by the hundred — content_block_delta, content_block_stop, message_stop, ping. They are read
// by walking the text once with a SAX parser that keeps only these fields: building and freeing a
// JSON tree for each small event cost more than everything else the assembler does with it (see
// openai_chunk.hpp). The other events (message_start, content_block_start, message_delta, error)
// come once or twice per answer and are parsed whole. Where the JSON repeats a key, the last one
// counts, as in Boost.JSON's objects.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace parley::llm::anthropic {

// Strings are empty where the event has no string.
struct event_delta {
  bool present = false;  // `delta` is an object
  std::string type;
  std::string text;
  std::string thinking;
  std::string signature;
  std::string partial_json;

  void clear();
};

struct event_fields {
  std::string type;
  std::int64_t index = 0;  // 0 where the event has no number
  event_delta delta;

  void clear();
};

// The event's fields, or nullptr when `text` is not a JSON object or is invalid. The fields stay
// valid until the next call on the same thread.
const event_fields* read_event_fields(std::string_view text);

}  // namespace parley::llm::anthropic
