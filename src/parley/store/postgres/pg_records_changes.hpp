// What one transaction of the PostgreSQL store writes to seed 002's records: the steps the records
// reducer (model/conversation_reducer.hpp) made of its events, coalesced so that every row is
// written once — a row made in the transaction is inserted as it ends up, a row made before is
// updated — and sent as one JSON record set per statement (pg_records_statements.hpp), like the
// rest of a commit (pg_rows.hpp). Metadata patches (a session's close reason, a message's analysis
// or embedding status) are applied here with json_merge_patch, which keeps the member order
// SQLite's json_patch keeps; PostgreSQL's jsonb would sort the members and change the text.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/model/conversation_records.hpp"
#include "parley/store/postgres/pg_connection.hpp"

namespace parley::pg {

// A dialog's records cursor as the store knows it; nullopt for a dialog the records do not follow
// (made before they existed, with no rebuild since): its events change no record.
using records_cursor_slot = std::optional<records_cursor>;

// One statement of the records: a prepared statement's name and its record set.
struct records_statement {
  const char* name = nullptr;
  std::string records;
};

class records_changes {
 public:
  // Takes the rows one event made; steps come in log order. Never fails: what can (a patch of
  // metadata that does not parse) is done by `statements`.
  void add(records_step step);
  // The dialog's cursor after these changes.
  void set_cursor(const std::string& dialog_id, records_cursor_slot cursor);
  // The cursor these changes leave the dialog with, or nullptr when they did not touch it.
  const records_cursor_slot* cursor(const std::string& dialog_id) const;
  const std::map<std::string, records_cursor_slot>& cursors() const noexcept { return cursors_; }

  // The statements that write the changes, in the order they must run. Reads on `conn` the
  // metadata of rows made before that a patch changes (inside the transaction when called in one).
  result<std::vector<records_statement>> statements(connection& conn) const;

 private:
  // Rows made in this transaction, in the order they were made (their log order), by id.
  template <class Row>
  struct made_rows {
    std::vector<Row> rows;
    std::unordered_map<std::string, std::size_t> at;
    Row* find(const std::string& id) {
      const auto found = at.find(id);
      return found == at.end() ? nullptr : &rows[found->second];
    }
    void add(Row row) {
      at.insert_or_assign(row.id, rows.size());
      rows.push_back(std::move(row));
    }
  };
  struct activity {
    bool is_active = false;
    std::int64_t last_activity_at = 0;
  };
  // A session made before, closed now: its end, summary and the patches of its metadata.
  struct session_close {
    std::int64_t end_at = 0;
    std::string summary;
    std::vector<std::string> patches;
  };
  struct embedding {
    std::string model;
    std::int64_t dimensions = 0;
    std::string vector;  // little-endian float32 bytes
  };

  void add_dialogue(const record_dialogue& d, bool made);
  void close_session(const record_session& s);
  void close_turn(const record_turn& t);
  void annotate(const record_message_annotation& a);
  void add_link(const record_memory_link& l);

  // The record sets of the rows these changes make, and of those they update.
  result<void> write_made(std::vector<records_statement>& out) const;
  result<void> write_updates(connection& conn, std::vector<records_statement>& out) const;
  void write_reflection(std::vector<records_statement>& out) const;
  result<std::string> sessions_closed(connection& conn) const;
  result<std::string> messages_patched(connection& conn) const;

  made_rows<record_dialogue> dialogues_;
  std::map<std::string, activity> activity_;  // of dialogues made before
  made_rows<record_session> sessions_;
  std::map<std::string, std::vector<std::string>> session_patches_;  // of sessions made here
  std::map<std::string, session_close> closed_sessions_;             // made before
  made_rows<record_turn> turns_;
  std::map<std::string, record_turn> closed_turns_;  // made before: the latest closing
  made_rows<record_message> messages_;
  std::map<std::string, std::vector<std::string>> message_patches_;  // any message, in order
  std::map<std::string, embedding> embeddings_;                      // the latest of each message
  std::vector<record_system_utterance> utterances_;
  std::vector<record_introspection> introspections_;
  std::vector<record_memory_entry> memories_;
  std::vector<record_memory_link> links_;
  std::set<std::pair<std::string, std::string>> linked_;  // (turn, memory): a link made twice is one
  std::map<std::string, records_cursor_slot> cursors_;
};

}  // namespace parley::pg
