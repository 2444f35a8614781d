// Schema version 19: the records' ids as 16 bytes (record_id.hpp, docs/store.md "Record ids as 16
// bytes"). Kept apart from schema.cpp's list so the version it gets there is the only thing tied to
// it.
//
// A UUID id (what record_uuid makes) took 36 bytes of text in its row and again in its unique index:
// a fanout-3 task has 18 messages, 4 turns, 4 sessions and 4 dialogues. Stored as its 16 bytes it
// takes 17 (with its header byte). Any other id, which older data or a caller may hold, stays the
// text it is. The columns keep their TEXT declaration: a blob keeps its storage class under TEXT
// affinity, so the tables are not made again, only their id values rewritten. The views read the
// columns as they are; the reader gives the text back (record_id_text).
//
// A closed turn's metadata was `{"respondedBy":"<the answering message's UUID>"}`, 54 bytes a turn:
// such a turn now keeps that message's rowid in `responded_by` and '' as its metadata, and the
// reader builds the same text back (kTurnMetadataSql). Any other metadata is kept as it is.
#pragma once

namespace parley::sqlite {

inline constexpr const char* kV19RecordIdsSql = R"sql(
UPDATE dialogue SET id = record_id_blob(id), relation_id = record_id_blob(relation_id);
UPDATE session SET id = record_id_blob(id);
UPDATE turn SET id = record_id_blob(id);
UPDATE message SET id = record_id_blob(id);
UPDATE message_embedding SET message_id = record_id_blob(message_id);
UPDATE introspection_turn SET id = record_id_blob(id), session_id = record_id_blob(session_id),
  dialogue_id = record_id_blob(dialogue_id);
UPDATE memory_entry SET id = record_id_blob(id), dialogue_id = record_id_blob(dialogue_id),
  source_turn_id = record_id_blob(source_turn_id);
UPDATE memory_links SET turn_id = record_id_blob(turn_id), memory_id = record_id_blob(memory_id);
ALTER TABLE turn ADD COLUMN responded_by INTEGER;
UPDATE turn SET responded_by = (SELECT m.rowid FROM message AS m WHERE m.id = record_id_blob(json_extract(turn.metadata,
                                '$.respondedBy'))), metadata = ''
  WHERE json_valid(metadata) AND json_type(metadata, '$.respondedBy') = 'text' AND
    metadata = '{"respondedBy":' || json_quote(json_extract(metadata, '$.respondedBy')) || '}' AND
    typeof(record_id_blob(json_extract(metadata, '$.respondedBy'))) = 'blob' AND
    EXISTS (SELECT 1 FROM message AS m WHERE m.id = record_id_blob(json_extract(turn.metadata, '$.respondedBy')));
)sql";

// `t.metadata` of `turn AS t` as the reducer wrote it: a turn that names its answering message by
// rowid (`responded_by`) stored '' for `{"respondedBy":"<that message's UUID>"}`.
inline constexpr const char* kTurnMetadataSql =
    "CASE WHEN t.responded_by IS NULL THEN t.metadata ELSE '{\"respondedBy\":' || json_quote(coalesce(("
    "SELECT record_id_text(x.id) FROM message AS x WHERE x.rowid = t.responded_by), '')) || '}' END";

}  // namespace parley::sqlite
