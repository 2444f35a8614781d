// The payload of an event: one struct per event type, held in a variant. Consumers `std::visit` it
// (with `overloaded`), so a new event type shows up at every consumer that must handle it.
// `unknown_event` keeps docs/events.md's promise that readers ignore types they do not know: an
// older binary reads a newer log, and its unknown events change nothing but the dialog's last_seq.
#pragma once

#include <boost/json/object.hpp>

#include <string>
#include <string_view>
#include <variant>

#include "parley/model/events/dialog_events.hpp"
#include "parley/model/events/flow_events.hpp"
#include "parley/model/events/message_events.hpp"
#include "parley/model/events/records_events.hpp"
#include "parley/model/events/replay_events.hpp"
#include "parley/model/events/tellask_events.hpp"

namespace parley::events {

// An event whose type this binary does not know, kept as it was read.
struct unknown_event {
  std::string type;
  boost::json::object raw;

  bool operator==(const unknown_event&) const = default;
};

using event_payload =
    std::variant<dialog_created, user_message, generation_started, generation_finished, generation_progress,
                 prompt_logged, generation_discarded, tool_result, drive_failed, status_changed, course_started,
                 tellask_called, reply_received, answer_delivered, question_asked, question_answered, reminder_added,
                 reminder_updated, reminder_deleted, taskdoc_changed, context_health, declared_dead, drive_resumed,
                 event_quarantined, turn_window_expired, record_session_opened, record_session_closed,
                 record_turn_opened, record_turn_closed, record_message, record_introspection, record_memory_link,
                 record_message_analyzed, record_message_embedded, flow_thread_saved, flow_thread_appended,
                 flow_message_updated, flow_settings_updated, dialog_forked, title_changed, replay_started,
                 call_replayed, unknown_event>;

// The wire name of the payload's type.
inline std::string_view type_of(const event_payload& payload) noexcept {
  return std::visit(
      [](const auto& p) -> std::string_view {
        if constexpr (std::is_same_v<std::decay_t<decltype(p)>, unknown_event>) {
          return p.type;
        } else {
          return std::decay_t<decltype(p)>::kType;
        }
      },
      payload);
}

// True for seed 002's records write API (the server's POST /api/records/...).
inline bool is_records_write(const event_payload& payload) noexcept {
  return std::holds_alternative<record_session_opened>(payload) ||
         std::holds_alternative<record_session_closed>(payload) ||
         std::holds_alternative<record_turn_opened>(payload) || std::holds_alternative<record_turn_closed>(payload) ||
         std::holds_alternative<record_message>(payload) || std::holds_alternative<record_introspection>(payload) ||
         std::holds_alternative<record_memory_link>(payload);
}

// True for what the analyst and the embedder write about a message (engine/message_analyst.hpp).
inline bool is_message_analysis(const event_payload& payload) noexcept {
  return std::holds_alternative<record_message_analyzed>(payload) ||
         std::holds_alternative<record_message_embedded>(payload);
}

// std::visit with one lambda per alternative.
template <class... Fs>
struct overloaded : Fs... {
  using Fs::operator()...;
};
template <class... Fs>
overloaded(Fs...) -> overloaded<Fs...>;

}  // namespace parley::events
