#include "parley/model/dialog_state.hpp"

#include <algorithm>

#include "parley/core/json.hpp"

namespace parley {
namespace {

template <typename T, typename Pred>
void erase_first(std::vector<T>& items, Pred pred) {
  const auto it = std::find_if(items.begin(), items.end(), pred);
  if (it != items.end()) items.erase(it);
}

void apply_reminder(const event& ev, dialog_state& state) {
  const auto index = json_int_or(ev.payload, "index", -1);
  const bool in_range = index >= 0 && index < static_cast<std::int64_t>(state.reminders.size());
  if (ev.type == event_type::reminder_added) {
    state.reminders.push_back(json_string_or(ev.payload, "content"));
  } else if (ev.type == event_type::reminder_updated && in_range) {
    state.reminders[static_cast<std::size_t>(index)] = json_string_or(ev.payload, "content");
  } else if (ev.type == event_type::reminder_deleted && in_range) {
    state.reminders.erase(state.reminders.begin() + index);
  }
}

void apply_generation_finished(const event& ev, dialog_state& state) {
  const auto* calls = json_array_at(ev.payload, "toolCalls");
  const bool final_saying = (calls == nullptr || calls->empty()) && !json_bool_or(ev.payload, "interrupted");
  // A saying written before newer input arrived is not the reply to it.
  if (!final_saying || json_bool_or(ev.payload, "inputArrived")) return;
  // A final saying answers the tellaskBacks this dialog owes (answer_delivered records each); only
  // when it owes none is it the reply to its own assignment.
  if (state.owed.empty() && state.assigned && !state.assigned->replied) state.assigned->replied = true;
}

}  // namespace

const human_question* dialog_state::find_question(std::string_view id) const {
  for (const auto& q : questions) {
    if (q.id == id) return &q;
  }
  return nullptr;
}

bool dialog_state::awaits_call(std::string_view call_id) const {
  return std::any_of(awaited.begin(), awaited.end(), [&](const awaited_reply& a) { return a.call_id == call_id; });
}

void apply_state_event(const event& ev, dialog_state& state) {
  const auto& p = ev.payload;
  if (ev.type == event_type::generation_started) state.input_during_generation = false;
  if (ev.type == event_type::generation_started || ev.type == event_type::generation_finished ||
      ev.type == event_type::generation_discarded) {
    state.partial_thinking.clear();
    state.partial_saying.clear();
  } else if (ev.type == event_type::generation_progress) {
    state.partial_thinking = json_string_or(p, "thinking");
    state.partial_saying = json_string_or(p, "saying");
  } else if (ev.type == event_type::user_message || ev.type == event_type::reply_received ||
             ev.type == event_type::question_answered) {
    state.input_during_generation = true;
  }
  if (ev.type == event_type::user_message) {
    if (const auto responder = json_string_or(p, "responder"); !responder.empty()) state.responder = responder;
    if (const auto* a = json_object_at(p, "assignment")) {
      state.assigned = assignment{json_string_or(*a, "callerId"),
                                  json_string_or(*a, "callerMemberId"),
                                  json_string_or(*a, "callId"),
                                  json_string_or(*a, "callName"),
                                  json_string_or(*a, "sessionSlug"),
                                  json_string_or(*a, "tellaskContent"),
                                  false};
    }
  } else if (ev.type == event_type::generation_finished) {
    apply_generation_finished(ev, state);
  } else if (ev.type == event_type::tellask_called) {
    state.awaited.push_back({json_string_or(p, "callId"), json_string_or(p, "subdialogId"), json_string_or(p, "name")});
  } else if (ev.type == event_type::reply_received) {
    const std::string from = json_string_or(p, "fromDialogId");
    const std::string call_id = json_string_or(p, "callId");
    if (json_bool_or(p, "awaited")) {
      erase_first(state.awaited, [&](const awaited_reply& a) {
        return a.dialog_id == from && (call_id.empty() || a.call_id == call_id);
      });
    }
    if (json_string_or(p, "kind") == "tellaskBack") state.owed.push_back({from, json_string_or(p, "backCallId")});
  } else if (ev.type == event_type::answer_delivered) {
    const std::string to = json_string_or(p, "toDialogId");
    erase_first(state.owed, [&](const owed_answer& o) { return o.dialog_id == to; });
    state.awaited.push_back({"", to, "tellaskBack"});
  } else if (ev.type == event_type::question_asked) {
    state.questions.push_back({json_string_or(p, "questionId"), json_string_or(p, "mentionList"),
                               json_string_or(p, "tellaskContent"), json_string_or(p, "askedAt"),
                               json_string_or(p, "callId"), json_int_or(p, "course", 1), ev.seq});
  } else if (ev.type == event_type::question_answered) {
    const std::string id = json_string_or(p, "questionId");
    erase_first(state.questions, [&](const human_question& q) { return q.id == id; });
    state.answered_questions.push_back(id);
  } else if (ev.type == event_type::course_started) {
    // clear_mind: the Q4H index and every wait of the old course go; reminders and the
    // assignment stay. A subdialog that still replies later arrives as a plain message.
    state.questions.clear();
    state.answered_questions.clear();
    state.awaited.clear();
    state.health = {};  // a new course starts with an almost empty context
  } else if (ev.type == event_type::context_health) {
    state.health.level = json_string_or(p, "level");
    state.health.prompt_tokens = json_int_or(p, "promptTokens");
    state.health.context_window = json_int_or(p, "contextWindow");
    state.health.critical_rounds = state.health.level == "critical" ? state.health.critical_rounds + 1 : 0;
  } else if (ev.type == event_type::declared_dead) {
    state.awaited.clear();
    state.questions.clear();
  } else {
    apply_reminder(ev, state);
  }
}

}  // namespace parley
