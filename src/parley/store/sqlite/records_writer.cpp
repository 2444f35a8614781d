#include "parley/store/sqlite/records_writer.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>

#include "parley/model/conversation_reducer.hpp"
#include "parley/store/records_search.hpp"
#include "parley/store/sqlite/dialogue_metadata_from_log.hpp"
#include "parley/store/sqlite/message_log_metadata.hpp"
#include "parley/store/sqlite/message_tool_calls.hpp"
#include "parley/store/sqlite/record_id.hpp"
#include "parley/store/sqlite/records_select.hpp"
#include "parley/store/sqlite/utterance_from_log.hpp"

namespace parley::sqlite {
result<void> records_writer::apply(const event& ev, std::int64_t event_id, const dialog_row& row_after,
                                   const projection_step& step) {
  if (!touches_records(ev, step)) return ok();
  auto entry = cursor_for(ev);
  if (!entry) return std::move(entry).err();
  cached_cursor& cached = **entry;
  if (!cached.exists) return ok();  // created before the records existed and not rebuilt since
  // A failure below fails the projection, and the projector then forgets every cursor (forget).
  PARLEY_TRY(write(apply_records(ev, row_after, step, cached.cursor), ev, event_id, cached));
  if (!cached.dirty) {
    cached.dirty = true;
    dirty_cursors_.push_back(&cached);
  }
  return ok();
}

result<records_writer::cached_cursor*> records_writer::cursor_for(const event& ev) {
  if (opens_dialog(ev)) {
    cached_cursor& created = cursors_[ev.dialog_id];
    created.exists = true;
    created.cursor = records_cursor{};
    created.dialogue = created.session = created.turn = known_rowid{};
    return &created;
  }
  if (cached_cursor* found = cursors_.find(ev.dialog_id)) return found;
  cached_cursor loaded;
  auto exists = load_cursor(ev.dialog_id, loaded);
  if (!exists) return std::move(exists).err();
  loaded.exists = *exists;
  return &cursors_.insert_or_assign(ev.dialog_id, std::move(loaded));
}

result<void> records_writer::flush() {
  for (const auto& [id, activity] : activity_) {
    bind_record_id(update_dialogue_, 1, id, id_bytes_[1]);
    update_dialogue_.bind_int(2, activity.is_active ? 1 : 0);
    update_dialogue_.bind_int(3, activity.last_activity_at);
    PARLEY_TRY(update_dialogue_.run());
  }
  activity_.clear();
  for (cached_cursor* cached : dirty_cursors_) {
    PARLEY_TRY(save_cursor(*cached));
    cached->dirty = false;
  }
  dirty_cursors_.clear();
  cursors_.trim();  // dirty_cursors_ holds no entry now
  return ok();
}

void records_writer::forget() noexcept {
  dirty_cursors_.clear();
  cursors_.clear();
  activity_.clear();
}

namespace {

// A records_cursor column of a vocabulary that is '' until it is set.
template <events::wire_enum E>
result<std::optional<E>> optional_vocab(const statement& row, const std::string& dialog_id, std::string_view column,
                                        int index) {
  const std::string_view text = row.text_view_at(index);
  if (text.empty()) return std::optional<E>{};
  auto value = stored_vocab<E>("records_cursor", dialog_id, column, text);
  if (!value) return std::move(value).err();
  return std::optional<E>{*value};
}

}  // namespace

result<bool> records_writer::load_cursor(const std::string& dialog_id, cached_cursor& loaded) {
  records_cursor& out = loaded.cursor;
  reset_guard guard(load_cursor_);
  load_cursor_.bind_text(1, dialog_id);
  auto found = load_cursor_.step();
  if (!found) return std::move(found).err();
  if (!*found) return false;
  out.dialog_id = dialog_id;
  out.dialogue_id = load_cursor_.text_at(0);
  PARLEY_TRY_ASSIGN(out.counterpart, stored_vocab<events::record_role>("records_cursor", dialog_id, "counterpart",
                                                                       load_cursor_.text_view_at(1)));
  out.window_ms = load_cursor_.int_at(2);
  out.gap_ms = load_cursor_.int_at(3);
  out.session_id = load_cursor_.text_at(4);
  out.session_last_ms = load_cursor_.int_at(5);
  out.turn_id = load_cursor_.text_at(6);
  // The last turn's roles and type; '' before the dialog's first turn.
  PARLEY_TRY_ASSIGN(out.turn_initiator,
                    optional_vocab<events::record_role>(load_cursor_, dialog_id, "turn_initiator", 7));
  PARLEY_TRY_ASSIGN(out.turn_responder,
                    optional_vocab<events::record_role>(load_cursor_, dialog_id, "turn_responder", 8));
  PARLEY_TRY_ASSIGN(out.turn_type, optional_vocab<events::turn_type>(load_cursor_, dialog_id, "turn_type", 9));
  out.turn_started_ms = load_cursor_.int_at(10);
  PARLEY_TRY_ASSIGN(out.session_type, stored_vocab<events::session_type>("records_cursor", dialog_id, "session_type",
                                                                         load_cursor_.text_view_at(11)));
  out.reflection_trigger = load_cursor_.text_at(12);
  out.reflection_goal = load_cursor_.text_at(13);
  out.reflection_mood = load_cursor_.text_at(14);
  out.turn_initiator_id = load_cursor_.text_at(15);
  out.turn_window_ms = out.turn_id.empty() ? 0 : load_cursor_.int_at(16);
  // The rows it names, which the dialog's next rows refer to by these rowids.
  loaded.dialogue = known_rowid{out.dialogue_id, load_cursor_.int_at(17)};
  loaded.session = known_rowid{out.session_id, load_cursor_.int_at(18)};
  loaded.turn = known_rowid{out.turn_id, load_cursor_.int_at(19)};
  return true;
}

result<void> records_writer::save_cursor(cached_cursor& cached) {
  const records_cursor& c = cached.cursor;
  auto dialogue = rowid_of(find_dialogue_, cached.dialogue, c.dialogue_id);
  if (!dialogue) return std::move(dialogue).err();
  auto session = rowid_of(find_session_, cached.session, c.session_id);
  if (!session) return std::move(session).err();
  auto turn = rowid_of(find_turn_, cached.turn, c.turn_id);
  if (!turn) return std::move(turn).err();
  save_cursor_.bind_text(1, c.dialog_id);
  save_cursor_.bind_int(2, *dialogue);
  save_cursor_.bind_text(3, events::to_wire(c.counterpart));
  save_cursor_.bind_int(4, c.window_ms);
  save_cursor_.bind_int(5, c.gap_ms);
  save_cursor_.bind_int(6, *session);
  save_cursor_.bind_int(7, c.session_last_ms);
  save_cursor_.bind_int(8, *turn);
  // '' before the dialog's first turn.
  save_cursor_.bind_text(9, c.turn_initiator ? events::to_wire(*c.turn_initiator) : std::string_view(""));
  save_cursor_.bind_text(10, c.turn_responder ? events::to_wire(*c.turn_responder) : std::string_view(""));
  save_cursor_.bind_text(11, c.turn_type ? events::to_wire(*c.turn_type) : std::string_view(""));
  save_cursor_.bind_int(12, c.turn_started_ms);
  save_cursor_.bind_text(13, events::to_wire(c.session_type));
  save_cursor_.bind_text(14, c.reflection_trigger);
  save_cursor_.bind_text(15, c.reflection_goal);
  save_cursor_.bind_text(16, c.reflection_mood);
  save_cursor_.bind_text(17, c.turn_initiator_id);
  return save_cursor_.run();
}

// Parents before children: a dialogue before its sessions, a session before its turns.
result<void> records_writer::write(const records_step& rows, const event& ev, std::int64_t event_id,
                                   cached_cursor& known) {
  if (rows.dialogue) PARLEY_TRY(write_dialogue(*rows.dialogue, rows.new_dialogue, ev, known));
  for (const record_session& s : rows.closed_sessions) {
    bind_record_id(close_session_, 1, s.id, id_bytes_[1]);
    close_session_.bind_int(2, s.end_at);
    close_session_.bind_text(3, s.summary);
    close_session_.bind_text(4, s.metadata);  // what closing adds to it (a close reason), or ""
    PARLEY_TRY(close_session_.run());
  }
  for (const record_session& s : rows.opened_sessions) PARLEY_TRY(insert_session(s, known));
  for (const record_turn& t : rows.opened_turns) PARLEY_TRY(insert_turn(t, known));
  std::int64_t message_rowid = 0;
  if (rows.message) {
    PARLEY_TRY(insert_message(*rows.message, ev, event_id, known));
    message_rowid = last_message_rowid_;
  }
  // After the message, which is usually the one that answered the turn it closes: its rowid is
  // then known without a lookup. A message refers to its turn by rowid, which closing keeps.
  static const std::string no_message;
  for (const record_turn& t : rows.closed_turns) {
    PARLEY_TRY(close_turn(t, message_rowid, rows.message ? rows.message->id : no_message));
  }
  if (rows.utterance) {
    // The reducer makes an utterance only of the message it places in the same step.
    if (!rows.message || rows.message->id != rows.utterance->log_id) {
      return make_error(errc::internal, "system utterance " + rows.utterance->log_id + " has no message to refer to");
    }
    // One the engine made is read from its message and event (utterance_from_log.hpp).
    if (!utterance_is_in_log(*rows.utterance, *rows.message, ev)) {
      PARLEY_TRY(insert_utterance(*rows.utterance, message_rowid));
    }
  }
  if (rows.memory) PARLEY_TRY(insert_memory(*rows.memory));
  if (rows.introspection) PARLEY_TRY(insert_introspection(*rows.introspection));
  for (const record_memory_link& l : rows.links) PARLEY_TRY(insert_link(l));
  if (rows.annotation) PARLEY_TRY(annotate(*rows.annotation));
  return ok();
}

result<void> records_writer::annotate(const record_message_annotation& a) {
  bind_record_id(patch_message_metadata_, 1, a.message_id, id_bytes_[1]);
  patch_message_metadata_.bind_text(2, a.metadata_patch);
  PARLEY_TRY(patch_message_metadata_.run());
  if (a.vector.empty()) return ok();
  bind_record_id(upsert_embedding_, 1, a.message_id, id_bytes_[1]);
  upsert_embedding_.bind_text(2, a.model);
  upsert_embedding_.bind_int(3, a.dimensions);
  upsert_embedding_.bind_blob(4, a.vector);
  return upsert_embedding_.run();
}

result<std::int64_t> records_writer::rowid_of(statement& find, known_rowid& known, const std::string& id) {
  if (id.empty()) return std::int64_t{0};
  if (known.id == id) return known.rowid;
  reset_guard guard(find);
  bind_record_id(find, 1, id, id_bytes_[1]);
  auto found = find.step();
  if (!found) return std::move(found).err();
  if (!*found) return std::int64_t{0};
  known = known_rowid{id, find.int_at(0)};
  return known.rowid;
}

result<void> records_writer::insert_session(const record_session& s, cached_cursor& known) {
  auto dialogue = rowid_of(find_dialogue_, known.dialogue, s.dialogue_id);
  if (!dialogue) return std::move(dialogue).err();
  bind_record_id(insert_session_, 1, s.id, id_bytes_[1]);
  insert_session_.bind_int(2, *dialogue);
  insert_session_.bind_text(3, events::to_wire(s.session_type));
  insert_session_.bind_int(4, s.start_at);
  insert_session_.bind_text(5, s.description);
  insert_session_.bind_text(6, events::to_wire(s.created_by));
  insert_session_.bind_text(7, s.metadata);
  // '' is stored as NULL (a dialogue session's).
  insert_session_.bind_text(8, s.trigger_source ? events::to_wire(*s.trigger_source) : std::string_view(""));
  insert_session_.bind_text(9, s.goal);
  insert_session_.bind_text(10, s.ai_mood_state);
  PARLEY_TRY(insert_session_.run());
  known.session = known_rowid{s.id, db_->last_insert_rowid()};
  return ok();
}

result<void> records_writer::insert_utterance(const record_system_utterance& u, std::int64_t message_rowid) {
  insert_utterance_.bind_int(1, message_rowid);
  insert_utterance_.bind_text(2, events::to_wire(u.trigger));
  insert_utterance_.bind_text(3, events::to_wire(u.target));
  insert_utterance_.bind_text(4, u.notes);
  return insert_utterance_.run();
}

result<void> records_writer::insert_introspection(const record_introspection& t) {
  bind_record_id(insert_introspection_, 1, t.id, id_bytes_[1]);
  bind_record_id(insert_introspection_, 2, t.session_id, id_bytes_[2]);
  bind_record_id(insert_introspection_, 3, t.dialogue_id, id_bytes_[3]);
  insert_introspection_.bind_text(4, t.purpose);
  insert_introspection_.bind_text(5, t.input_context);
  insert_introspection_.bind_text(6, t.tool_used);
  insert_introspection_.bind_text(7, t.tool_input);
  insert_introspection_.bind_text(8, t.tool_output);
  insert_introspection_.bind_text(9, t.generated_entry);
  insert_introspection_.bind_text(10, t.mood_shift);
  insert_introspection_.bind_text(11, t.value_impact);
  insert_introspection_.bind_int(12, t.started_at);
  insert_introspection_.bind_int(13, t.duration_ms);
  return insert_introspection_.run();
}

result<void> records_writer::insert_memory(const record_memory_entry& m) {
  bind_record_id(insert_memory_, 1, m.id, id_bytes_[1]);
  bind_record_id(insert_memory_, 2, m.dialogue_id, id_bytes_[2]);
  insert_memory_.bind_text(3, m.ai_id);
  insert_memory_.bind_text(4, m.content);
  insert_memory_.bind_int(5, m.created_at);
  bind_record_id(insert_memory_, 6, m.source_turn_id, id_bytes_[6]);
  return insert_memory_.run();
}

result<void> records_writer::insert_link(const record_memory_link& l) {
  bind_record_id(insert_link_, 1, l.turn_id, id_bytes_[1]);
  bind_record_id(insert_link_, 2, l.memory_id, id_bytes_[2]);
  insert_link_.bind_text(3, l.relation);
  insert_link_.bind_int(4, l.created_at);
  return insert_link_.run();
}

namespace {

// What a dialogue row stores of its metadata: '' for the text its dialog_created event gives
// (dialogue_metadata_from_log.hpp), else what follows its dialogId and rootId, which are read from
// its own row and `dialogs` (message_log_metadata.hpp), or its whole text when that is ''.
std::string dialogue_metadata_stored(const record_dialogue& d, const event& ev) {
  if (d.dialog_id != ev.dialog_id) return d.metadata;
  if (dialogue_metadata_is_in_log(d.metadata, d.dialogue_type, ev)) return {};
  std::string rest = dialogue_metadata_to_store(d.metadata, d.dialog_id, ev.root_id);
  return rest.empty() ? d.metadata : rest;
}

}  // namespace

result<void> records_writer::write_dialogue(const record_dialogue& d, bool inserted, const event& ev,
                                            cached_cursor& known) {
  if (!inserted) {
    // Written once per transaction by flush(), with the latest state and the newest activity.
    auto [waiting, first] = activity_.try_emplace(d.id, dialogue_activity{d.is_active, d.last_activity_at});
    if (!first) {
      waiting->second.is_active = d.is_active;
      waiting->second.last_activity_at = std::max(waiting->second.last_activity_at, d.last_activity_at);
    }
    return ok();
  }
  bind_record_id(insert_dialogue_, 1, d.id, id_bytes_[1]);
  insert_dialogue_.bind_text(2, d.dialog_id);
  insert_dialogue_.bind_text(3, events::to_wire(d.dialogue_type));
  insert_dialogue_.bind_text(4, d.human_id);
  insert_dialogue_.bind_text(5, d.ai_id);
  bind_record_id(insert_dialogue_, 6, d.relation_id, id_bytes_[6]);
  insert_dialogue_.bind_int(7, d.created_at);
  insert_dialogue_.bind_int(8, d.is_active ? 1 : 0);
  insert_dialogue_.bind_int(9, d.last_activity_at);
  const std::string stored = dialogue_metadata_stored(d, ev);  // bound without a copy: lives until run()
  insert_dialogue_.bind_text(10, stored);
  PARLEY_TRY(insert_dialogue_.run());
  known.dialogue = known_rowid{d.id, db_->last_insert_rowid()};
  return ok();
}

result<void> records_writer::insert_turn(const record_turn& t, cached_cursor& known) {
  auto dialogue = rowid_of(find_dialogue_, known.dialogue, t.dialogue_id);
  if (!dialogue) return std::move(dialogue).err();
  auto session = rowid_of(find_session_, known.session, t.session_id);
  if (!session) return std::move(session).err();
  bind_record_id(insert_turn_, 1, t.id, id_bytes_[1]);
  insert_turn_.bind_int(2, *dialogue);
  insert_turn_.bind_int(3, *session);
  insert_turn_.bind_text(4, events::to_wire(t.turn_type));
  insert_turn_.bind_text(5, events::to_wire(t.initiator_role));
  insert_turn_.bind_text(6, events::to_wire(t.responder_role));
  insert_turn_.bind_int(7, t.started_at);
  insert_turn_.bind_int(8, t.window_ms);
  insert_turn_.bind_text(9, t.metadata);
  PARLEY_TRY(insert_turn_.run());
  known.turn = known_rowid{t.id, db_->last_insert_rowid()};
  return ok();
}

namespace {

// The message UUID `metadata` names when it is exactly `{"respondedBy":"<canonical UUID>"}`, the
// text kTurnMetadataSql (records_v19.hpp) builds back byte for byte; else empty.
std::string_view responded_by_only(std::string_view metadata) {
  constexpr std::string_view prefix = R"({"respondedBy":")";
  constexpr std::string_view suffix = R"("})";
  if (metadata.size() != prefix.size() + 36 + suffix.size()) return {};
  if (!metadata.starts_with(prefix) || !metadata.ends_with(suffix)) return {};
  const std::string_view id = metadata.substr(prefix.size(), 36);
  return canonical_uuid_bytes(id) ? id : std::string_view{};
}

}  // namespace

result<void> records_writer::close_turn(const record_turn& t, std::int64_t message_rowid,
                                        const std::string& message_id) {
  std::int64_t responded_by = 0;
  if (const std::string_view by = responded_by_only(t.metadata); !by.empty()) {
    if (by == message_id) {
      responded_by = message_rowid;
    } else {
      reset_guard guard(find_message_);
      bind_record_id(find_message_, 1, by, id_bytes_[1]);
      auto found = find_message_.step();
      if (!found) return std::move(found).err();
      if (*found) responded_by = find_message_.int_at(0);
    }
  }
  bind_record_id(close_turn_, 1, t.id, id_bytes_[1]);
  close_turn_.bind_text(2, events::to_wire(t.turn_type));
  close_turn_.bind_int(3, t.closed_at);
  close_turn_.bind_text(4, events::to_wire(t.status));
  close_turn_.bind_int(5, t.response_time);
  if (responded_by != 0) {
    close_turn_.bind_text(6, "");
  } else {
    close_turn_.bind_text(6, t.metadata);
  }
  close_turn_.bind_int(7, responded_by);
  return close_turn_.run();
}

namespace {

// Whether `m`'s text is exactly the field of its event that kMessageContentSql reads
// (records_v16.hpp), so the row may store NULL instead. Never an empty text (stored as it is, it
// costs nothing and needs no lookup) nor one with a NUL byte (which json_extract might not give
// back whole).
bool text_is_in_log(const record_message& m, const event& ev) {
  if (m.content.empty() || m.dialog_id != ev.dialog_id || m.seq != ev.seq) return false;
  if (m.content.find('\0') != std::string::npos) return false;
  if (const auto* input = ev.as<events::user_message>()) return input->content == m.content;
  if (const auto* generation = ev.as<events::generation_finished>()) return generation->saying == m.content;
  if (const auto* result = ev.as<events::tool_result>()) return result->content == m.content;
  if (const auto* reply = ev.as<events::reply_received>()) return reply->content == m.content;
  return false;
}

// Whether `metadata`, as the row would store it, is the shape kMessageMetadataFromLogSql builds
// from `m`'s event.
bool metadata_is_in_log(const record_message& m, const std::string& metadata, const event& ev) {
  if (m.dialog_id != ev.dialog_id || m.seq != ev.seq) return false;
  const auto canonical = canonical_metadata_of(ev, m.content_type);
  return canonical && *canonical == metadata;
}

}  // namespace

result<std::int64_t> records_writer::event_id_of(const std::string& dialog_id, std::int64_t seq) {
  reset_guard guard(find_event_);
  find_event_.bind_text(1, dialog_id);
  find_event_.bind_int(2, seq);
  auto found = find_event_.step();
  if (!found) return std::move(found).err();
  return *found ? find_event_.int_at(0) : std::int64_t{0};
}

result<void> records_writer::insert_message(const record_message& m, const event& ev, std::int64_t event_id,
                                            cached_cursor& known) {
  const bool calls_in_log = ev.is<events::generation_finished>();
  auto dialogue = rowid_of(find_dialogue_, known.dialogue, m.dialogue_id);
  if (!dialogue) return std::move(dialogue).err();
  auto session = rowid_of(find_session_, known.session, m.session_id);
  if (!session) return std::move(session).err();
  auto turn = rowid_of(find_turn_, known.turn, m.turn_id);
  if (!turn) return std::move(turn).err();
  bind_record_id(insert_message_, 1, m.id, id_bytes_[1]);
  insert_message_.bind_int(2, *dialogue);
  insert_message_.bind_int(3, *session);
  insert_message_.bind_int(4, *turn);
  insert_message_.bind_text(5, events::to_wire(m.sender_role));
  insert_message_.bind_text(6, m.sender_id);
  if (text_is_in_log(m, ev)) {
    insert_message_.bind_null(7);  // read from the log (records_v16.hpp)
  } else {
    insert_message_.bind_text(7, m.content);
  }
  insert_message_.bind_text(8, events::to_wire(m.content_type));
  insert_message_.bind_int(9, m.created_at);
  // A generation's calls are in its event: the row keeps null in their place (message_tool_calls.hpp).
  std::optional<std::string> without_calls;
  if (calls_in_log && m.content_type == events::content_type::tool_input)
    without_calls = metadata_without_tool_calls(m.metadata);
  const std::string& metadata = without_calls ? *without_calls : m.metadata;
  if (metadata_is_in_log(m, metadata, ev)) {
    insert_message_.bind_null(10);  // built from the log (message_log_metadata.hpp)
  } else {
    insert_message_.bind_text(10, metadata);
  }
  // The message names its event by its row id (records_v22.hpp): the event being applied, or, for
  // a message the reducer made for another event, that one's, looked up.
  if (m.dialog_id == ev.dialog_id && m.seq == ev.seq) {
    insert_message_.bind_int(11, event_id);
  } else {
    auto other = event_id_of(m.dialog_id, m.seq);
    if (!other) return std::move(other).err();
    if (*other != 0) {
      insert_message_.bind_int(11, *other);
    } else {
      insert_message_.bind_null(11);
    }
  }
  insert_message_.bind_text(12, m.content_meta);
  PARLEY_TRY(insert_message_.run());
  last_message_rowid_ = db_->last_insert_rowid();
  // Nothing to find in an empty text (a generation that only called tools): no index entry.
  if (m.content.empty() && m.content_meta.empty()) return ok();
  insert_fts_.bind_int(1, last_message_rowid_);
  // FTS5's tokenizer stops at a NUL byte, which would hide every word after it: the index reads
  // it as a space (the message row keeps the text as it is).
  if (m.content_meta.empty() && m.content.find('\0') == std::string::npos) {
    insert_fts_.bind_text(2, m.content);
    return insert_fts_.run();
  }
  const std::string text = message_search_text(m);  // the message_search view's text (records_schema.hpp)
  insert_fts_.bind_text(2, text);
  return insert_fts_.run();
}

}  // namespace parley::sqlite
