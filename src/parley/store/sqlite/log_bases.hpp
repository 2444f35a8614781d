// Schema version 24: a dialog's root and its first event's time kept once, in `dialog_keys`.
//
// Every `event_log` row kept its root's key (2–3 bytes and a header byte) although a dialog's root
// never changes, and its time as 6 bytes although a dialog's events are minutes apart. The row
// now keeps `ts_delta`, its time less its dialog's `base_ms` (the time of the dialog's first event,
// so most deltas take one to three bytes), and `root_key` only when it is not the dialog's: NULL,
// which costs the header byte alone, for every event Parley writes. Nothing is lost: an event
// whose root differs from its dialog's keeps its own, and the `events` view gives every column as
// before (`ts_ms` = `base_ms` + `ts_delta`). The log is 283 bytes a fanout-3 task smaller.
//
// The migration copies the log into the new table in id order (every event keeps its id), with
// rows whose dialog key has no map row kept as they were (their delta from 0, their root explicit)
// so that `parley repair` still finds them; the views, triggers and indexes that name the log are
// made again (those of version 18; compact_log.cpp adds the msgId indexes).
#pragma once

namespace parley::sqlite {

inline constexpr const char* kV24LogBasesSql = R"sql(
ALTER TABLE dialog_keys ADD COLUMN root_key INTEGER;
ALTER TABLE dialog_keys ADD COLUMN base_ms INTEGER;
UPDATE dialog_keys SET (root_key, base_ms) =
  (SELECT l.root_key, l.ts_ms FROM event_log AS l WHERE l.dialog_key = dialog_keys.key ORDER BY l.seq LIMIT 1);
DROP VIEW IF EXISTS events_readable;
DROP TRIGGER events_insert;
DROP TRIGGER events_update;
DROP TRIGGER events_delete;
DROP VIEW events;
DROP VIEW events_stored;
DROP INDEX events_by_input_msg_id;
DROP INDEX events_by_flow_input_msg_id;
CREATE TABLE event_log_v24 (
  id INTEGER PRIMARY KEY,
  dialog_key INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  type_code INTEGER NOT NULL,
  ts_delta INTEGER NOT NULL,
  payload TEXT NOT NULL,
  root_key INTEGER,
  UNIQUE (dialog_key, seq)
);
INSERT INTO event_log_v24 (id, dialog_key, seq, type_code, ts_delta, payload, root_key)
  SELECT l.id, l.dialog_key, l.seq, l.type_code, l.ts_ms - coalesce(d.base_ms, 0), l.payload,
         CASE WHEN l.root_key = d.root_key THEN NULL ELSE l.root_key END
  FROM event_log AS l LEFT JOIN dialog_keys AS d ON d.key = l.dialog_key
  ORDER BY l.id;
DROP TABLE event_log;
-- The legacy rename leaves the other views alone: those over `events` (message_search and the
-- records' views) cannot be checked while `events` is being made again.
PRAGMA legacy_alter_table = ON;
ALTER TABLE event_log_v24 RENAME TO event_log;
PRAGMA legacy_alter_table = OFF;
CREATE VIEW events AS
  SELECT l.id AS id, d.id AS dialog_id, r.id AS root_id, l.seq AS seq, t.name AS type,
         parley_payload(l.payload) AS payload, d.base_ms + l.ts_delta AS ts_ms
  FROM event_log AS l JOIN dialog_keys AS d ON d.key = l.dialog_key
    JOIN dialog_keys AS r ON r.key = coalesce(l.root_key, d.root_key) JOIN event_types AS t ON t.code = l.type_code;
CREATE VIEW events_stored AS
  SELECT l.id AS id, d.id AS dialog_id, r.id AS root_id, l.seq AS seq, t.name AS type,
         parley_payload(l.payload) AS payload, l.payload AS stored_payload, d.base_ms + l.ts_delta AS ts_ms
  FROM event_log AS l JOIN dialog_keys AS d ON d.key = l.dialog_key
    JOIN dialog_keys AS r ON r.key = coalesce(l.root_key, d.root_key) JOIN event_types AS t ON t.code = l.type_code;
CREATE TRIGGER events_insert INSTEAD OF INSERT ON events BEGIN
  INSERT OR IGNORE INTO dialog_keys (id) VALUES (new.root_id), (new.dialog_id);
  UPDATE dialog_keys SET root_key = (SELECT key FROM dialog_keys WHERE id = new.root_id), base_ms = new.ts_ms
    WHERE id = new.dialog_id AND base_ms IS NULL;
  INSERT OR IGNORE INTO event_types (name) VALUES (new.type);
  INSERT INTO event_log (id, dialog_key, seq, type_code, ts_delta, payload, root_key) VALUES (
    new.id, (SELECT key FROM dialog_keys WHERE id = new.dialog_id), new.seq,
    (SELECT code FROM event_types WHERE name = new.type),
    new.ts_ms - (SELECT base_ms FROM dialog_keys WHERE id = new.dialog_id), new.payload,
    nullif((SELECT key FROM dialog_keys WHERE id = new.root_id),
           (SELECT root_key FROM dialog_keys WHERE id = new.dialog_id)));
END;
CREATE TRIGGER events_update INSTEAD OF UPDATE ON events BEGIN
  INSERT OR IGNORE INTO dialog_keys (id) VALUES (new.root_id), (new.dialog_id);
  UPDATE dialog_keys SET root_key = (SELECT key FROM dialog_keys WHERE id = new.root_id), base_ms = new.ts_ms
    WHERE id = new.dialog_id AND base_ms IS NULL;
  INSERT OR IGNORE INTO event_types (name) VALUES (new.type);
  UPDATE event_log SET id = new.id, dialog_key = (SELECT key FROM dialog_keys WHERE id = new.dialog_id),
    seq = new.seq, type_code = (SELECT code FROM event_types WHERE name = new.type),
    ts_delta = new.ts_ms - (SELECT base_ms FROM dialog_keys WHERE id = new.dialog_id), payload = new.payload,
    root_key = nullif((SELECT key FROM dialog_keys WHERE id = new.root_id),
                      (SELECT root_key FROM dialog_keys WHERE id = new.dialog_id))
  WHERE id = old.id;
END;
CREATE TRIGGER events_delete INSTEAD OF DELETE ON events BEGIN
  DELETE FROM event_log WHERE id = old.id;
END;
)sql";

}  // namespace parley::sqlite
