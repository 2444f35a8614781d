// Schema version 22: a records message names its event by the log's row id (docs/store.md "A
// message names its event by id"). Kept apart from schema.cpp's list so the version it gets there
// is the only thing tied to it.
//
// A message found its event, whose fields its text and metadata are read from (records_v16.hpp,
// message_log_metadata.hpp, message_tool_calls.hpp), by `dialog_id` (16 characters of text) and
// `seq`: ~19 bytes of each of a fanout-3 task's 18 message rows. The row now keeps the event's
// `event_log.id` in `event_id` (a 1- to 4-byte integer), and every lookup of the event is one by
// rowid instead of one through `dialog_keys` and the `(dialog_key, seq)` index. A reader that
// wants the pair reads it from the event (kMessageDialogIdSql, kMessageSeqSql).
//
// The migration fills `event_id` from the pair, drops the two columns (no index names them) and
// makes the two views that read the text through the log again. A row whose pair names no event
// (the projector never writes one: a message is made from the event it applies) keeps NULL; it
// then reads its dialog id from its dialogue and seq 0.
#pragma once

#include "parley/store/sqlite/records_v16.hpp"

namespace parley::sqlite {

// `m.content` of `message AS m` as the reducer wrote it (kV16MessageContentSql, by event id).
inline constexpr const char* kMessageContentSql = PARLEY_MESSAGE_CONTENT_FROM_EVENT_SQL "e_.id = m.event_id))";

// The dialog id and seq of the event of `message AS m`, as version 21 stored them in the row.
inline constexpr const char* kMessageDialogIdSql =
    "coalesce((SELECT k_.id FROM event_log AS l_ JOIN dialog_keys AS k_ ON k_.key = l_.dialog_key "
    "WHERE l_.id = m.event_id), (SELECT g_.dialog_id FROM dialogue AS g_ WHERE g_.rowid = m.dialogue_rowid), '')";
inline constexpr const char* kMessageSeqSql =
    "coalesce((SELECT l_.seq FROM event_log AS l_ WHERE l_.id = m.event_id), 0)";

// The rest of version 22, run after kV22MessageEventIdSql: the views made again over
// kMessageContentSql (records_views_sql).
const char* v22_views_sql();

inline constexpr const char* kV22MessageEventIdSql = R"sql(
DROP VIEW system_utterance_log;
DROP VIEW message_search;
ALTER TABLE message ADD COLUMN event_id INTEGER;
UPDATE message SET event_id = (SELECT l.id FROM event_log AS l JOIN dialog_keys AS k ON k.key = l.dialog_key
                               WHERE k.id = message.dialog_id AND l.seq = message.seq);
ALTER TABLE message DROP COLUMN dialog_id;
ALTER TABLE message DROP COLUMN seq;
)sql";

}  // namespace parley::sqlite
