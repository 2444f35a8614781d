#include "parley/model/conversation_reducer.hpp"

#include <boost/json/object.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>

#include "parley/model/event_codec.hpp"
#include "parley/model/flow_records.hpp"
#include "parley/model/message_annotation.hpp"
#include "parley/model/records_classify.hpp"

namespace parley {
namespace {

namespace ev_t = events;
using ev_t::content_type;
using ev_t::record_role;
using ev_t::turn_status;
using records_detail::classified;
using records_detail::classify;
using records_detail::dialogue_from_created;
using records_detail::flow_message;
using records_detail::id_of;
using records_detail::message_kind;
using records_detail::metadata_text;
using records_detail::question_message;

// A records event's vocabulary field, read through its table. The REST layer checked each before it
// wrote the event (engine/reflection.cpp writes constants), so none fails; one that does is a write
// that does not fit, and is ignored like any other.
template <ev_t::wire_enum E>
std::optional<E> vocab(std::string_view wire) {
  return ev_t::from_wire<E>(wire);
}

class turn_folder {
 public:
  turn_folder(const event& ev, records_cursor& cursor, records_step& out) : ev_(ev), c_(cursor), out_(out) {}

  // Closes the open turn as unresponded when its window passed before `now`.
  void expire_before(std::int64_t now) {
    if (!c_.turn_id.empty() && now > c_.turn_started_ms + c_.open_turn_window_ms()) close_unresponded();
  }

  void close_unresponded() {
    record_turn t = open_turn_row();
    t.turn_type = ev_t::turn_type::unresponded_turn;
    t.status = turn_status::unresponded;
    t.closed_at = c_.turn_started_ms + c_.open_turn_window_ms();
    t.metadata = metadata_text({{"openedAs", opened_as()}});
    c_.session_last_ms = std::max(c_.session_last_ms, t.closed_at);
    out_.closed_turns.push_back(std::move(t));
    c_.turn_id.clear();
  }

  // Seed 002's SystemUtteranceLog: every system message is also an utterance of the system.
  void note_system_utterance(const record_message& msg, ev_t::utterance_target target, std::string notes) {
    if (msg.sender_role != record_role::system) return;
    record_system_utterance u;
    u.log_id = msg.id;
    u.timestamp = msg.created_at;
    u.conversation_id = msg.dialogue_id;
    switch (msg.content_type) {
      case content_type::tool_output:
        u.trigger = ev_t::utterance_trigger::tool_result;
        break;
      case content_type::prompt:
        u.trigger = ev_t::utterance_trigger::proactive_prompt;
        break;
      default:
        u.trigger = ev_t::utterance_trigger::context_hint;
        break;
    }
    u.content = msg.content;
    u.target = target;
    u.linked_turn_id = msg.turn_id;
    u.notes = std::move(notes);
    out_.utterance = std::move(u);
  }

  // The write API's turn: opened in the current session, never splitting it.
  void open_written_turn(const ev_t::record_turn_opened& p) {
    expire_before(ev_.ts_ms);
    if (!c_.turn_id.empty() || c_.session_id.empty() || p.session_id != c_.session_id) return;
    const auto initiator = vocab<record_role>(p.initiator_role);
    const auto responder = vocab<record_role>(p.responder_role);
    if (!initiator || !responder) return;
    open_turn(*initiator, *responder, p.turn_id, p.window_ms);
    c_.session_last_ms = std::max(c_.session_last_ms, ev_.ts_ms);
  }

  void close_written_turn(const ev_t::record_turn_closed& p) {
    expire_before(ev_.ts_ms);
    if (c_.turn_id.empty() || p.turn_id != c_.turn_id) return;
    if (vocab<turn_status>(p.status) == turn_status::unresponded) {
      record_turn t = open_turn_row();
      t.turn_type = ev_t::turn_type::unresponded_turn;
      t.status = turn_status::unresponded;
      t.closed_at = ev_.ts_ms;
      boost::json::object meta{{"openedAs", opened_as()}, {"closedBy", p.closed_by.empty() ? "api" : p.closed_by}};
      if (!p.outcome.empty()) meta["outcome"] = p.outcome;
      t.metadata = metadata_text(meta);
      out_.closed_turns.push_back(std::move(t));
      c_.turn_id.clear();
    } else {
      close_responded("");
      if (!p.closed_by.empty()) {
        out_.closed_turns.back().metadata = metadata_text({{"respondedBy", ""}, {"closedBy", p.closed_by}});
      }
    }
    c_.session_last_ms = std::max(c_.session_last_ms, ev_.ts_ms);
  }

  void open_written_session(const ev_t::record_session_opened& p) {
    expire_before(ev_.ts_ms);
    if (!c_.turn_id.empty()) return;  // a turn never spans two sessions
    const auto type = vocab<ev_t::session_type>(p.session_type);
    const auto created_by = vocab<record_role>(p.created_by);
    const auto trigger = p.trigger_source ? vocab<ev_t::trigger_source>(*p.trigger_source) : std::nullopt;
    if (!type || !created_by || (p.trigger_source && !trigger)) return;
    record_session s;
    s.id = p.session_id;
    s.session_type = *type;
    s.description = p.description;
    s.created_by = *created_by;
    s.trigger_source = trigger;
    s.goal = p.goal.value_or("");
    s.ai_mood_state = p.ai_mood_state.value_or("");
    s.metadata = metadata_text(p.metadata);
    end_current_session(ev_.ts_ms);
    start_session(std::move(s), ev_.ts_ms);
  }

  void close_written_session(const ev_t::record_session_closed& p) {
    expire_before(ev_.ts_ms);
    if (!c_.turn_id.empty() || c_.session_id.empty() || p.session_id != c_.session_id) return;
    end_current_session(ev_.ts_ms, p.summary);
    if (!p.reason.empty()) out_.closed_sessions.back().metadata = metadata_text({{"close_reason", p.reason}});
    c_.session_id.clear();
  }

  // `sessionId` empty: the current session (the engine's own reflection dialogs do not know it).
  void place_introspection(const ev_t::record_introspection& p) {
    const std::string session = p.session_id.value_or("");
    if (c_.session_id.empty() || c_.session_type != ev_t::session_type::self_reflection ||
        (!session.empty() && session != c_.session_id)) {
      return;
    }
    record_introspection turn;
    turn.id = p.turn_id;
    turn.session_id = c_.session_id;
    turn.dialogue_id = c_.dialogue_id;
    turn.purpose = p.purpose;
    turn.input_context = p.input_context.value_or("");
    turn.tool_used = p.tool_used.value_or("");
    turn.tool_input = p.tool_input.value_or("");
    turn.tool_output = p.tool_output.value_or("");
    turn.mood_shift = p.mood_shift.value_or("");
    turn.value_impact = p.value_impact.value_or("");
    turn.started_at = p.started_at.value_or(ev_.ts_ms);
    turn.duration_ms = p.duration_ms;
    if (const auto entry = p.generated_entry.value_or(""); !entry.empty()) {
      record_memory_entry memory;
      memory.id = p.memory_id.value_or("");
      memory.dialogue_id = c_.dialogue_id;
      memory.ai_id = p.ai_id;
      memory.content = entry;
      memory.created_at = ev_.ts_ms;
      memory.source_turn_id = turn.id;
      turn.generated_entry = memory.id;
      out_.links.push_back({turn.id, memory.id, "generated", ev_.ts_ms});
      out_.memory = std::move(memory);
    }
    c_.session_last_ms = std::max(c_.session_last_ms, ev_.ts_ms);
    out_.introspection = std::move(turn);
  }

  // The write API's message: it joins the pending turn and, from the turn's responder, answers it.
  void place_written(const ev_t::record_message& p) {
    expire_before(ev_.ts_ms);
    if (c_.turn_id.empty() || p.turn_id != c_.turn_id) return;
    const auto sender = vocab<record_role>(p.sender_role);
    const auto type = vocab<content_type>(p.content_type);
    if (!sender || !type) return;
    // Only a system message's utterance reads it; the format's default ("all") stands for a value
    // the REST layer never writes rather than losing the message.
    const auto target = vocab<ev_t::utterance_target>(p.target).value_or(ev_t::utterance_target::all);
    record_message msg;
    msg.id = p.message_id;
    msg.dialogue_id = c_.dialogue_id;
    msg.session_id = c_.session_id;
    msg.turn_id = c_.turn_id;
    msg.sender_role = *sender;
    msg.sender_id = p.sender_id;
    msg.content = p.content;
    msg.content_type = *type;
    if (p.content_meta) msg.content_meta = metadata_text(*p.content_meta);
    boost::json::object meta = p.metadata;
    if (!p.reply_to.empty()) meta["reply_to"] = p.reply_to;
    msg.metadata = metadata_text(meta);
    msg.created_at = ev_.ts_ms;
    msg.dialog_id = ev_.dialog_id;
    msg.seq = ev_.seq;
    c_.session_last_ms = std::max(c_.session_last_ms, ev_.ts_ms);
    const bool answers = msg.sender_role == c_.turn_responder;
    const std::string id = msg.id;
    note_system_utterance(msg, target, p.notes);
    out_.message = std::move(msg);
    if (answers) close_responded(id);
  }

  void place(classified m) {
    m.msg.id = id_of("message", ev_);
    m.msg.dialogue_id = c_.dialogue_id;
    m.msg.created_at = ev_.ts_ms;
    m.msg.dialog_id = ev_.dialog_id;
    m.msg.seq = ev_.seq;
    expire_before(ev_.ts_ms);
    const bool open = !c_.turn_id.empty();
    const std::string turn_before = c_.turn_id;
    switch (m.kind) {
      case message_kind::input: {
        // A human answers another human's turn, never their own.
        const bool own_turn = c_.turn_initiator == m.msg.sender_role && c_.turn_initiator_id == m.msg.sender_id;
        const record_role responder = m.to_human ? record_role::human : record_role::ai;
        if (open && c_.turn_responder == m.msg.sender_role && !own_turn) {
          close_responded(m.msg.id);
          open_turn(m.msg.sender_role, responder);
        } else if (!open) {
          open_turn(m.msg.sender_role, responder);
        }
        break;
      }
      case message_kind::question:
        if (open && c_.turn_responder == record_role::ai) {
          close_responded(m.msg.id);
          open_turn(record_role::ai, record_role::human);
        } else if (!open) {
          open_turn(record_role::ai, record_role::human);
        }
        break;
      case message_kind::answer:
        if (!open) open_turn(record_role::ai, c_.counterpart);
        break;
      case message_kind::working:
        if (!open) {
          open_turn(m.msg.sender_role, m.msg.sender_role == record_role::ai ? c_.counterpart : record_role::ai);
        }
        break;
    }
    if (c_.turn_id != turn_before && !c_.turn_id.empty()) c_.turn_initiator_id = m.msg.sender_id;
    m.msg.session_id = c_.session_id;
    m.msg.turn_id = c_.turn_id;
    c_.session_last_ms = std::max(c_.session_last_ms, ev_.ts_ms);
    // The responder's answer is the last message of its turn.
    if (m.kind == message_kind::answer && c_.turn_responder == record_role::ai) close_responded(m.msg.id);
    // A reflection's answer is its summary, and ends its session.
    if (m.kind == message_kind::answer && !c_.reflection_trigger.empty() && c_.turn_id.empty()) {
      end_current_session(ev_.ts_ms, m.msg.content);
      c_.session_id.clear();
    }
    // What the engine's system says goes into the AI's context.
    note_system_utterance(m.msg, ev_t::utterance_target::ai, std::move(m.notes));
    out_.message = std::move(m.msg);
  }

 private:
  std::string_view opened_as() const { return c_.turn_type ? ev_t::to_wire(*c_.turn_type) : std::string_view(); }

  record_turn open_turn_row() const {
    record_turn t;
    t.id = c_.turn_id;
    t.dialogue_id = c_.dialogue_id;
    t.session_id = c_.session_id;
    // Set whenever a turn is open (open_turn).
    t.turn_type = c_.turn_type.value_or(ev_t::turn_type::system_prompt);
    t.initiator_role = c_.turn_initiator.value_or(record_role::system);
    t.responder_role = c_.turn_responder.value_or(record_role::ai);
    t.started_at = c_.turn_started_ms;
    t.window_ms = c_.open_turn_window_ms();
    return t;
  }

  void close_responded(const std::string& by_message) {
    record_turn t = open_turn_row();
    t.status = turn_status::responded;
    t.closed_at = ev_.ts_ms;
    t.response_time = ev_.ts_ms - c_.turn_started_ms;
    t.metadata = metadata_text({{"respondedBy", by_message}});
    out_.closed_turns.push_back(std::move(t));
    c_.turn_id.clear();
  }

  // `window_ms`: the turn's own response window (a written turn's expected_window_minutes); absent,
  // the dialogue's.
  void open_turn(record_role initiator, record_role responder, std::string id = {},
                 std::optional<std::int64_t> window_ms = std::nullopt) {
    if (id.empty()) {
      if (c_.session_id.empty() || ev_.ts_ms - c_.session_last_ms > c_.gap_ms) open_session();
      id = id_of("turn", ev_);
    }
    c_.turn_id = std::move(id);
    c_.turn_initiator = initiator;
    c_.turn_initiator_id.clear();  // set by place() for a turn a message opens
    c_.turn_responder = responder;
    c_.turn_type = ev_t::turn_type_opened_by(initiator);
    c_.turn_started_ms = ev_.ts_ms;
    c_.turn_window_ms = window_ms ? std::max<std::int64_t>(1, *window_ms) : 0;
    record_turn t = open_turn_row();
    t.metadata = "{}";
    out_.opened_turns.push_back(std::move(t));
  }

  // A session the system opens: the previous one ends at its last activity.
  void open_session() {
    if (!c_.session_id.empty()) end_current_session(c_.session_last_ms);
    record_session s;
    s.id = id_of("session", ev_);
    s.metadata = "{}";
    if (!c_.reflection_trigger.empty()) {
      s.session_type = ev_t::session_type::self_reflection;
      s.created_by = record_role::ai;
      s.trigger_source = vocab<ev_t::trigger_source>(c_.reflection_trigger);
      s.goal = c_.reflection_goal;
      s.ai_mood_state = c_.reflection_mood;
    }
    start_session(std::move(s), ev_.ts_ms);
  }

  void end_current_session(std::int64_t end_at, std::string summary = {}) {
    if (c_.session_id.empty()) return;
    record_session closed;
    closed.id = c_.session_id;
    closed.dialogue_id = c_.dialogue_id;
    closed.end_at = end_at;
    closed.summary = std::move(summary);
    out_.closed_sessions.push_back(std::move(closed));
  }

  void start_session(record_session s, std::int64_t at) {
    s.dialogue_id = c_.dialogue_id;
    s.start_at = at;
    c_.session_id = s.id;
    c_.session_type = s.session_type;
    c_.session_last_ms = at;
    out_.opened_sessions.push_back(std::move(s));
  }

  const event& ev_;
  records_cursor& c_;
  records_step& out_;
};

record_dialogue activity_update(const records_cursor& c, const dialog_row& row, std::int64_t last_activity) {
  record_dialogue d;
  d.id = c.dialogue_id;
  d.dialog_id = row.id;
  d.is_active = row.status == ev_t::dialog_status::running && !row.dead;
  d.last_activity_at = last_activity;
  return d;
}

}  // namespace

std::string record_message_id(const event& ev) { return id_of("message", ev); }

namespace {

// A flow append the records take a message from: one that adds to the main thread. The others
// (sub-threads, settings: most of a flow's writes) are skipped by the records writer whole.
bool adds_main_thread_message(const event& ev) noexcept {
  const auto* appended = ev.as<ev_t::flow_thread_appended>();
  if (appended == nullptr) return false;
  for (const auto& append : appended->appends) {
    if (append.path.empty() && !append.messages.empty()) return true;
  }
  return false;
}

}  // namespace

bool touches_records(const event& ev, const projection_step& step) noexcept {
  return step.new_message.has_value() || opens_dialog(ev) || ev.is<ev_t::question_asked>() ||
         ev.is<ev_t::status_changed>() || ev.is<ev_t::declared_dead>() || ev.is<ev_t::turn_window_expired>() ||
         ev.is<ev_t::flow_thread_saved>() || adds_main_thread_message(ev) || ev_t::is_records_write(ev.payload) ||
         ev_t::is_message_analysis(ev.payload);
}

namespace {

records_cursor cursor_of(const event& ev, const ev_t::dialog_created& p) {
  records_cursor cursor;
  cursor.dialog_id = ev.dialog_id;
  cursor.dialogue_id = dialogue_uuid(ev.dialog_id);
  cursor.counterpart = p.kind == ev_t::dialog_kind::root ? record_role::human : record_role::ai;
  // Recorded in the log, so a rebuild uses the windows the dialog was created with.
  cursor.window_ms = std::max<std::int64_t>(1, p.turn_window_ms.value_or(kDefaultTurnWindowMs));
  cursor.gap_ms = std::max<std::int64_t>(1, p.session_gap_ms.value_or(kDefaultSessionGapMs));
  if (p.reflection) {
    cursor.reflection_trigger = p.reflection->trigger;
    cursor.reflection_goal = p.reflection->goal;
    cursor.reflection_mood = p.reflection->mood_state.value_or("");
  }
  return cursor;
}

}  // namespace

records_step apply_records(const event& ev, const dialog_row& row_after, const projection_step& step,
                           records_cursor& cursor) {
  records_step out;
  // A fork's dialog opens with dialog_forked, which carries the origin's dialog_created with the
  // fork's ids: its records begin at the cut, and the shared history stays the origin's records.
  const auto* forked = ev.as<ev_t::dialog_forked>();
  if (const auto* created = forked ? &forked->created : ev.as<ev_t::dialog_created>()) {
    cursor = cursor_of(ev, *created);
    out.dialogue = dialogue_from_created(ev, *created);
    out.new_dialogue = true;
    return out;
  }
  if (cursor.dialogue_id.empty()) return out;  // a dialog older than the records: nothing to fold into
  turn_folder folder(ev, cursor, out);
  std::visit(ev_t::overloaded{
                 [&](const ev_t::turn_window_expired& p) {
                   if (p.turn_id == cursor.turn_id) folder.expire_before(ev.ts_ms + 1);
                 },
                 [&](const ev_t::record_session_opened& p) { folder.open_written_session(p); },
                 [&](const ev_t::record_session_closed& p) { folder.close_written_session(p); },
                 [&](const ev_t::record_turn_opened& p) { folder.open_written_turn(p); },
                 [&](const ev_t::record_turn_closed& p) { folder.close_written_turn(p); },
                 [&](const ev_t::record_message& p) { folder.place_written(p); },
                 [&](const ev_t::record_introspection& p) { folder.place_introspection(p); },
                 [&](const ev_t::record_memory_link& p) {
                   out.links.push_back({p.turn_id, p.memory_id, "related", ev.ts_ms});
                 },
                 [&](const ev_t::record_message_analyzed& p) { out.annotation = annotation_of(p); },
                 [&](const ev_t::record_message_embedded& p) { out.annotation = annotation_of(p); },
                 [&](const ev_t::question_asked& p) { folder.place(question_message(p, row_after)); },
                 [&](const ev_t::flow_thread_saved& p) {
                   // A whole thread is new only at its first save; later saves change what is recorded.
                   if (!cursor.session_id.empty()) return;
                   if (auto m = last_main_message(p)) folder.place(flow_message(*m, row_after));
                 },
                 [&](const ev_t::flow_thread_appended& p) {
                   if (auto m = main_message_added(p)) folder.place(flow_message(*m, row_after));
                 },
                 [&](const auto&) {
                   if (step.new_message) folder.place(classify(ev, row_after, *step.new_message));
                 },
             },
             ev.payload);
  // last_activity_at is the newest message; 0 leaves it as it was (the writer keeps the maximum).
  if (out.message || ev.is<ev_t::status_changed>() || ev.is<ev_t::declared_dead>()) {
    out.dialogue = activity_update(cursor, row_after, out.message ? ev.ts_ms : 0);
  }
  return out;
}

}  // namespace parley
