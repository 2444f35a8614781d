// What an OpenAI-compatible server streams, for the fake servers of the tests: one SSE chunk of a
// chat completion with its `delta` (a JSON object's text) and `finish_reason` (JSON: null or a string).
#pragma once

#include <string>
#include <string_view>

namespace parley::testing {

inline std::string openai_chunk(std::string_view delta, std::string_view finish_reason) {
  return R"(data: {"id":"c1","choices":[{"index":0,"delta":)" + std::string(delta) + R"(,"finish_reason":)" +
         std::string(finish_reason) + "}]}\n\n";
}

}  // namespace parley::testing
