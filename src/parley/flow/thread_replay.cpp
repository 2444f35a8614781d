#include "parley/flow/thread_replay.hpp"

#include <string>
#include <variant>

#include "parley/flow/flow_events.hpp"

namespace parley::flow {

bool is_flow_dialog(const std::vector<event>& events) {
  return events.size() >= 2 && events.front().is<events::dialog_created>() && events[1].is<events::flow_thread_saved>();
}

result<flow_thread> replay_flow_thread(std::string_view dialog_id, const std::vector<event>& events) {
  const std::string id(dialog_id);
  if (events.empty()) return make_error(errc::not_found, "no flow thread " + id);
  flow_thread main;
  bool saved = false;
  for (const auto& ev : events) {
    auto typed = flow_event_from(ev.payload);
    if (!typed) {
      if (typed.err().code == errc::not_found) continue;  // dialog_created and others
      return make_error(typed.err().code,
                        "thread " + id + " event " + std::to_string(ev.seq) + ": " + typed.err().message);
    }
    if (!saved && !std::holds_alternative<flow_thread_saved>(*typed)) {
      return make_error(errc::corrupt, "thread " + id + " event " + std::to_string(ev.seq) + " (" +
                                           std::string(ev.type()) + ") comes before the thread was first saved");
    }
    saved = true;
    auto applied = apply_flow_event(*typed, main);
    if (!applied) {
      return make_error(errc::corrupt,
                        "thread " + id + " event " + std::to_string(ev.seq) + ": " + applied.err().message);
    }
  }
  if (!saved) return make_error(errc::not_found, "dialog " + id + " is not a flow thread");
  return main;
}

bool is_completed(const thread_settings& settings) {
  return settings.phase == kCompletedPhase ||
         (settings.phase_update_suggestion && settings.phase_update_suggestion->phase == kCompletedPhase);
}

}  // namespace parley::flow
