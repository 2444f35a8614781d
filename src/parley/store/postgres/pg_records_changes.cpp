#include "parley/store/postgres/pg_records_changes.hpp"

#include <algorithm>
#include <optional>

#include "parley/core/base64.hpp"
#include "parley/core/json_merge_patch.hpp"
#include "parley/store/postgres/pg_record_set.hpp"
#include "parley/store/postgres/pg_records_rows.hpp"
#include "parley/store/postgres/pg_records_statements.hpp"
#include "parley/store/records_search.hpp"
#include "parley/store/sqlite/trigram_text.hpp"

namespace parley::pg {

void records_changes::add(records_step step) {
  // Parents before children, as the reducer made them: a dialogue before its sessions, a session
  // before its turns, the message before the turns it closes.
  if (step.dialogue) add_dialogue(*step.dialogue, step.new_dialogue);
  for (const record_session& s : step.closed_sessions) close_session(s);
  for (record_session& s : step.opened_sessions) sessions_.add(std::move(s));
  for (record_turn& t : step.opened_turns) turns_.add(std::move(t));
  if (step.message) messages_.add(std::move(*step.message));
  for (const record_turn& t : step.closed_turns) close_turn(t);
  if (step.utterance) utterances_.push_back(std::move(*step.utterance));
  if (step.memory) memories_.push_back(std::move(*step.memory));
  if (step.introspection) introspections_.push_back(std::move(*step.introspection));
  for (const record_memory_link& l : step.links) add_link(l);
  if (step.annotation) annotate(*step.annotation);
}

void records_changes::add_dialogue(const record_dialogue& d, bool made) {
  if (made) {
    dialogues_.add(d);
    return;
  }
  // The newest state, and the latest activity ever seen (0 leaves it as it was).
  if (record_dialogue* here = dialogues_.find(d.id)) {
    here->is_active = d.is_active;
    here->last_activity_at = std::max(here->last_activity_at, d.last_activity_at);
    return;
  }
  auto [waiting, first] = activity_.try_emplace(d.id, activity{d.is_active, d.last_activity_at});
  if (!first) {
    waiting->second.is_active = d.is_active;
    waiting->second.last_activity_at = std::max(waiting->second.last_activity_at, d.last_activity_at);
  }
}

void records_changes::close_session(const record_session& s) {
  // `s.metadata` is what closing adds (a close reason), or "".
  if (record_session* here = sessions_.find(s.id)) {
    here->end_at = s.end_at;
    if (!s.summary.empty()) here->summary = s.summary;
    if (!s.metadata.empty()) session_patches_[s.id].push_back(s.metadata);
    return;
  }
  session_close& closing = closed_sessions_[s.id];
  closing.end_at = s.end_at;
  if (!s.summary.empty()) closing.summary = s.summary;
  if (!s.metadata.empty()) closing.patches.push_back(s.metadata);
}

void records_changes::close_turn(const record_turn& t) {
  if (record_turn* here = turns_.find(t.id)) {
    here->turn_type = t.turn_type;
    here->closed_at = t.closed_at;
    here->status = t.status;
    here->response_time = t.response_time;
    here->metadata = t.metadata;
    return;
  }
  closed_turns_.insert_or_assign(t.id, t);
}

void records_changes::annotate(const record_message_annotation& a) {
  message_patches_[a.message_id].push_back(a.metadata_patch);
  if (!a.vector.empty()) embeddings_.insert_or_assign(a.message_id, embedding{a.model, a.dimensions, a.vector});
}

void records_changes::add_link(const record_memory_link& l) {
  if (linked_.emplace(l.turn_id, l.memory_id).second) links_.push_back(l);
}

void records_changes::set_cursor(const std::string& dialog_id, records_cursor_slot cursor) {
  cursors_.insert_or_assign(dialog_id, std::move(cursor));
}

const records_cursor_slot* records_changes::cursor(const std::string& dialog_id) const {
  const auto found = cursors_.find(dialog_id);
  return found == cursors_.end() ? nullptr : &found->second;
}

namespace {

// `metadata` with `patches` applied in order.
result<std::string> patched(std::string metadata, const std::vector<std::string>& patches) {
  for (const std::string& patch : patches) PARLEY_TRY_ASSIGN(metadata, json_merge_patch_text(metadata, patch));
  return metadata;
}

// Adds the statement when its record set holds any row.
void add_statement(std::vector<records_statement>& out, const char* name, record_set& rows) {
  if (rows.count() > 0) out.push_back({name, rows.text()});
}

}  // namespace

result<std::vector<records_statement>> records_changes::statements(connection& conn) const {
  std::vector<records_statement> out;
  PARLEY_TRY(write_made(out));
  PARLEY_TRY(write_updates(conn, out));
  return out;
}

result<void> records_changes::write_made(std::vector<records_statement>& out) const {
  record_set dialogues, sessions, turns, messages;
  for (const record_dialogue& d : dialogues_.rows) {
    write_dialogue(dialogues.writer(), d);
    dialogues.counted();
  }
  for (const record_session& s : sessions_.rows) {
    record_session ended = s;
    if (const auto found = session_patches_.find(s.id); found != session_patches_.end()) {
      PARLEY_TRY_ASSIGN(ended.metadata, patched(s.metadata, found->second));
    }
    write_session(sessions.writer(), ended, sessions.count());
    sessions.counted();
  }
  for (const record_turn& t : turns_.rows) {
    write_turn(turns.writer(), t, turns.count());
    turns.counted();
  }
  for (const record_message& m : messages_.rows) {
    std::string metadata = m.metadata;
    if (const auto found = message_patches_.find(m.id); found != message_patches_.end()) {
      PARLEY_TRY_ASSIGN(metadata, patched(std::move(metadata), found->second));
    }
    std::string folded;
    PARLEY_TRY_ASSIGN(folded, sqlite::trigram_fold(message_search_text(m)));
    write_message(messages.writer(), m, metadata, folded, messages.count());
    messages.counted();
  }
  add_statement(out, records_sql::kInsertDialogues, dialogues);
  add_statement(out, records_sql::kInsertSessions, sessions);
  add_statement(out, records_sql::kInsertTurns, turns);
  add_statement(out, records_sql::kInsertMessages, messages);
  return ok();
}

result<void> records_changes::write_updates(connection& conn, std::vector<records_statement>& out) const {
  record_set activities, turns, embeddings;
  for (const auto& [id, a] : activity_) {
    write_activity(activities.writer(), id, a.is_active, a.last_activity_at);
    activities.counted();
  }
  std::string sessions_text, messages_text;
  PARLEY_TRY_ASSIGN(sessions_text, sessions_closed(conn));
  PARLEY_TRY_ASSIGN(messages_text, messages_patched(conn));
  for (const auto& [id, t] : closed_turns_) {
    write_turn_close(turns.writer(), t);
    turns.counted();
  }
  for (const auto& [id, e] : embeddings_) {
    write_embedding(embeddings.writer(), id, e.model, e.dimensions, base64_encode(e.vector));
    embeddings.counted();
  }
  add_statement(out, records_sql::kDialogueActivity, activities);
  if (!sessions_text.empty()) out.push_back({records_sql::kCloseSessions, std::move(sessions_text)});
  add_statement(out, records_sql::kCloseTurns, turns);
  if (!messages_text.empty()) out.push_back({records_sql::kMessageMetadata, std::move(messages_text)});
  add_statement(out, records_sql::kUpsertEmbeddings, embeddings);
  write_reflection(out);
  return ok();
}

void records_changes::write_reflection(std::vector<records_statement>& out) const {
  record_set utterances, introspections, memories, links, cursors;
  for (const auto& u : utterances_) {
    write_utterance(utterances.writer(), u);
    utterances.counted();
  }
  for (const auto& i : introspections_) {
    write_introspection(introspections.writer(), i, introspections.count());
    introspections.counted();
  }
  for (const auto& m : memories_) {
    write_memory(memories.writer(), m);
    memories.counted();
  }
  for (const auto& l : links_) {
    write_link(links.writer(), l);
    links.counted();
  }
  for (const auto& [dialog_id, c] : cursors_) {
    if (!c) continue;  // a dialog the records do not follow keeps no cursor row
    write_cursor(cursors.writer(), dialog_id, *c);
    cursors.counted();
  }
  add_statement(out, records_sql::kInsertUtterances, utterances);
  add_statement(out, records_sql::kInsertIntrospections, introspections);
  add_statement(out, records_sql::kInsertMemories, memories);
  add_statement(out, records_sql::kInsertLinks, links);
  add_statement(out, records_sql::kSaveCursors, cursors);
}

namespace {

// The metadata of the rows of `table` (session or message) named by the keys of `patched`, read
// on `conn`; a row that does not exist has no entry.
template <class Patches>
result<std::map<std::string, std::string>> stored_metadata(connection& conn, std::string_view table,
                                                           const Patches& patched) {
  std::string ids;
  json_text_writer list(ids);
  list.begin_array();
  for (const auto& [id, unused] : patched) list.string(id);
  list.end_array();
  const params<1> args{ids};
  auto found = conn.query("SELECT r.id, r.metadata FROM " + std::string(table) +
                              " r JOIN json_array_elements_text($1::json) AS x(id) ON r.id = x.id",
                          args, "reading the metadata a record's patch changes");
  if (!found) return std::move(found).err();
  std::map<std::string, std::string> out;
  for (int i = 0; i < found->size(); ++i) out.emplace(found->text(i, 0), found->text(i, 1));
  return out;
}

}  // namespace

result<std::string> records_changes::sessions_closed(connection& conn) const {
  if (closed_sessions_.empty()) return std::string();
  std::map<std::string, session_close> patched_only;
  for (const auto& [id, closing] : closed_sessions_) {
    if (!closing.patches.empty()) patched_only.emplace(id, closing);
  }
  std::map<std::string, std::string> stored;
  if (!patched_only.empty()) PARLEY_TRY_ASSIGN(stored, stored_metadata(conn, "session", patched_only));
  record_set sessions;
  for (const auto& [id, closing] : closed_sessions_) {
    // No metadata: unchanged (or no such session, and the UPDATE changes no row).
    std::optional<std::string> metadata;
    if (const auto found = stored.find(id); found != stored.end() && !closing.patches.empty()) {
      PARLEY_TRY_ASSIGN(metadata, patched(found->second, closing.patches));
    }
    write_session_close(sessions.writer(), id, closing.end_at, closing.summary, metadata);
    sessions.counted();
  }
  return sessions.text();
}

result<std::string> records_changes::messages_patched(connection& conn) const {
  std::map<std::string, const std::vector<std::string>*> before;  // messages made before these changes
  for (const auto& [id, patches] : message_patches_) {
    if (messages_.at.find(id) == messages_.at.end()) before.emplace(id, &patches);
  }
  if (before.empty()) return std::string();
  std::map<std::string, std::string> stored;
  PARLEY_TRY_ASSIGN(stored, stored_metadata(conn, "message", before));
  record_set messages;
  for (const auto& [id, metadata] : stored) {
    std::string text;
    PARLEY_TRY_ASSIGN(text, patched(metadata, *before.at(id)));
    write_message_metadata(messages.writer(), id, text);
    messages.counted();
  }
  return messages.count() > 0 ? messages.text() : std::string();
}

}  // namespace parley::pg
