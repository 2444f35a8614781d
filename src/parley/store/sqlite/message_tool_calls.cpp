#include "parley/store/sqlite/message_tool_calls.hpp"

namespace parley::sqlite {

std::optional<std::string> metadata_without_tool_calls(std::string_view metadata) {
  constexpr std::string_view kKey = "\"toolCalls\":[";
  const auto key = metadata.find(kKey);
  if (key == std::string_view::npos) return std::nullopt;
  const std::size_t begin = key + kKey.size() - 1;  // the '['
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = begin; i < metadata.size(); ++i) {
    const char c = metadata[i];
    if (in_string) {
      if (c == '\\') {
        ++i;  // the escaped character, whatever it is
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      ++depth;
    } else if ((c == ']' || c == '}') && --depth == 0) {
      std::string stored;
      stored.reserve(metadata.size() - (i + 1 - begin) + 4);
      stored.append(metadata.substr(0, begin)).append("null").append(metadata.substr(i + 1));
      return stored;
    }
  }
  return std::nullopt;  // not JSON the reducer wrote: kept whole
}

}  // namespace parley::sqlite
