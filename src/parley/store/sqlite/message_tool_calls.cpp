#include "parley/store/sqlite/message_tool_calls.hpp"

#include "parley/store/sqlite/message_log_metadata.hpp"

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

const std::string& message_metadata_sql() {
  static const std::string sql = [] {
    const std::string& stored = stored_message_metadata_sql();
    return "CASE WHEN m.content_type = 'tool_input' AND instr(" + stored + ", '\"toolCalls\":null') > 0 THEN " +
           "CASE WHEN json_valid(" + stored + ") AND json_type(" + stored + ", '$.toolCalls') = 'null' THEN " +
           "json_set(" + stored +
           ", '$.toolCalls', json((SELECT json_extract(e.payload, '$.toolCalls') FROM events AS e "
           "WHERE e.id = m.event_id AND e.type = 'generation_finished'))) "
           "ELSE " +
           stored + " END ELSE " + stored + " END";
  }();
  return sql;
}

}  // namespace parley::sqlite
