// Takes a store's records back to what version 21 stored (before schema version 23,
// records_v23.hpp): every utterance a row of `system_utterance`, `system_utterance_log` the view
// version 16 made, and every dialogue's metadata the text after its dialogId and rootId ('' when
// that is all). Tests that take a store back a version run it first, then set the version they
// want; opening the store migrates it forward again.
#pragma once

#include <string>

#include "parley/store/sqlite/dialogue_metadata_from_log.hpp"
#include "parley/store/sqlite/message_log_metadata.hpp"
#include "parley/store/sqlite/records_v16.hpp"
#include "parley/store/sqlite/records_v22.hpp"

namespace parley::test {

inline const std::string& back_to_version_twenty_one_records_sql() {
  // The prefix version 16 strips from a dialogue's metadata, and the whole text the row stands for.
  static const std::string prefix =
      "('{\"dialogId\":' || json_quote(d.dialog_id) || ',\"rootId\":' || "
      "json_quote((SELECT g.root_id FROM dialogs AS g WHERE g.id = d.dialog_id)))";
  static const std::string whole =
      "(CASE WHEN d.metadata = '' THEN " + sqlite::dialogue_metadata_from_log_sql() + " ELSE d.metadata END)";
  static const std::string sql =
      "INSERT INTO system_utterance (message_rowid, trigger, target, notes) "
      "SELECT rowid, trigger, target, notes FROM system_utterance_log "
      "WHERE rowid NOT IN (SELECT message_rowid FROM system_utterance);\n"
      "DROP VIEW system_utterance_log;\n"
      "CREATE VIEW system_utterance_log AS SELECT m.id AS log_id, m.created_at AS timestamp, "
      "d.id AS conversation_id, u.trigger AS trigger, " +
      std::string(sqlite::kMessageContentSql) +
      " AS content, u.target AS target, t.id AS linked_turn_id, u.notes AS notes, u.message_rowid AS rowid "
      "FROM system_utterance AS u JOIN message AS m ON m.rowid = u.message_rowid "
      "JOIN dialogue AS d ON d.rowid = m.dialogue_rowid LEFT JOIN turn AS t ON t.rowid = m.turn_rowid;\n"
      "UPDATE dialogue AS d SET metadata = substr(" +
      whole + ", length(" + prefix + ") + 1, length(" + whole + ") - length(" + prefix +
      ") - 1) WHERE substr(d.metadata, 1, 1) != ',' AND substr(" + whole + ", 1, length(" + prefix + ")) = " + prefix +
      ";\n";
  return sql;
}

}  // namespace parley::test
