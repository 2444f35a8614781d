// A records message's metadata that only copies its event's fields is read from the log (schema
// version 16, docs/store.md "Records refer to rows and to the log"). The reducer's metadata of a
// message made from a user_message, generation_finished, tool_result or reply_received is, in the
// common case, a fixed shape of that event's fields ({"course":1,"genseq":2,"promptVersion":"pv"},
// {"course":1,"callId":"c","name":"lookup","ok":true}, ...): 1.2 KB of a fanout-3 task's 18
// messages. The row then stores NULL, and kMessageMetadataFromLogSql builds the same text from the
// event. Any other metadata (a responder, thinking, an interrupted generation, an annotation, a
// string that JSON would escape) is stored as it is.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "parley/model/event.hpp"
#include "parley/model/events/records_enums.hpp"

namespace parley::sqlite {

// The metadata shape built from the event of the row of `message AS m` (NULL when its event is of
// none of the four types), as version 15 stored metadata (a tool_input's calls null,
// message_tool_calls.hpp). The writer stores NULL only where canonical_metadata_of equals the
// metadata, and it finds plain every string json_quote is asked to quote here, so the two agree
// byte for byte.
#define PARLEY_MESSAGE_METADATA_FROM_EVENT_SQL                                                                        \
  "(SELECT CASE WHEN json_valid(e_.payload) THEN CASE e_.type "                                                       \
  "WHEN 'user_message' THEN '{\"course\":' || json_extract(e_.payload, '$.course') || "                               \
  "CASE WHEN json_extract(e_.payload, '$.origin') = 'tellask' THEN ',\"origin\":\"tellask\"' ELSE '' END || '}' "     \
  "WHEN 'generation_finished' THEN '{\"course\":' || json_extract(e_.payload, '$.course') || ',\"genseq\":' || "      \
  "json_extract(e_.payload, '$.genseq') || "                                                                          \
  "CASE WHEN json_array_length(e_.payload, '$.toolCalls') > 0 THEN ',\"toolCalls\":null' ELSE '' END || "             \
  "CASE WHEN json_type(e_.payload, '$.promptVersion') = 'text' THEN ',\"promptVersion\":' || "                        \
  "json_quote(json_extract(e_.payload, '$.promptVersion')) ELSE '' END || '}' "                                       \
  "WHEN 'tool_result' THEN '{\"course\":' || json_extract(e_.payload, '$.course') || ',\"callId\":' || "              \
  "json_quote(json_extract(e_.payload, '$.callId')) || ',\"name\":' || json_quote(json_extract(e_.payload, "          \
  "'$.name')) || ',\"ok\":' || CASE WHEN coalesce(json_extract(e_.payload, '$.ok'), 1) THEN 'true' ELSE 'false' END " \
  "|| '}' "                                                                                                           \
  "WHEN 'reply_received' THEN CASE WHEN m.content_type = 'tool_output' THEN '{\"course\":' || "                       \
  "json_extract(e_.payload, '$.course') || ',\"callId\":' || json_quote(json_extract(e_.payload, '$.callId')) || "    \
  "',\"name\":' || json_quote(json_extract(e_.payload, '$.name')) || ',\"ok\":' || "                                  \
  "CASE WHEN coalesce(json_extract(e_.payload, '$.ok'), 1) THEN 'true' ELSE 'false' END || ',\"fromDialogId\":' || "  \
  "json_quote(json_extract(e_.payload, '$.fromDialogId')) || '}' "                                                    \
  "ELSE '{\"course\":' || json_extract(e_.payload, '$.course') || ',\"origin\":\"reply\",\"fromDialogId\":' || "      \
  "json_quote(json_extract(e_.payload, '$.fromDialogId')) || '}' END "                                                \
  "END END FROM events AS e_ WHERE "
// Version 16's expression, which its migration runs: the event named by (dialog_id, seq).
inline constexpr const char* kV16MessageMetadataFromLogSql =
    PARLEY_MESSAGE_METADATA_FROM_EVENT_SQL "e_.dialog_id = m.dialog_id AND e_.seq = m.seq)";
// Since version 22 the row names its event by id (records_v22.hpp).
inline constexpr const char* kMessageMetadataFromLogSql = PARLEY_MESSAGE_METADATA_FROM_EVENT_SQL "e_.id = m.event_id)";

// `m.metadata` as stored by version 15: its own, or else kMessageMetadataFromLogSql.
const std::string& stored_message_metadata_sql();

// The text kMessageMetadataFromLogSql builds from `ev` for a message of `content_type`, or nullopt
// when it builds none or a string in it is not plain (printable ASCII without '"' or '\'), whose
// JSON spelling the two might choose differently. The writer stores NULL when this equals the
// metadata it would store.
std::optional<std::string> canonical_metadata_of(const event& ev, events::content_type content_type);

// A records dialogue's metadata begins with its dialog's `dialogId` and `rootId` (the reducer
// writes them first), copies of its own `dialog_id` and of the dialog's root in `dialogs`. The row
// stores what follows them, without the closing brace ("" or `,"title":...`), and
// kDialogueMetadataSql puts them back; a metadata that does not begin so is stored whole (it
// begins with '{', which the rest never does).
inline constexpr const char* kDialogueMetadataSql =
    "CASE WHEN substr(d.metadata, 1, 1) = '{' THEN d.metadata ELSE '{\"dialogId\":' || json_quote(d.dialog_id) || "
    "',\"rootId\":' || json_quote((SELECT g.root_id FROM dialogs AS g WHERE g.id = d.dialog_id)) || d.metadata || "
    "'}' END";

// What a dialogue row of `dialog_id` under `root_id` stores of `metadata` (see kDialogueMetadataSql).
std::string dialogue_metadata_to_store(const std::string& metadata, std::string_view dialog_id,
                                       std::string_view root_id);

}  // namespace parley::sqlite
