// Writes seed 002's records (conversation_reducer.hpp) in the projector's transaction, next to the
// dialog projection. The reducer's per-dialog cursor lives in `records_cursor`; the writer keeps
// the cursors it has read or changed in memory (reading and rewriting the row for every event was
// a tenth of the writer's work) and writes the changed ones once, before its transaction commits,
// so the table holds them whenever a transaction ends. A dialogue's activity (is_active,
// last_activity_at), which nearly every message changes, is written the same way.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/model/conversation_records.hpp"
#include "parley/model/event.hpp"
#include "parley/model/projection.hpp"
#include "parley/model/records.hpp"
#include "parley/store/sqlite/recency_cache.hpp"
#include "parley/store/sqlite/record_id.hpp"
#include "parley/store/sqlite/sqlite_handle.hpp"

namespace parley::sqlite {

class records_writer {
 public:
  // Keeps the cursors of at most `cached_dialogs` dialogs between flushes.
  explicit records_writer(std::size_t cached_dialogs) : cursors_(cached_dialogs) {}

  // Prepares every statement on `db`, which must outlive this object.
  result<void> prepare(connection& db);

  // Folds one applied event (its dialog row after it, and what apply_event made of it). A message
  // made from it names it by `event_id`, its row id in the log (records_v22.hpp).
  result<void> apply(const event& ev, std::int64_t event_id, const dialog_row& row_after, const projection_step& step);

  // Writes the cursors and dialogue activity changed since the last flush. Call before committing.
  result<void> flush();
  // Forgets what is held in memory, changed or not: after a rollback the tables are the truth again.
  void forget() noexcept;
  std::size_t cached_dialogs() const noexcept { return cursors_.size(); }

 private:
  // prepare's steps (records_writer_statements.cpp), by the rows the statements touch.
  result<void> prepare_cursor_statements(connection& db);
  result<void> prepare_record_statements(connection& db);
  result<void> prepare_lookup_statements(connection& db);
  result<void> prepare_reflection_statements(connection& db);
  result<void> prepare_annotation_statements(connection& db);
  // A row the records refer to by rowid (schema version 16, records_v16.hpp): the UUID it was
  // found or written with.
  struct known_rowid {
    std::string id;
    std::int64_t rowid = 0;
  };
  struct cached_cursor {
    bool exists = false;  // a dialog created before the records existed has none
    bool dirty = false;
    records_cursor cursor;
    // The dialog's latest dialogue, session and turn, which nearly every row it writes refers to:
    // remembered, so that a message costs no lookup of them.
    known_rowid dialogue, session, turn;
  };
  result<cached_cursor*> cursor_for(const event& ev);
  // The cursor and the rowids of the rows it names (records_cursor keeps those, schema 16).
  result<bool> load_cursor(const std::string& dialog_id, cached_cursor& loaded);
  result<void> save_cursor(cached_cursor& cached);
  // `ev` made the rows: a message whose text or tool calls are a copy of its fields refers to it
  // (message_tool_calls.hpp, records_v16.hpp).
  result<void> write(const records_step& rows, const event& ev, std::int64_t event_id, cached_cursor& known);
  // The rowid of `id` in the table `find` looks it up in: `known`'s when it is that row, else
  // found (and then remembered there); 0 for "" or a row that does not exist.
  result<std::int64_t> rowid_of(statement& find, known_rowid& known, const std::string& id);
  result<void> write_dialogue(const record_dialogue& d, bool inserted, const event& ev, cached_cursor& known);
  result<void> insert_turn(const record_turn& t, cached_cursor& known);
  // `message_rowid`/`message_id`: the message this step inserted (0 and "" when none).
  result<void> close_turn(const record_turn& t, std::int64_t message_rowid, const std::string& message_id);
  result<void> insert_session(const record_session& s, cached_cursor& known);
  result<void> insert_message(const record_message& m, const event& ev, std::int64_t event_id, cached_cursor& known);
  // The log's row id of the event at (dialog_id, seq), or 0 when the log has none.
  result<std::int64_t> event_id_of(const std::string& dialog_id, std::int64_t seq);
  // An utterance is stored as a reference to its message's row (schema version 14), and only when
  // its values are not what the log gives (schema version 23, utterance_from_log.hpp).
  result<void> insert_utterance(const record_system_utterance& u, std::int64_t message_rowid);
  result<void> insert_introspection(const record_introspection& t);
  result<void> insert_memory(const record_memory_entry& m);
  result<void> insert_link(const record_memory_link& l);
  result<void> annotate(const record_message_annotation& a);

  connection* db_ = nullptr;
  statement load_cursor_, save_cursor_, insert_dialogue_, update_dialogue_, insert_session_, close_session_,
      insert_turn_, close_turn_, insert_message_, insert_fts_, insert_utterance_, insert_introspection_, insert_memory_,
      insert_link_, patch_message_metadata_, upsert_embedding_, find_dialogue_, find_session_, find_turn_,
      find_message_, find_event_;
  struct dialogue_activity {
    bool is_active = false;
    std::int64_t last_activity_at = 0;
  };
  std::int64_t last_message_rowid_ = 0;  // of the latest insert_message
  // The 16 bytes of the ids bound at each parameter index (bind_record_id), until the statement
  // that is bound next at that index: each statement is run right after its binds.
  std::array<uuid_bytes, 7> id_bytes_{};
  recency_cache<cached_cursor> cursors_;
  std::unordered_map<std::string, dialogue_activity> activity_;  // by dialogue id, not yet written
  std::vector<cached_cursor*> dirty_cursors_;                    // nodes of cursors_, whose addresses are stable
};

}  // namespace parley::sqlite
