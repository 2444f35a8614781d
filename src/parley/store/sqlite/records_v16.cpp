#include "parley/store/sqlite/records_v16.hpp"

#include <string>

#include "parley/store/sqlite/message_log_metadata.hpp"
#include "parley/store/sqlite/records_v22.hpp"

namespace parley::sqlite {

namespace {

// A dialogue's metadata keeps what follows its dialogId and rootId (message_log_metadata.hpp),
// where they are what kDialogueMetadataSql puts back.
std::string v16_dialogue_metadata_trim_sql() {
  const std::string prefix =
      "('{\"dialogId\":' || json_quote(dialogue.dialog_id) || ',\"rootId\":' || "
      "json_quote((SELECT g.root_id FROM dialogs AS g WHERE g.id = dialogue.dialog_id)))";
  const std::string after_prefix = "substr(metadata, length(" + prefix + ") + 1, 1)";
  return "UPDATE dialogue SET metadata = substr(metadata, length(" + prefix + ") + 1, length(metadata) - length(" +
         prefix + ") - 1) WHERE substr(metadata, 1, length(" + prefix + ")) = " + prefix + " AND (" + after_prefix +
         " = ',' OR " + after_prefix + " = '}') AND substr(metadata, -1) = '}';\n";
}

}  // namespace

std::string records_views_sql(const std::string& content_sql) {
  return
      // What search finds a message by (records_writer indexes exactly this text).
      "CREATE VIEW message_search AS SELECT m.rowid AS message_rowid, "
      "CASE WHEN m.content_meta IS NULL THEN " +
      content_sql + " ELSE " + content_sql +
      " || char(10) || coalesce(json_extract(m.content_meta, '$.caption'), '') || char(10) || "
      "coalesce(json_extract(m.content_meta, '$.transcription'), '') || char(10) || "
      "coalesce(json_extract(m.content_meta, '$.text'), '') END AS content FROM message AS m;\n"
      // The seed's SystemUtteranceLog: an utterance is its message (schema version 14).
      "CREATE VIEW system_utterance_log AS SELECT m.id AS log_id, m.created_at AS timestamp, "
      "d.id AS conversation_id, u.trigger AS trigger, " +
      content_sql +
      " AS content, u.target AS target, t.id AS linked_turn_id, u.notes AS notes, u.message_rowid AS rowid "
      "FROM system_utterance AS u JOIN message AS m ON m.rowid = u.message_rowid "
      "JOIN dialogue AS d ON d.rowid = m.dialogue_rowid LEFT JOIN turn AS t ON t.rowid = m.turn_rowid;\n";
}

const char* v16_records_from_log_sql() {
  static const std::string sql =
      // A message's metadata that is the shape its event builds is read from the log
      // (message_log_metadata.hpp).
      std::string("UPDATE message AS m SET metadata = NULL WHERE m.metadata = ") + kV16MessageMetadataFromLogSql +
      ";\n" + v16_dialogue_metadata_trim_sql() + records_views_sql(kV16MessageContentSql);
  return sql.c_str();
}

const char* v22_views_sql() {
  static const std::string sql = records_views_sql(kMessageContentSql);
  return sql.c_str();
}

}  // namespace parley::sqlite
