#include "parley/store/sqlite/records_schema.hpp"

namespace parley::sqlite {

result<void> clear_records(connection& db) {
  // An external-content FTS index is emptied with its own command, not by deleting its rows.
  return db.exec(
      "DELETE FROM message; INSERT INTO message_fts (message_fts) VALUES ('delete-all'); DELETE FROM turn; "
      "DELETE FROM memory_links; DELETE FROM memory_entry; DELETE FROM introspection_turn; "
      "DELETE FROM system_utterance; DELETE FROM session; DELETE FROM dialogue; DELETE FROM records_cursor; "
      "DELETE FROM message_embedding;");
}

}  // namespace parley::sqlite
