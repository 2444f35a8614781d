#include "parley/store/sqlite/compact_log.hpp"

#include "parley/store/sqlite/log_bases.hpp"

#include <string>

namespace parley::sqlite {
namespace {

// Every type this binary knew when the log took codes, in the order of events::event_payload.
// Fixed forever: a later type gets the next free code when first logged (log_keys::type_code).
constexpr const char* kEventTypeCodesSql = R"sql(
INSERT INTO event_types (code, name) VALUES
  (1, 'dialog_created'), (2, 'user_message'), (3, 'generation_started'), (4, 'generation_finished'),
  (5, 'generation_progress'), (6, 'prompt_logged'), (7, 'generation_discarded'), (8, 'tool_result'),
  (9, 'drive_failed'), (10, 'status_changed'), (11, 'course_started'), (12, 'tellask_called'),
  (13, 'reply_received'), (14, 'answer_delivered'), (15, 'question_asked'), (16, 'question_answered'),
  (17, 'reminder_added'), (18, 'reminder_updated'), (19, 'reminder_deleted'), (20, 'taskdoc_changed'),
  (21, 'context_health'), (22, 'declared_dead'), (23, 'drive_resumed'), (24, 'event_quarantined'),
  (25, 'turn_window_expired'), (26, 'record_session_opened'), (27, 'record_session_closed'),
  (28, 'record_turn_opened'), (29, 'record_turn_closed'), (30, 'record_message'), (31, 'record_introspection'),
  (32, 'record_memory_link'), (33, 'record_message_analyzed'), (34, 'record_message_embedded'),
  (35, 'flow_thread_saved'), (36, 'flow_thread_appended'), (37, 'flow_message_updated'),
  (38, 'flow_settings_updated');
)sql";

// Dialog keys are given in the order ids first appear in the log (a root before its dialog), so,
// like the time-ordered ids, the `(dialog_key, seq)` index grows at its end. Small integer columns
// come before the payload, so reading them never follows a long payload's overflow pages.
constexpr const char* kV17MapsSql = R"sql(
CREATE TABLE event_types (
  code INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE
);
CREATE TABLE dialog_keys (
  key INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE
);
)sql";

// The fixed codes are in (kEventTypeCodesSql) before the log's other types take the next ones.
constexpr const char* kV17LogSql = R"sql(
INSERT INTO event_types (name)
  SELECT type FROM events WHERE type NOT IN (SELECT name FROM event_types) GROUP BY type ORDER BY min(id);
INSERT OR IGNORE INTO dialog_keys (id)
  SELECT v FROM (SELECT root_id AS v, id AS i, 0 AS o FROM events UNION ALL SELECT dialog_id, id, 1 FROM events)
  ORDER BY i, o;
CREATE TABLE event_log (
  id INTEGER PRIMARY KEY,
  dialog_key INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  root_key INTEGER NOT NULL,
  type_code INTEGER NOT NULL,
  ts_ms INTEGER NOT NULL,
  payload TEXT NOT NULL,
  UNIQUE (dialog_key, seq)
);
INSERT INTO event_log (id, dialog_key, seq, root_key, type_code, ts_ms, payload)
  SELECT e.id, d.key, e.seq, r.key, t.code, e.ts_ms, e.payload
  FROM events AS e JOIN dialog_keys AS d ON d.id = e.dialog_id JOIN dialog_keys AS r ON r.id = e.root_id
    JOIN event_types AS t ON t.name = e.type
  ORDER BY e.id;
DROP VIEW events_readable;
DROP TABLE events;
CREATE VIEW events AS
  SELECT l.id AS id, d.id AS dialog_id, r.id AS root_id, l.seq AS seq, t.name AS type, l.payload AS payload,
         l.ts_ms AS ts_ms
  FROM event_log AS l JOIN dialog_keys AS d ON d.key = l.dialog_key JOIN dialog_keys AS r ON r.key = l.root_key
    JOIN event_types AS t ON t.code = l.type_code;
CREATE TRIGGER events_insert INSTEAD OF INSERT ON events BEGIN
  INSERT OR IGNORE INTO dialog_keys (id) VALUES (new.root_id), (new.dialog_id);
  INSERT OR IGNORE INTO event_types (name) VALUES (new.type);
  INSERT INTO event_log (id, dialog_key, seq, root_key, type_code, ts_ms, payload) VALUES (
    new.id, (SELECT key FROM dialog_keys WHERE id = new.dialog_id), new.seq,
    (SELECT key FROM dialog_keys WHERE id = new.root_id), (SELECT code FROM event_types WHERE name = new.type),
    new.ts_ms, new.payload);
END;
CREATE TRIGGER events_update INSTEAD OF UPDATE ON events BEGIN
  INSERT OR IGNORE INTO dialog_keys (id) VALUES (new.root_id), (new.dialog_id);
  INSERT OR IGNORE INTO event_types (name) VALUES (new.type);
  UPDATE event_log SET id = new.id, dialog_key = (SELECT key FROM dialog_keys WHERE id = new.dialog_id),
    seq = new.seq, root_key = (SELECT key FROM dialog_keys WHERE id = new.root_id),
    type_code = (SELECT code FROM event_types WHERE name = new.type), ts_ms = new.ts_ms, payload = new.payload
  WHERE id = old.id;
END;
CREATE TRIGGER events_delete INSTEAD OF DELETE ON events BEGIN
  DELETE FROM event_log WHERE id = old.id;
END;
CREATE INDEX events_by_input_msg_id ON event_log (
  (CASE WHEN json_valid(payload) THEN json_extract(payload, '$.msgId') END)
) WHERE type_code IN (2, 16);
CREATE INDEX events_by_flow_input_msg_id ON event_log (
  (CASE WHEN json_valid(payload) THEN json_extract(payload, '$.input.msgId') END)
) WHERE type_code IN (35, 36);
)sql";

// Version 18: a payload may be a compressed blob (payload_codec.hpp). The view decodes it, so every
// reader of `events.payload` reads JSON text as before; the triggers are made again over the new
// view (they store TEXT: only the writer compresses); the expression indexes read through the
// function, whose expression find_input repeats. `events_stored` is `events` with the payload also
// as stored, for the readers that decode a blob themselves and name the event it belongs to
// (row_codec.hpp, find_damaged_events).
constexpr const char* kV18PayloadSql = R"sql(
DROP VIEW IF EXISTS events_readable;
DROP TRIGGER events_insert;
DROP TRIGGER events_update;
DROP TRIGGER events_delete;
DROP VIEW events;
CREATE VIEW events AS
  SELECT l.id AS id, d.id AS dialog_id, r.id AS root_id, l.seq AS seq, t.name AS type,
         parley_payload(l.payload) AS payload, l.ts_ms AS ts_ms
  FROM event_log AS l JOIN dialog_keys AS d ON d.key = l.dialog_key JOIN dialog_keys AS r ON r.key = l.root_key
    JOIN event_types AS t ON t.code = l.type_code;
CREATE VIEW events_stored AS
  SELECT l.id AS id, d.id AS dialog_id, r.id AS root_id, l.seq AS seq, t.name AS type,
         parley_payload(l.payload) AS payload, l.payload AS stored_payload, l.ts_ms AS ts_ms
  FROM event_log AS l JOIN dialog_keys AS d ON d.key = l.dialog_key JOIN dialog_keys AS r ON r.key = l.root_key
    JOIN event_types AS t ON t.code = l.type_code;
CREATE TRIGGER events_insert INSTEAD OF INSERT ON events BEGIN
  INSERT OR IGNORE INTO dialog_keys (id) VALUES (new.root_id), (new.dialog_id);
  INSERT OR IGNORE INTO event_types (name) VALUES (new.type);
  INSERT INTO event_log (id, dialog_key, seq, root_key, type_code, ts_ms, payload) VALUES (
    new.id, (SELECT key FROM dialog_keys WHERE id = new.dialog_id), new.seq,
    (SELECT key FROM dialog_keys WHERE id = new.root_id), (SELECT code FROM event_types WHERE name = new.type),
    new.ts_ms, new.payload);
END;
CREATE TRIGGER events_update INSTEAD OF UPDATE ON events BEGIN
  INSERT OR IGNORE INTO dialog_keys (id) VALUES (new.root_id), (new.dialog_id);
  INSERT OR IGNORE INTO event_types (name) VALUES (new.type);
  UPDATE event_log SET id = new.id, dialog_key = (SELECT key FROM dialog_keys WHERE id = new.dialog_id),
    seq = new.seq, root_key = (SELECT key FROM dialog_keys WHERE id = new.root_id),
    type_code = (SELECT code FROM event_types WHERE name = new.type), ts_ms = new.ts_ms, payload = new.payload
  WHERE id = old.id;
END;
CREATE TRIGGER events_delete INSTEAD OF DELETE ON events BEGIN
  DELETE FROM event_log WHERE id = old.id;
END;
DROP INDEX events_by_input_msg_id;
DROP INDEX events_by_flow_input_msg_id;
)sql";

// The msgId indexes over the function (versions 18 and 24 make them; find_input repeats their
// expressions).
constexpr const char* kMsgIdIndexesSql = R"sql(
CREATE INDEX events_by_input_msg_id ON event_log (
  (CASE WHEN json_valid(parley_payload(payload)) THEN json_extract(parley_payload(payload), '$.msgId') END)
) WHERE type_code IN (2, 16);
CREATE INDEX events_by_flow_input_msg_id ON event_log (
  (CASE WHEN json_valid(parley_payload(payload)) THEN json_extract(parley_payload(payload), '$.input.msgId') END)
) WHERE type_code IN (35, 36);
)sql";

static_assert(kUserMessageCode == 2 && kQuestionAnsweredCode == 16 && kFlowThreadSavedCode == 35 &&
                  kFlowThreadAppendedCode == 36,
              "the codes kEventTypeCodesSql and the indexes of kV17LogSql give these types");

}  // namespace

const char* v17_compact_log_sql() {
  static const std::string sql = std::string(kV17MapsSql) + kEventTypeCodesSql + kV17LogSql;
  return sql.c_str();
}

const char* v18_payload_blobs_sql() {
  static const std::string sql = std::string(kV18PayloadSql) + kMsgIdIndexesSql;
  return sql.c_str();
}

const char* v24_log_bases_sql() {
  static const std::string sql = std::string(kV24LogBasesSql) + kMsgIdIndexesSql;
  return sql.c_str();
}

result<void> log_keys::prepare(connection& db) {
  db_ = &db;
  PARLEY_TRY(prepare_into(db, find_dialog_, "SELECT key, root_key, base_ms FROM dialog_keys WHERE id = ?1"));
  PARLEY_TRY(prepare_into(db, insert_dialog_, "INSERT INTO dialog_keys (id) VALUES (?1)"));
  PARLEY_TRY(prepare_into(db, set_dialog_base_, "UPDATE dialog_keys SET root_key = ?2, base_ms = ?3 WHERE key = ?1"));
  PARLEY_TRY(prepare_into(db, find_type_, "SELECT code FROM event_types WHERE name = ?1"));
  return prepare_into(db, insert_type_, "INSERT INTO event_types (name) VALUES (?1)");
}

result<std::int64_t> log_keys::look_up(statement& find, statement& insert, std::string_view text) {
  {
    reset_guard guard(find);
    find.bind_text(1, text);
    auto row = find.step();
    if (!row) return std::move(row).err();
    if (*row) return find.int_at(0);
  }
  insert.bind_text(1, text);
  PARLEY_TRY(insert.run());
  return db_->last_insert_rowid();
}

result<log_keys::dialog_entry> log_keys::dialog(const std::string& dialog_id, const std::string& root_id,
                                                std::int64_t ts_ms) {
  if (const dialog_entry* cached = dialogs_.find(dialog_id)) return *cached;
  if (const auto it = pending_dialogs_.find(dialog_id); it != pending_dialogs_.end()) return it->second;
  dialog_entry entry;
  bool has_base = false;
  {
    reset_guard guard(find_dialog_);
    find_dialog_.bind_text(1, dialog_id);
    auto row = find_dialog_.step();
    if (!row) return std::move(row).err();
    if (*row) {
      entry.key = find_dialog_.int_at(0);
      has_base = !find_dialog_.is_null_at(1) && !find_dialog_.is_null_at(2);
      entry.root_key = find_dialog_.int_at(1);
      entry.base_ms = find_dialog_.int_at(2);
    }
  }
  if (entry.key == 0) {
    insert_dialog_.bind_text(1, dialog_id);
    PARLEY_TRY(insert_dialog_.run());
    entry.key = db_->last_insert_rowid();
  }
  if (!has_base) {
    // The dialog's first event (or a key made before as somebody's root): its root and time
    // become the dialog's.
    if (root_id == dialog_id) {
      entry.root_key = entry.key;
    } else {
      auto root_key = key_of(root_id);
      if (!root_key) return std::move(root_key).err();
      entry.root_key = *root_key;
    }
    entry.base_ms = ts_ms;
    set_dialog_base_.bind_int(1, entry.key);
    set_dialog_base_.bind_int(2, entry.root_key);
    set_dialog_base_.bind_int(3, entry.base_ms);
    PARLEY_TRY(set_dialog_base_.run());
  }
  pending_dialogs_.emplace(dialog_id, entry);
  return entry;
}

result<std::int64_t> log_keys::key_of(const std::string& id) {
  if (const dialog_entry* cached = dialogs_.find(id)) return cached->key;
  if (const auto it = pending_dialogs_.find(id); it != pending_dialogs_.end()) return it->second.key;
  reset_guard guard(find_dialog_);
  find_dialog_.bind_text(1, id);
  auto row = find_dialog_.step();
  if (!row) return std::move(row).err();
  if (*row) return find_dialog_.int_at(0);
  find_dialog_.reset();
  insert_dialog_.bind_text(1, id);
  PARLEY_TRY(insert_dialog_.run());
  return db_->last_insert_rowid();
}

result<std::int64_t> log_keys::type_code(std::string_view name) {
  if (const auto it = types_.find(name); it != types_.end()) return it->second;
  if (const auto it = pending_types_.find(name); it != pending_types_.end()) return it->second;
  auto code = look_up(find_type_, insert_type_, name);
  if (code) pending_types_.emplace(std::string(name), *code);
  return code;
}

void log_keys::committed() {
  for (auto& [id, key] : pending_dialogs_) dialogs_.insert_or_assign(id, key);
  types_.merge(pending_types_);
  pending_dialogs_.clear();
  pending_types_.clear();
  dialogs_.trim();
}

void log_keys::rolled_back() noexcept {
  pending_dialogs_.clear();
  pending_types_.clear();
}

}  // namespace parley::sqlite
