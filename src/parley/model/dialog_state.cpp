#include "parley/model/dialog_state.hpp"

#include <algorithm>

namespace parley {
namespace {

namespace ev_t = events;

template <typename T, typename Pred>
void erase_first(std::vector<T>& items, Pred pred) {
  const auto it = std::find_if(items.begin(), items.end(), pred);
  if (it != items.end()) items.erase(it);
}

bool in_range(std::int64_t index, const std::vector<std::string>& items) {
  return index >= 0 && index < static_cast<std::int64_t>(items.size());
}

// One function per event type that changes the state; every other type changes nothing.
class state_folder {
 public:
  state_folder(const event& ev, dialog_state& state) : ev_(ev), state_(state) {}

  void operator()(const ev_t::generation_started&) {
    state_.input_during_generation = false;
    clear_partial();
  }
  void operator()(const ev_t::generation_discarded&) { clear_partial(); }
  void operator()(const ev_t::prompt_logged& p) { state_.prompt_version = p.version; }
  void operator()(const ev_t::generation_progress& p) {
    state_.partial_thinking = p.thinking;
    state_.partial_saying = p.saying;
  }

  void operator()(const ev_t::user_message& p) {
    state_.input_during_generation = true;
    if (p.responder && !p.responder->empty()) state_.responder = *p.responder;
    if (const auto& a = p.assigned) {
      state_.assigned = assignment{a->caller_id,    a->caller_member_id, a->call_id, a->call_name,
                                   a->session_slug, a->tellask_content,  false};
    }
  }

  void operator()(const ev_t::generation_finished& p) {
    clear_partial();
    const bool final_saying = p.tool_calls.empty() && !p.interrupted;
    // A saying written before newer input arrived is not the reply to it.
    if (!final_saying || p.input_arrived) return;
    // A final saying answers the tellaskBacks this dialog owes (answer_delivered records each);
    // only when it owes none is it the reply to its own assignment.
    if (state_.owed.empty() && state_.assigned && !state_.assigned->replied) state_.assigned->replied = true;
  }

  void operator()(const ev_t::tellask_called& p) { state_.awaited.push_back({p.call_id, p.subdialog_id, p.name}); }

  void operator()(const ev_t::reply_received& p) {
    state_.input_during_generation = true;
    if (p.awaited) {
      erase_first(state_.awaited, [&](const awaited_reply& a) {
        return a.dialog_id == p.from_dialog_id && (p.call_id.empty() || a.call_id == p.call_id);
      });
    }
    if (p.kind == ev_t::reply_kind::tellask_back) {
      state_.owed.push_back({p.from_dialog_id, p.back_call_id.value_or("")});
    }
  }

  void operator()(const ev_t::answer_delivered& p) {
    erase_first(state_.owed, [&](const owed_answer& o) { return o.dialog_id == p.to_dialog_id; });
    state_.awaited.push_back({"", p.to_dialog_id, ev_t::call_kind::tellask_back});
  }

  void operator()(const ev_t::question_asked& p) {
    state_.questions.push_back(
        {p.question_id, p.mention_list, p.tellask_content, p.asked_at, p.call_id, p.course, ev_.seq});
  }

  void operator()(const ev_t::question_answered& p) {
    state_.input_during_generation = true;
    erase_first(state_.questions, [&](const human_question& q) { return q.id == p.question_id; });
    state_.answered_questions.push_back(p.question_id);
  }

  void operator()(const ev_t::course_started&) {
    // clear_mind: the Q4H index and every wait of the old course go; reminders and the
    // assignment stay. A subdialog that still replies later arrives as a plain message.
    state_.questions.clear();
    state_.answered_questions.clear();
    state_.awaited.clear();
    state_.health = {};  // a new course starts with an almost empty context
  }

  void operator()(const ev_t::context_health& p) {
    state_.health.level = p.level;
    state_.health.prompt_tokens = p.prompt_tokens;
    state_.health.context_window = p.context_window;
    state_.health.critical_rounds = p.level == ev_t::health_level::critical ? state_.health.critical_rounds + 1 : 0;
  }

  void operator()(const ev_t::declared_dead&) {
    state_.awaited.clear();
    state_.questions.clear();
  }

  void operator()(const ev_t::reminder_added& p) { state_.reminders.push_back(p.content); }
  void operator()(const ev_t::reminder_updated& p) {
    if (in_range(p.index, state_.reminders)) state_.reminders[static_cast<std::size_t>(p.index)] = p.content;
  }
  void operator()(const ev_t::reminder_deleted& p) {
    if (in_range(p.index, state_.reminders)) state_.reminders.erase(state_.reminders.begin() + p.index);
  }

  template <class Other>
  void operator()(const Other&) {}

 private:
  void clear_partial() {
    state_.partial_thinking.clear();
    state_.partial_saying.clear();
  }

  const event& ev_;
  dialog_state& state_;
};

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
  state_folder fold(ev, state);
  std::visit(fold, ev.payload);
}

}  // namespace parley
