#include "parley/model/conversation_reducer.hpp"

#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <utility>

#include "parley/core/fnv1a.hpp"
#include "parley/model/event_codec.hpp"
#include "parley/model/flow_records.hpp"
#include "parley/model/message_annotation.hpp"

namespace parley {
namespace {

namespace ev_t = events;

// How a message moves the turn it lands in.
enum class message_kind {
  input,     // asks this dialog's AI for an answer (human text, a Tellask, a late reply, a prompt)
  answer,    // this dialog's AI answers its counterpart (a final saying)
  question,  // this dialog's AI asks the human (askHuman): answers the open turn, opens the next
  working,   // part of a turn's work: tool calls, tool results, interrupted output
};

struct classified {
  record_message msg;
  message_kind kind = message_kind::working;
  bool to_human = false;  // a human's message in a group that asks no AI: the other humans answer
  std::string notes;      // for the system utterance log, when the system speaks
};

std::uint64_t mix64(std::uint64_t x) noexcept {  // splitmix64's finalizer
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::string id_of(std::string_view kind, const event& ev) {
  return record_uuid(kind, ev.dialog_id + "/" + std::to_string(ev.seq), ev.ts_ms);
}

std::string metadata_text(const boost::json::object& obj) { return boost::json::serialize(obj); }

// Seed 002's seven dialogue types (docs/records.md "Dialogue types"): humans alone are a private
// chat when two (①) and a group when more (②); an AI with one human is ③, AIs among themselves ④
// (a Tellask's subdialog), an AI with itself ⑤, one human with several AIs ⑥, AIs among several
// humans ⑦.
std::string dialogue_type_of(const ev_t::dialog_created& p) {
  if (p.reflection) return "ai_self";
  if (p.kind == ev_t::dialog_kind::root) {
    const bool group_of_humans = p.humans.size() > 1;
    if (p.members.empty() && (group_of_humans || p.member_id.empty())) {
      return p.humans.size() > 2 ? "human_human_group" : "human_human";
    }
    if (p.members.empty()) return "human_ai";
    return group_of_humans ? "human_group_ai" : "lio_group";
  }
  return p.call == ev_t::call_kind::fresh_boots_reasoning ? "ai_self" : "ai_ai";
}

boost::json::array id_array(const std::vector<std::string>& ids) { return boost::json::array(ids.begin(), ids.end()); }

record_dialogue dialogue_from_created(const event& ev, const ev_t::dialog_created& p) {
  record_dialogue d;
  d.id = record_uuid("dialogue", ev.dialog_id);
  d.dialog_id = ev.dialog_id;
  d.dialogue_type = dialogue_type_of(p);
  d.ai_id = p.member_id;
  if (!p.parent_id.empty()) d.relation_id = record_uuid("dialogue", p.parent_id);
  d.created_at = ev.ts_ms;
  d.last_activity_at = ev.ts_ms;
  boost::json::object meta{{"dialogId", ev.dialog_id}, {"rootId", ev.root_id}};
  if (!p.title.empty()) meta["title"] = p.title;
  if (p.call) meta["callKind"] = ev_t::to_wire(*p.call);
  if (!p.humans.empty()) {
    d.human_id = p.humans.front();
    meta["humans"] = id_array(p.humans);
  }
  if (!p.members.empty()) meta["members"] = id_array(p.members);
  // An AI hosting a group of humans answers what nobody is asked by name (docs/server.md).
  if (d.dialogue_type == "human_group_ai" && !p.member_id.empty()) meta["host"] = p.member_id;
  d.metadata = metadata_text(meta);
  return d;
}

// Seed 002's image or audio message: its content is where the medium is, its content_meta what
// is known of it, including the words the human sent with it.
void media_message(const ev_t::attachment& attachment, const std::string& words, record_message& msg) {
  msg.content_type = std::string(ev_t::to_wire(attachment.kind));
  msg.content = attachment.url;
  boost::json::object meta{{"format", attachment.format},
                           {"size_kb", attachment.size_kb},
                           {"mime", attachment.mime},
                           {"upload_id", attachment.upload_id}};
  if (!attachment.caption.value_or("").empty()) meta["caption"] = *attachment.caption;
  if (!attachment.transcription.value_or("").empty()) meta["transcription"] = *attachment.transcription;
  if (!attachment.described_by.value_or("").empty()) meta["described_by"] = *attachment.described_by;
  if (!words.empty()) meta["text"] = words;
  msg.content_meta = metadata_text(meta);
}

// The three-party view of a projected message (seed 002 "三者对话结构"): who speaks, and what.
classified classify(const event& ev, const dialog_row& row, const message_row& m) {
  classified out;
  record_message& msg = out.msg;
  msg.content = m.content;
  msg.content_type = "text";
  boost::json::object meta{{"course", m.course}};
  const auto* input = ev.as<ev_t::user_message>();
  const auto* reply = ev.as<ev_t::reply_received>();
  if (m.role == "user" && m.origin == "tellask") {
    // A Tellask: the tellasker's AI asks this dialog's AI.
    msg.sender_role = "ai";
    if (input != nullptr && input->assigned) msg.sender_id = input->assigned->caller_member_id;
    meta["origin"] = "tellask";
    out.kind = message_kind::input;
  } else if (m.role == "user" && m.origin == "reply") {
    msg.sender_role = "ai";
    if (reply != nullptr) msg.sender_id = reply->from_member_id;
    meta["origin"] = "reply";
    meta["fromDialogId"] = reply != nullptr ? reply->from_dialog_id : std::string();
    out.kind = message_kind::input;
  } else if (m.role == "user" && m.origin == "system") {
    msg.sender_role = "system";
    msg.content_type = "system_context";
    out.kind = message_kind::input;
    out.notes = "runtime prompt inserted into the context";
  } else if (m.role == "user") {
    msg.sender_role = "human";
    msg.sender_id = m.speaker;
    out.kind = message_kind::input;
    const std::optional<std::string> responder = input != nullptr ? input->responder : std::nullopt;
    if (input != nullptr && input->media) media_message(*input->media, m.content, msg);
    out.to_human = responder && responder->empty();
    if (!out.to_human && responder) meta["responder"] = *responder;
  } else if (m.role == "assistant") {
    msg.sender_role = "ai";
    msg.sender_id = m.speaker.empty() ? row.member_id : m.speaker;
    meta["genseq"] = m.genseq;
    if (!m.thinking.empty()) meta["thinking"] = m.thinking;
    if (m.interrupted) meta["interrupted"] = true;
    const auto* finished = ev.as<ev_t::generation_finished>();
    if (!m.tool_calls_json.empty()) {
      msg.content_type = "tool_input";
      if (finished != nullptr) meta["toolCalls"] = ev_t::encode_value(finished->tool_calls);
    }
    if (finished != nullptr && finished->prompt_version) meta["promptVersion"] = *finished->prompt_version;
    const bool input_arrived = finished != nullptr && finished->input_arrived;
    const bool final_saying = m.tool_calls_json.empty() && !m.interrupted && !input_arrived;
    out.kind = final_saying ? message_kind::answer : message_kind::working;
  } else if (const auto* answer = ev.as<ev_t::question_answered>()) {
    // The human's answer to an askHuman question.
    msg.sender_role = "human";
    meta["questionId"] = answer->question_id;
    meta["callId"] = m.tool_call_id;
    out.kind = message_kind::input;
  } else {  // a tool's output, relayed by the system
    msg.sender_role = "system";
    msg.content_type = "tool_output";
    meta["callId"] = m.tool_call_id;
    meta["name"] = m.tool_name;
    meta["ok"] = m.ok;
    out.notes = "result of " + m.tool_name;
    if (reply != nullptr) meta["fromDialogId"] = reply->from_dialog_id;
  }
  msg.metadata = metadata_text(meta);
  return out;
}

// A flow's main-thread message (seed 004): the user asks, the bot answers; a placeholder that will
// hold a sub-thread's result is the bot at work, so the turn stays open for the answer after it.
classified flow_message(const flow_main_message& m, const dialog_row& row) {
  classified out;
  out.msg.content = m.text;
  out.msg.content_type = "text";
  boost::json::object meta{{"flowMessageId", m.id}};
  if (m.sender == "user") {
    out.msg.sender_role = "human";
    if (!row.humans.empty()) out.msg.sender_id = row.humans.front();
    out.kind = message_kind::input;
  } else {
    out.msg.sender_role = "ai";
    out.msg.sender_id = row.member_id;
    out.kind = m.placeholder ? message_kind::working : message_kind::answer;
    if (m.placeholder) meta["placeholder"] = true;
  }
  out.msg.metadata = metadata_text(meta);
  return out;
}

// askHuman's question is the AI speaking to the human: a message of its own.
classified question_message(const ev_t::question_asked& p, const dialog_row& row) {
  classified out;
  out.kind = message_kind::question;
  out.msg.sender_role = "ai";
  out.msg.sender_id = row.member_id;
  out.msg.content = p.tellask_content;
  out.msg.content_type = "text";
  out.msg.metadata = metadata_text({{"course", row.course}, {"questionId", p.question_id}, {"callId", p.call_id}});
  return out;
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
    t.turn_type = "unresponded_turn";
    t.status = "unresponded";
    t.closed_at = c_.turn_started_ms + c_.open_turn_window_ms();
    t.metadata = metadata_text({{"openedAs", c_.turn_type}});
    c_.session_last_ms = std::max(c_.session_last_ms, t.closed_at);
    out_.closed_turns.push_back(std::move(t));
    c_.turn_id.clear();
  }

  // Seed 002's SystemUtteranceLog: every system message is also an utterance of the system.
  void note_system_utterance(const record_message& msg, std::string target, std::string notes) {
    if (msg.sender_role != "system") return;
    record_system_utterance u;
    u.log_id = msg.id;
    u.timestamp = msg.created_at;
    u.conversation_id = msg.dialogue_id;
    u.trigger = msg.content_type == "tool_output" ? "tool_result"
                : msg.content_type == "prompt"    ? "proactive_prompt"
                                                  : "context_hint";
    u.content = msg.content;
    u.target = std::move(target);
    u.linked_turn_id = msg.turn_id;
    u.notes = std::move(notes);
    out_.utterance = std::move(u);
  }

  // The write API's turn: opened in the current session, never splitting it.
  void open_written_turn(const ev_t::record_turn_opened& p) {
    expire_before(ev_.ts_ms);
    if (!c_.turn_id.empty() || c_.session_id.empty() || p.session_id != c_.session_id) return;
    open_turn(p.initiator_role, p.responder_role, p.turn_id, p.window_ms);
    c_.session_last_ms = std::max(c_.session_last_ms, ev_.ts_ms);
  }

  void close_written_turn(const ev_t::record_turn_closed& p) {
    expire_before(ev_.ts_ms);
    if (c_.turn_id.empty() || p.turn_id != c_.turn_id) return;
    if (p.status == "unresponded") {
      record_turn t = open_turn_row();
      t.turn_type = "unresponded_turn";
      t.status = "unresponded";
      t.closed_at = ev_.ts_ms;
      boost::json::object meta{{"openedAs", c_.turn_type}, {"closedBy", p.closed_by.empty() ? "api" : p.closed_by}};
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
    record_session s;
    s.id = p.session_id;
    s.session_type = p.session_type;
    s.description = p.description;
    s.created_by = p.created_by;
    s.trigger_source = p.trigger_source.value_or("");
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
    if (c_.session_id.empty() || c_.session_type != "self_reflection" ||
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
    record_message msg;
    msg.id = p.message_id;
    msg.dialogue_id = c_.dialogue_id;
    msg.session_id = c_.session_id;
    msg.turn_id = c_.turn_id;
    msg.sender_role = p.sender_role;
    msg.sender_id = p.sender_id;
    msg.content = p.content;
    msg.content_type = p.content_type;
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
    note_system_utterance(msg, p.target, p.notes);
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
        const std::string responder = m.to_human ? "human" : "ai";
        if (open && c_.turn_responder == m.msg.sender_role && !own_turn) {
          close_responded(m.msg.id);
          open_turn(m.msg.sender_role, responder);
        } else if (!open) {
          open_turn(m.msg.sender_role, responder);
        }
        break;
      }
      case message_kind::question:
        if (open && c_.turn_responder == "ai") {
          close_responded(m.msg.id);
          open_turn("ai", "human");
        } else if (!open) {
          open_turn("ai", "human");
        }
        break;
      case message_kind::answer:
        if (!open) open_turn("ai", c_.counterpart);
        break;
      case message_kind::working:
        if (!open) open_turn(m.msg.sender_role, m.msg.sender_role == "ai" ? c_.counterpart : "ai");
        break;
    }
    if (c_.turn_id != turn_before && !c_.turn_id.empty()) c_.turn_initiator_id = m.msg.sender_id;
    m.msg.session_id = c_.session_id;
    m.msg.turn_id = c_.turn_id;
    c_.session_last_ms = std::max(c_.session_last_ms, ev_.ts_ms);
    // The responder's answer is the last message of its turn.
    if (m.kind == message_kind::answer && c_.turn_responder == "ai") close_responded(m.msg.id);
    // A reflection's answer is its summary, and ends its session.
    if (m.kind == message_kind::answer && !c_.reflection_trigger.empty() && c_.turn_id.empty()) {
      end_current_session(ev_.ts_ms, m.msg.content);
      c_.session_id.clear();
    }
    // What the engine's system says goes into the AI's context.
    note_system_utterance(m.msg, "ai", std::move(m.notes));
    out_.message = std::move(m.msg);
  }

 private:
  record_turn open_turn_row() const {
    record_turn t;
    t.id = c_.turn_id;
    t.dialogue_id = c_.dialogue_id;
    t.session_id = c_.session_id;
    t.turn_type = c_.turn_type;
    t.initiator_role = c_.turn_initiator;
    t.responder_role = c_.turn_responder;
    t.started_at = c_.turn_started_ms;
    t.window_ms = c_.open_turn_window_ms();
    return t;
  }

  void close_responded(const std::string& by_message) {
    record_turn t = open_turn_row();
    t.status = "responded";
    t.closed_at = ev_.ts_ms;
    t.response_time = ev_.ts_ms - c_.turn_started_ms;
    t.metadata = metadata_text({{"respondedBy", by_message}});
    out_.closed_turns.push_back(std::move(t));
    c_.turn_id.clear();
  }

  // `window_ms`: the turn's own response window (a written turn's expected_window_minutes); absent,
  // the dialogue's.
  void open_turn(const std::string& initiator, const std::string& responder, std::string id = {},
                 std::optional<std::int64_t> window_ms = std::nullopt) {
    if (id.empty()) {
      if (c_.session_id.empty() || ev_.ts_ms - c_.session_last_ms > c_.gap_ms) open_session();
      id = id_of("turn", ev_);
    }
    c_.turn_id = std::move(id);
    c_.turn_initiator = initiator;
    c_.turn_initiator_id.clear();  // set by place() for a turn a message opens
    c_.turn_responder = responder;
    c_.turn_type = initiator == "human" ? "human_query" : initiator == "ai" ? "ai_prompt" : "system_prompt";
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
      s.session_type = "self_reflection";
      s.created_by = "ai";
      s.trigger_source = c_.reflection_trigger;
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

std::string format_uuid(std::uint64_t hi, std::uint64_t lo) {
  hi = (hi & ~0xf000ULL) | 0x8000ULL;              // version 8
  lo = (lo & ~(0xc0ULL << 56)) | (0x80ULL << 56);  // variant 10
  static constexpr std::array<char, 16> kHex{'0', '1', '2', '3', '4', '5', '6', '7',
                                             '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'};
  std::string out;
  out.reserve(36);
  auto put = [&](std::uint64_t v, int from_nibble, int count) {
    for (int i = from_nibble; i < from_nibble + count; ++i) out.push_back(kHex[(v >> (60 - 4 * i)) & 0xf]);
  };
  put(hi, 0, 8);
  out.push_back('-');
  put(hi, 8, 4);
  out.push_back('-');
  put(hi, 12, 4);
  out.push_back('-');
  put(lo, 0, 4);
  out.push_back('-');
  put(lo, 4, 12);
  return out;
}

// Two independent 64-bit hashes of "kind:name", each finalized, make the 128 bits.
std::pair<std::uint64_t, std::uint64_t> name_hash(std::string_view kind, std::string_view name) {
  const std::uint64_t seed_a = fnv1a(name, fnv1a(":", fnv1a(kind, kFnv1aOffsetBasis)));
  const std::uint64_t seed_b = fnv1a(name, fnv1a(":", fnv1a(kind, 0x84222325cbf29ce4ULL)));
  return {mix64(seed_a), mix64(seed_b ^ 0x9e3779b97f4a7c15ULL)};
}

// Puts `order` (48 bits) first, so ids made later sort later.
std::uint64_t ordered(std::uint64_t order, std::uint64_t hash_hi) { return (order << 16) | (hash_hi & 0xffffULL); }

// Parley's dialog ids (core/ids.cpp) are 16 hex digits that begin with their creation time.
std::optional<std::uint64_t> time_order_of_dialog_id(std::string_view id) {
  if (id.size() != 16) return std::nullopt;
  std::uint64_t value = 0;
  for (const char c : id.substr(0, 12)) {
    const int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (digit < 0) return std::nullopt;
    value = (value << 4) | static_cast<std::uint64_t>(digit);
  }
  return value;
}

}  // namespace

std::string record_uuid(std::string_view kind, std::string_view name) {
  auto [hi, lo] = name_hash(kind, name);
  if (kind == "dialogue") {
    if (const auto order = time_order_of_dialog_id(name)) hi = ordered(*order, hi);
  }
  return format_uuid(hi, lo);
}

std::string record_uuid(std::string_view kind, std::string_view name, std::int64_t time_ms) {
  auto [hi, lo] = name_hash(kind, name);
  return format_uuid(ordered(static_cast<std::uint64_t>(time_ms) & 0xffffffffffffULL, hi), lo);
}

std::string record_message_id(const event& ev) { return id_of("message", ev); }

bool touches_records(const event& ev, const projection_step& step) noexcept {
  return step.new_message.has_value() || ev.is<ev_t::dialog_created>() || ev.is<ev_t::question_asked>() ||
         ev.is<ev_t::status_changed>() || ev.is<ev_t::declared_dead>() || ev.is<ev_t::turn_window_expired>() ||
         ev.is<ev_t::flow_thread_saved>() || ev.is<ev_t::flow_thread_appended>() ||
         ev_t::is_records_write(ev.payload) || ev_t::is_message_analysis(ev.payload);
}

namespace {

records_cursor cursor_of(const event& ev, const ev_t::dialog_created& p) {
  records_cursor cursor;
  cursor.dialog_id = ev.dialog_id;
  cursor.dialogue_id = record_uuid("dialogue", ev.dialog_id);
  cursor.counterpart = p.kind == ev_t::dialog_kind::root ? "human" : "ai";
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
  if (const auto* created = ev.as<ev_t::dialog_created>()) {
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
