// A records message that calls tools (seed 002 `tool_input`) refers to the log for its calls
// (schema version 15, docs/store.md "A message's tool calls, once"). The reducer puts the
// generation's `toolCalls` in the message's metadata, a copy of the `generation_finished` event
// the message names by (dialog_id, seq): 0.8 KB of a fanout-3 task. The SQLite store keeps the
// key, with null in place of the calls, so the metadata keeps its key order, and every reader of
// `message.metadata` reads it through message_metadata_sql(), which puts the calls back from the
// event. A message whose calls are not that event's (one the migration found different, or a
// message written through the records routes) keeps its own copy.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace parley::sqlite {

// The metadata to store for a message made from a `generation_finished` event: `metadata` with
// the value of its top-level "toolCalls" array replaced by null, or nullopt when it has none. A
// scan of the text, not a parse: json_replace in the INSERT cost 2 % of the records writer's
// instructions. The reducer writes the key at the top level, before any nested object, and a
// `"toolCalls":[` inside a string value has its quotes escaped, so the first match is the key.
std::optional<std::string> metadata_without_tool_calls(std::string_view metadata);

// `m.metadata` of `message AS m` as the reducer wrote it. Only a `tool_input` message whose
// stored calls are null is looked up (instr first: json_type would parse every other row);
// json() gives the extracted text its JSON type again, which a subquery's result has lost. What
// is stored may itself be read from the log since version 16 (message_log_metadata.hpp).
const std::string& message_metadata_sql();

// The migration to version 15: every stored copy that is exactly its event's calls becomes null.
// CASE guards the json calls with json_valid, so a row or payload no json function can read is
// left as it is.
inline constexpr const char* kV15MessageToolCallsSql = R"sql(
UPDATE message SET metadata = json_replace(metadata, '$.toolCalls', NULL)
  WHERE content_type = 'tool_input' AND CASE WHEN json_valid(metadata) THEN
      json_type(metadata, '$.toolCalls') = 'array' AND EXISTS (
        SELECT 1 FROM events AS e
        WHERE e.dialog_id = message.dialog_id AND e.seq = message.seq AND e.type = 'generation_finished' AND
          CASE WHEN json_valid(e.payload) THEN
            json(json_extract(e.payload, '$.toolCalls')) = json_extract(message.metadata, '$.toolCalls')
          ELSE 0 END)
    ELSE 0 END;
)sql";

}  // namespace parley::sqlite
