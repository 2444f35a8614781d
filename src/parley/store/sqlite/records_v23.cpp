#include "parley/store/sqlite/records_v23.hpp"

#include <string>

#include "parley/store/sqlite/dialogue_metadata_from_log.hpp"
#include "parley/store/sqlite/message_log_metadata.hpp"
#include "parley/store/sqlite/utterance_from_log.hpp"

namespace parley::sqlite {

const char* v23_records_from_log_sql() {
  static const std::string sql =
      "DROP VIEW system_utterance_log;\n" + system_utterance_log_view_sql() +
      "DELETE FROM system_utterance WHERE message_rowid IN (SELECT m.rowid FROM message AS m "
      "JOIN system_utterance AS u ON u.message_rowid = m.rowid WHERE m.sender_role = 'system' AND u.trigger IS " +
      derived_utterance_trigger_sql() + " AND u.target IS " + kDerivedUtteranceTargetSql + " AND u.notes IS " +
      derived_utterance_notes_sql() +
      ");\n"
      // SET reads the row as it was: kDialogueMetadataSql gives its whole text as version 16 stored it.
      // A text with an escape keeps its row, as the writer keeps it (dialogue_metadata_is_in_log).
      "UPDATE dialogue AS d SET metadata = CASE WHEN " +
      std::string(kDialogueMetadataSql) + " IS " + dialogue_metadata_from_log_sql() + " AND instr(" +
      kDialogueMetadataSql + ", '\\') = 0 THEN '' WHEN d.metadata = '' THEN " + kDialogueMetadataSql +
      " ELSE d.metadata END;\n";
  return sql.c_str();
}

}  // namespace parley::sqlite
