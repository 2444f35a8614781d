#include "parley/model/conversation_reducer.hpp"

#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <utility>

#include "parley/core/json.hpp"

namespace parley {
namespace {

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

std::uint64_t fnv1a(std::string_view text, std::uint64_t hash) noexcept {
  for (const unsigned char c : text) hash = (hash ^ c) * 0x100000001b3ULL;
  return hash;
}

std::string id_of(std::string_view kind, const event& ev) {
  return record_uuid(kind, ev.dialog_id + "/" + std::to_string(ev.seq), ev.ts_ms);
}

std::string metadata_text(const boost::json::object& obj) { return boost::json::serialize(obj); }

std::string dialogue_type_of(const event& ev) {
  if (json_object_at(ev.payload, "reflection") != nullptr) return "ai_self";
  if (json_string_or(ev.payload, "kind", "root") == "root") {
    const auto* humans = json_array_at(ev.payload, "humans");
    const auto* members = json_array_at(ev.payload, "members");
    const bool group_of_humans = humans != nullptr && humans->size() > 1;
    if (members == nullptr || members->empty()) {
      return group_of_humans || json_string_or(ev.payload, "memberId").empty() ? "human_human" : "human_ai";
    }
    return group_of_humans ? "human_group_ai" : "lio_group";
  }
  return json_string_or(ev.payload, "callKind") == "freshBootsReasoning" ? "ai_self" : "ai_ai";
}

record_dialogue dialogue_from_created(const event& ev) {
  record_dialogue d;
  d.id = record_uuid("dialogue", ev.dialog_id);
  d.dialog_id = ev.dialog_id;
  d.dialogue_type = dialogue_type_of(ev);
  d.ai_id = json_string_or(ev.payload, "memberId");
  const std::string parent = json_string_or(ev.payload, "parentId");
  if (!parent.empty()) d.relation_id = record_uuid("dialogue", parent);
  d.created_at = ev.ts_ms;
  d.last_activity_at = ev.ts_ms;
  boost::json::object meta{{"dialogId", ev.dialog_id}, {"rootId", ev.root_id}};
  if (const auto title = json_string_or(ev.payload, "title"); !title.empty()) meta["title"] = title;
  if (const auto call = json_string_or(ev.payload, "callKind"); !call.empty()) meta["callKind"] = call;
  if (const auto* humans = json_array_at(ev.payload, "humans"); humans != nullptr && !humans->empty()) {
    if (humans->front().is_string()) d.human_id = humans->front().get_string();
    meta["humans"] = *humans;
  }
  if (const auto* members = json_array_at(ev.payload, "members"); members != nullptr && !members->empty()) {
    meta["members"] = *members;
  }
  d.metadata = metadata_text(meta);
  return d;
}

// Seed 002's image or audio message: its content is where the medium is, its content_meta what
// is known of it, including the words the human sent with it.
void media_message(const boost::json::object& attachment, const std::string& words, record_message& msg) {
  msg.content_type = json_string_or(attachment, "kind", "image");
  msg.content = json_string_or(attachment, "url");
  boost::json::object meta{{"format", json_string_or(attachment, "format")},
                           {"size_kb", json_int_or(attachment, "sizeKb")},
                           {"mime", json_string_or(attachment, "mime")},
                           {"upload_id", json_string_or(attachment, "uploadId")}};
  for (const auto* field : {"caption", "transcription"}) {
    if (const auto value = json_string_or(attachment, field); !value.empty()) meta[field] = value;
  }
  if (const auto by = json_string_or(attachment, "describedBy"); !by.empty()) meta["described_by"] = by;
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
  if (m.role == "user" && m.origin == "tellask") {
    // A Tellask: the tellasker's AI asks this dialog's AI.
    msg.sender_role = "ai";
    if (const auto* a = json_object_at(ev.payload, "assignment")) msg.sender_id = json_string_or(*a, "callerMemberId");
    meta["origin"] = "tellask";
    out.kind = message_kind::input;
  } else if (m.role == "user" && m.origin == "reply") {
    msg.sender_role = "ai";
    msg.sender_id = json_string_or(ev.payload, "fromMemberId");
    meta["origin"] = "reply";
    meta["fromDialogId"] = json_string_or(ev.payload, "fromDialogId");
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
    if (const auto* attachment = json_object_at(ev.payload, "attachment")) media_message(*attachment, m.content, msg);
    const auto* responder = ev.payload.if_contains("responder");
    out.to_human = responder != nullptr && responder->is_string() && responder->get_string().empty();
    if (!out.to_human && responder != nullptr && responder->is_string()) meta["responder"] = responder->get_string();
  } else if (m.role == "assistant") {
    msg.sender_role = "ai";
    msg.sender_id = m.speaker.empty() ? row.member_id : m.speaker;
    meta["genseq"] = m.genseq;
    if (!m.thinking.empty()) meta["thinking"] = m.thinking;
    if (m.interrupted) meta["interrupted"] = true;
    if (!m.tool_calls_json.empty()) {
      msg.content_type = "tool_input";
      if (const auto* calls = json_array_at(ev.payload, "toolCalls")) meta["toolCalls"] = *calls;
    }
    const bool final_saying = m.tool_calls_json.empty() && !m.interrupted && !json_bool_or(ev.payload, "inputArrived");
    out.kind = final_saying ? message_kind::answer : message_kind::working;
  } else if (ev.type == event_type::question_answered) {
    // The human's answer to an askHuman question.
    msg.sender_role = "human";
    meta["questionId"] = json_string_or(ev.payload, "questionId");
    meta["callId"] = m.tool_call_id;
    out.kind = message_kind::input;
  } else {  // a tool's output, relayed by the system
    msg.sender_role = "system";
    msg.content_type = "tool_output";
    meta["callId"] = m.tool_call_id;
    meta["name"] = m.tool_name;
    meta["ok"] = m.ok;
    out.notes = "result of " + m.tool_name;
    if (ev.type == event_type::reply_received) meta["fromDialogId"] = json_string_or(ev.payload, "fromDialogId");
  }
  msg.metadata = metadata_text(meta);
  return out;
}

// askHuman's question is the AI speaking to the human: a message of its own.
classified question_message(const event& ev, const dialog_row& row) {
  classified out;
  out.kind = message_kind::question;
  out.msg.sender_role = "ai";
  out.msg.sender_id = row.member_id;
  out.msg.content = json_string_or(ev.payload, "tellaskContent");
  out.msg.content_type = "text";
  out.msg.metadata = metadata_text({{"course", row.course},
                                    {"questionId", json_string_or(ev.payload, "questionId")},
                                    {"callId", json_string_or(ev.payload, "callId")}});
  return out;
}

class turn_folder {
 public:
  turn_folder(const event& ev, records_cursor& cursor, records_step& out) : ev_(ev), c_(cursor), out_(out) {}

  // Closes the open turn as unresponded when its window passed before `now`.
  void expire_before(std::int64_t now) {
    if (!c_.turn_id.empty() && now > c_.turn_started_ms + c_.window_ms) close_unresponded();
  }

  void close_unresponded() {
    record_turn t = open_turn_row();
    t.turn_type = "unresponded_turn";
    t.status = "unresponded";
    t.closed_at = c_.turn_started_ms + c_.window_ms;
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
  void open_written_turn(const boost::json::object& p) {
    expire_before(ev_.ts_ms);
    if (!c_.turn_id.empty() || c_.session_id.empty() || json_string_or(p, "sessionId") != c_.session_id) return;
    open_turn(json_string_or(p, "initiatorRole"), json_string_or(p, "responderRole"), json_string_or(p, "turnId"));
    c_.session_last_ms = std::max(c_.session_last_ms, ev_.ts_ms);
  }

  void close_written_turn(const boost::json::object& p) {
    expire_before(ev_.ts_ms);
    if (c_.turn_id.empty() || json_string_or(p, "turnId") != c_.turn_id) return;
    if (json_string_or(p, "status") == "unresponded") {
      record_turn t = open_turn_row();
      t.turn_type = "unresponded_turn";
      t.status = "unresponded";
      t.closed_at = ev_.ts_ms;
      t.metadata = metadata_text({{"openedAs", c_.turn_type}, {"closedBy", "api"}});
      out_.closed_turns.push_back(std::move(t));
      c_.turn_id.clear();
    } else {
      close_responded("");
    }
    c_.session_last_ms = std::max(c_.session_last_ms, ev_.ts_ms);
  }

  void open_written_session(const boost::json::object& p) {
    expire_before(ev_.ts_ms);
    if (!c_.turn_id.empty()) return;  // a turn never spans two sessions
    record_session s;
    s.id = json_string_or(p, "sessionId");
    s.session_type = json_string_or(p, "sessionType", "dialogue");
    s.description = json_string_or(p, "description");
    s.created_by = json_string_or(p, "createdBy", "human");
    s.trigger_source = json_string_or(p, "triggerSource");
    s.goal = json_string_or(p, "goal");
    s.ai_mood_state = json_string_or(p, "aiMoodState");
    const auto* meta = json_object_at(p, "metadata");
    s.metadata = meta != nullptr ? metadata_text(*meta) : "{}";
    end_current_session(ev_.ts_ms);
    start_session(std::move(s), ev_.ts_ms);
  }

  void close_written_session(const boost::json::object& p) {
    expire_before(ev_.ts_ms);
    if (!c_.turn_id.empty() || c_.session_id.empty() || json_string_or(p, "sessionId") != c_.session_id) return;
    end_current_session(ev_.ts_ms, json_string_or(p, "summary"));
    c_.session_id.clear();
  }

  // `sessionId` empty: the current session (the engine's own reflection dialogs do not know it).
  void place_introspection(const boost::json::object& p) {
    const std::string session = json_string_or(p, "sessionId");
    if (c_.session_id.empty() || c_.session_type != "self_reflection" ||
        (!session.empty() && session != c_.session_id)) {
      return;
    }
    record_introspection turn;
    turn.id = json_string_or(p, "turnId");
    turn.session_id = c_.session_id;
    turn.dialogue_id = c_.dialogue_id;
    turn.purpose = json_string_or(p, "purpose");
    turn.input_context = json_string_or(p, "inputContext");
    turn.tool_used = json_string_or(p, "toolUsed");
    turn.tool_input = json_string_or(p, "toolInput");
    turn.tool_output = json_string_or(p, "toolOutput");
    turn.mood_shift = json_string_or(p, "moodShift");
    turn.value_impact = json_string_or(p, "valueImpact");
    turn.started_at = json_int_or(p, "startedAt", ev_.ts_ms);
    turn.duration_ms = json_int_or(p, "durationMs", 0);
    if (const auto entry = json_string_or(p, "generatedEntry"); !entry.empty()) {
      record_memory_entry memory;
      memory.id = json_string_or(p, "memoryId");
      memory.dialogue_id = c_.dialogue_id;
      memory.ai_id = json_string_or(p, "aiId");
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
  void place_written(const boost::json::object& p) {
    expire_before(ev_.ts_ms);
    if (c_.turn_id.empty() || json_string_or(p, "turnId") != c_.turn_id) return;
    record_message msg;
    msg.id = json_string_or(p, "messageId");
    msg.dialogue_id = c_.dialogue_id;
    msg.session_id = c_.session_id;
    msg.turn_id = c_.turn_id;
    msg.sender_role = json_string_or(p, "senderRole");
    msg.sender_id = json_string_or(p, "senderId");
    msg.content = json_string_or(p, "content");
    msg.content_type = json_string_or(p, "contentType", "text");
    if (const auto* content_meta = json_object_at(p, "contentMeta")) msg.content_meta = metadata_text(*content_meta);
    boost::json::object meta;
    if (const auto* given = json_object_at(p, "metadata")) meta = *given;
    if (const auto reply_to = json_string_or(p, "replyTo"); !reply_to.empty()) meta["reply_to"] = reply_to;
    msg.metadata = metadata_text(meta);
    msg.created_at = ev_.ts_ms;
    msg.dialog_id = ev_.dialog_id;
    msg.seq = ev_.seq;
    c_.session_last_ms = std::max(c_.session_last_ms, ev_.ts_ms);
    const bool answers = msg.sender_role == c_.turn_responder;
    const std::string id = msg.id;
    note_system_utterance(msg, json_string_or(p, "target", "all"), json_string_or(p, "notes"));
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
    t.window_ms = c_.window_ms;
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

  void open_turn(const std::string& initiator, const std::string& responder, std::string id = {}) {
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
  d.is_active = row.status == "running" && !row.dead;
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
  const std::uint64_t seed_a = fnv1a(name, fnv1a(":", fnv1a(kind, 0xcbf29ce484222325ULL)));
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

bool records_event::is_write(std::string_view type) noexcept {
  return type == session_opened || type == session_closed || type == turn_opened || type == turn_closed ||
         type == message_recorded || type == introspection_recorded || type == memory_linked;
}

bool touches_records(const event& ev, const projection_step& step) noexcept {
  return step.new_message.has_value() || ev.type == event_type::dialog_created ||
         ev.type == event_type::question_asked || ev.type == event_type::status_changed ||
         ev.type == event_type::declared_dead || ev.type == records_event::turn_window_expired ||
         records_event::is_write(ev.type);
}

records_step apply_records(const event& ev, const dialog_row& row_after, const projection_step& step,
                           records_cursor& cursor) {
  records_step out;
  if (ev.type == event_type::dialog_created) {
    cursor = records_cursor{};
    cursor.dialog_id = ev.dialog_id;
    cursor.dialogue_id = record_uuid("dialogue", ev.dialog_id);
    cursor.counterpart = json_string_or(ev.payload, "kind", "root") == "root" ? "human" : "ai";
    // Recorded in the log, so a rebuild uses the windows the dialog was created with.
    cursor.window_ms = std::max<std::int64_t>(1, json_int_or(ev.payload, "turnWindowMs", kDefaultTurnWindowMs));
    cursor.gap_ms = std::max<std::int64_t>(1, json_int_or(ev.payload, "sessionGapMs", kDefaultSessionGapMs));
    if (const auto* reflection = json_object_at(ev.payload, "reflection")) {
      cursor.reflection_trigger = json_string_or(*reflection, "trigger", "task_reflection");
      cursor.reflection_goal = json_string_or(*reflection, "goal");
      cursor.reflection_mood = json_string_or(*reflection, "moodState");
    }
    out.dialogue = dialogue_from_created(ev);
    out.new_dialogue = true;
    return out;
  }
  if (cursor.dialogue_id.empty()) return out;  // a dialog older than the records: nothing to fold into
  turn_folder folder(ev, cursor, out);
  if (ev.type == records_event::turn_window_expired) {
    if (json_string_or(ev.payload, "turnId") == cursor.turn_id) folder.expire_before(ev.ts_ms + 1);
  } else if (ev.type == records_event::session_opened) {
    folder.open_written_session(ev.payload);
  } else if (ev.type == records_event::session_closed) {
    folder.close_written_session(ev.payload);
  } else if (ev.type == records_event::turn_opened) {
    folder.open_written_turn(ev.payload);
  } else if (ev.type == records_event::turn_closed) {
    folder.close_written_turn(ev.payload);
  } else if (ev.type == records_event::message_recorded) {
    folder.place_written(ev.payload);
  } else if (ev.type == records_event::introspection_recorded) {
    folder.place_introspection(ev.payload);
  } else if (ev.type == records_event::memory_linked) {
    out.links.push_back(
        {json_string_or(ev.payload, "turnId"), json_string_or(ev.payload, "memoryId"), "related", ev.ts_ms});
  } else if (ev.type == event_type::question_asked) {
    folder.place(question_message(ev, row_after));
  } else if (step.new_message) {
    folder.place(classify(ev, row_after, *step.new_message));
  }
  // last_activity_at is the newest message; 0 leaves it as it was (the writer keeps the maximum).
  if (out.message || ev.type == event_type::status_changed || ev.type == event_type::declared_dead) {
    out.dialogue = activity_update(cursor, row_after, out.message ? ev.ts_ms : 0);
  }
  return out;
}

}  // namespace parley
