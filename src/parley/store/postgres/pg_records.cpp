#include "parley/store/postgres/pg_records.hpp"

#include <string>

#include "parley/store/postgres/pg_records_rows.hpp"
#include "parley/store/postgres/pg_records_select.hpp"
#include "parley/store/records_sort.hpp"

namespace parley::pg {

namespace {

std::string select_from(std::string_view columns, std::string_view from) {
  return "SELECT " + std::string(columns) + " FROM " + std::string(from);
}

result<pending_turn> read_pending(const rows& r, int i) {
  pending_turn out{std::string(r.text(i, 0)), std::string(r.text(i, 1)), 0};
  PARLEY_TRY_ASSIGN(out.deadline_ms, r.integer(i, 2));
  return out;
}

// A pending turn's deadline: its start plus the window its row keeps (its own, or its dialogue's
// when it was opened without one), as the SQLite store reads it.
constexpr std::string_view kPendingTurnSelect =
    "SELECT c.dialog_id, t.id, c.turn_started_ms + t.window_ms FROM records_cursor c JOIN turn t ON t.id = c.turn_id "
    "WHERE c.turn_id <> ''";

}  // namespace

result<std::optional<record_dialogue>> pg_records::dialogue(std::string_view id) {
  return read([&](connection& conn) {
    return select_one<record_dialogue>(
        conn, select_from(kDialogueColumns, "dialogue d") + " WHERE d.id = $1 OR d.dialog_id = $1", id, read_dialogue);
  });
}

result<std::optional<record_session>> pg_records::session(std::string_view id) {
  return read([&](connection& conn) {
    return select_one<record_session>(conn, select_from(kSessionColumns, "session s") + " WHERE s.id = $1", id,
                                      read_session);
  });
}

result<std::optional<record_turn>> pg_records::turn(std::string_view id) {
  return read([&](connection& conn) {
    return select_one<record_turn>(conn, select_from(kTurnColumns, "turn t") + " WHERE t.id = $1", id, read_turn);
  });
}

result<std::optional<record_message>> pg_records::message(std::string_view id) {
  return read([&](connection& conn) {
    return select_one<record_message>(conn, select_from(kMessageColumns, "message m") + " WHERE m.id = $1", id,
                                      read_record_message);
  });
}

result<records_page<record_session>> pg_records::sessions(const records_filter& f) {
  sql_conditions q;
  q.where_text("s.dialogue_id = ?", f.dialogue_id);
  q.where_in("s.dialogue_id", f.dialogue_ids);
  q.where_vocab("s.session_type = ?", f.session_type);
  q.where_vocab("s.dialogue_id IN (SELECT d.id FROM dialogue d WHERE d.dialogue_type = ?)", f.dialogue_type);
  // The member speaks in a dialogue it is the AI of, or in a group it is one of the AIs of.
  q.where_text(
      "s.dialogue_id IN (SELECT d.id FROM dialogue d, (SELECT ?::text AS member) p WHERE d.ai_id = p.member OR "
      "(d.metadata::jsonb -> 'members') @> to_jsonb(p.member))",
      f.ai_id);
  visibility_condition(q, "s.dialogue_id", f);
  q.where_time("s.start_at", f);
  auto sort = records_sort_of(f, "start_at", {"start_at", "end_at"});
  if (!sort) return std::move(sort).err();
  return read([&](connection& conn) {
    return select_page<record_session>(conn, kSessionColumns, "session s", q, order_of(*sort, "s"), f, read_session);
  });
}

result<records_page<record_turn>> pg_records::turns(const records_filter& f) {
  sql_conditions q;
  q.where_text("t.dialogue_id = ?", f.dialogue_id);
  q.where_text("t.session_id = ?", f.session_id);
  q.where_in("t.session_id", f.session_ids);
  q.where_vocab("t.status = ?", f.status);
  q.where_time("t.started_at", f);
  auto sort = records_sort_of(f, "started_at", {"started_at", "closed_at", "response_time"});
  if (!sort) return std::move(sort).err();
  return read([&](connection& conn) {
    return select_page<record_turn>(conn, kTurnColumns, "turn t", q, order_of(*sort, "t"), f, read_turn);
  });
}

result<records_page<record_message>> pg_records::messages(const records_filter& f) {
  sql_conditions q;
  message_conditions(q, f);
  auto sort = records_sort_of(f, "created_at", {"created_at"});
  if (!sort) return std::move(sort).err();
  return read([&](connection& conn) {
    return select_page<record_message>(conn, kMessageColumns, "message m", q, order_of(*sort, "m"), f,
                                       read_record_message);
  });
}

result<records_page<record_dialogue>> pg_records::dialogues(const records_filter& f) {
  sql_conditions q;
  q.where_text(
      "d.dialog_id IN (SELECT id FROM dialogs WHERE parent_id = '' AND strpos(',' || humans || ',', ',' || ?::text || "
      "',') > 0)",
      f.participant);
  visibility_condition(q, "d.id", f);
  q.where_time("d.created_at", f);
  auto sort = dialogues_sort_of(f);
  if (!sort) return std::move(sort).err();
  // Its id breaks ties, in byte order whatever the database's collation.
  return read([&](connection& conn) {
    return select_page<record_dialogue>(conn, kDialogueColumns, "dialogue d", q,
                                        order_of(*sort, "d", "id COLLATE \"C\""), f, read_dialogue);
  });
}

result<records_page<record_introspection>> pg_records::introspections(const records_filter& f) {
  sql_conditions q;
  q.where_text("i.session_id = ?", f.session_id);
  q.where_time("i.started_at", f);
  auto sort = records_sort_of(f, "started_at", {"started_at"});
  if (!sort) return std::move(sort).err();
  return read([&](connection& conn) {
    return select_page<record_introspection>(conn, kIntrospectionColumns, "introspection_turn i", q,
                                             order_of(*sort, "i"), f, read_introspection);
  });
}

result<records_page<record_system_utterance>> pg_records::system_utterances(const records_filter& f) {
  sql_conditions q;
  q.where_text("u.conversation_id = ?", f.dialogue_id);
  q.where_text("u.linked_turn_id = ?", f.turn_id);
  q.where_time("u.timestamp", f);
  auto sort = records_sort_of(f, "timestamp", {"timestamp"});
  if (!sort) return std::move(sort).err();
  return read([&](connection& conn) {
    return select_page<record_system_utterance>(conn, kUtteranceColumns, "system_utterance_log u", q,
                                                order_of(*sort, "u"), f, read_utterance);
  });
}

result<std::optional<record_memory_entry>> pg_records::memory_entry(std::string_view id) {
  return read([&](connection& conn) {
    return select_one<record_memory_entry>(conn, select_from(kMemoryColumns, "memory_entry e") + " WHERE e.id = $1", id,
                                           read_memory);
  });
}

result<std::vector<record_memory_link>> pg_records::memory_links(std::string_view turn_id) {
  return read([&](connection& conn) -> result<std::vector<record_memory_link>> {
    const params<1> args{turn_id};
    auto found = conn.query(
        "SELECT turn_id, memory_id, relation, created_at FROM memory_links WHERE turn_id = $1 "
        "ORDER BY created_at, memory_id COLLATE \"C\"",
        args, "reading a turn's memory links");
    if (!found) return std::move(found).err();
    return rows_of<record_memory_link>(*found, [](const rows& r, int i) -> result<record_memory_link> {
      record_memory_link link{std::string(r.text(i, 0)), std::string(r.text(i, 1)), std::string(r.text(i, 2)), 0};
      PARLEY_TRY_ASSIGN(link.created_at, r.integer(i, 3));
      return link;
    });
  });
}

result<std::vector<std::string>> pg_records::linked_memories(std::string_view dialogue_id) {
  return read([&](connection& conn) -> result<std::vector<std::string>> {
    const params<1> args{dialogue_id};
    auto found = conn.query(
        "SELECT DISTINCT l.memory_id COLLATE \"C\" FROM memory_links l WHERE l.turn_id IN (SELECT id FROM turn WHERE "
        "dialogue_id = $1 UNION ALL SELECT id FROM introspection_turn WHERE dialogue_id = $1) ORDER BY 1",
        args, "reading a dialogue's linked memories");
    if (!found) return std::move(found).err();
    return rows_of<std::string>(*found,
                                [](const rows& r, int i) { return result<std::string>(std::string(r.text(i, 0))); });
  });
}

result<std::vector<pending_turn>> pg_records::pending_turns() {
  return read([&](connection& conn) -> result<std::vector<pending_turn>> {
    auto found = conn.query(std::string(kPendingTurnSelect) + " ORDER BY 3, 1", "reading the pending turns");
    if (!found) return std::move(found).err();
    return rows_of<pending_turn>(*found, read_pending);
  });
}

result<std::optional<pending_turn>> pg_records::pending_turn_of(std::string_view dialog_id) {
  return read([&](connection& conn) {
    return select_one<pending_turn>(conn, std::string(kPendingTurnSelect) + " AND c.dialog_id = $1", dialog_id,
                                    read_pending);
  });
}

}  // namespace parley::pg
