// The event: one append-only record of the log, the source of truth for every dialog.
// Its payload is typed (model/events/): one struct per event type in a variant, turned into the
// wire object and back only by the codec (model/event_codec.hpp). Event type names and payload
// field names are wire names: once shipped they never change (docs/events.md, docs/events.json).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "parley/model/events/event_payload.hpp"

namespace parley {

struct event {
  std::string dialog_id;
  std::string root_id;
  std::int64_t seq = 0;  // per-dialog, strictly increasing from 1, assigned by the dialog's owner
  events::event_payload payload;
  std::int64_t ts_ms = 0;  // UTC, milliseconds since the Unix epoch

  std::string_view type() const noexcept { return events::type_of(payload); }
  template <class T>
  bool is() const noexcept {
    return std::holds_alternative<T>(payload);
  }
  // The payload as `T`, or null when the event is of another type.
  template <class T>
  const T* as() const noexcept {
    return std::get_if<T>(&payload);
  }
};

// The wire names, for code that names a type without its payload (tests, filters, `parley check`).
namespace event_type {
inline constexpr std::string_view dialog_created = events::dialog_created::kType;
inline constexpr std::string_view user_message = events::user_message::kType;
inline constexpr std::string_view generation_started = events::generation_started::kType;
inline constexpr std::string_view generation_finished = events::generation_finished::kType;
inline constexpr std::string_view generation_progress = events::generation_progress::kType;
inline constexpr std::string_view generation_discarded = events::generation_discarded::kType;
inline constexpr std::string_view tool_result = events::tool_result::kType;
inline constexpr std::string_view drive_failed = events::drive_failed::kType;
inline constexpr std::string_view status_changed = events::status_changed::kType;
inline constexpr std::string_view course_started = events::course_started::kType;
inline constexpr std::string_view tellask_called = events::tellask_called::kType;
inline constexpr std::string_view reply_received = events::reply_received::kType;
inline constexpr std::string_view answer_delivered = events::answer_delivered::kType;
inline constexpr std::string_view question_asked = events::question_asked::kType;
inline constexpr std::string_view question_answered = events::question_answered::kType;
inline constexpr std::string_view reminder_added = events::reminder_added::kType;
inline constexpr std::string_view reminder_updated = events::reminder_updated::kType;
inline constexpr std::string_view reminder_deleted = events::reminder_deleted::kType;
inline constexpr std::string_view taskdoc_changed = events::taskdoc_changed::kType;
inline constexpr std::string_view context_health = events::context_health::kType;
inline constexpr std::string_view declared_dead = events::declared_dead::kType;
inline constexpr std::string_view drive_resumed = events::drive_resumed::kType;
inline constexpr std::string_view event_quarantined = events::event_quarantined::kType;
inline constexpr std::string_view flow_thread_saved = events::flow_thread_saved::kType;
inline constexpr std::string_view flow_thread_appended = events::flow_thread_appended::kType;
inline constexpr std::string_view flow_message_updated = events::flow_message_updated::kType;
inline constexpr std::string_view flow_settings_updated = events::flow_settings_updated::kType;
inline constexpr std::string_view dialog_forked = events::dialog_forked::kType;
inline constexpr std::string_view title_changed = events::title_changed::kType;
inline constexpr std::string_view replay_started = events::replay_started::kType;
inline constexpr std::string_view call_replayed = events::call_replayed::kType;
}  // namespace event_type

// True for the first event of a dialog's own log: its creation, or its fork from another dialog.
inline bool opens_dialog(const event& ev) noexcept {
  return ev.is<events::dialog_created>() || ev.is<events::dialog_forked>();
}

// The client's message a flow event took in (events::flow_input), or null: the other inputs a msgId
// names are user_message and question_answered (store::find_input, `parley check`).
inline const events::flow_input* flow_input_of(const event& ev) noexcept {
  if (const auto* saved = ev.as<events::flow_thread_saved>(); saved != nullptr && saved->input) return &*saved->input;
  if (const auto* appended = ev.as<events::flow_thread_appended>(); appended != nullptr && appended->input) {
    return &*appended->input;
  }
  return nullptr;
}

}  // namespace parley
