// The records reducer: folds one logged event into seed 002's Message/Turn/Session/Dialogue rows.
// A pure function of the log (times are the events' own), so the live store and a rebuild agree.
//
// Rules (docs/records.md has the full table):
// - Every message-producing event becomes one `message` in exactly one turn and one session.
// - A turn is opened by a message when none is open; it waits for its responder. The responder's
//   answer closes it `responded`. Input that answers a turn waiting for it (a human's reply to an
//   AI's question, a tellasker's follow-up) closes that turn and opens the next one.
// - A pending turn whose window has passed is closed `unresponded` (turn type `unresponded_turn`,
//   closed_at = started_at + window) by the next event of its dialog or by `turn_window_expired`.
// - A new turn that starts more than the session gap after the session's last activity starts a
//   new session.
#pragma once

#include <string>
#include <string_view>

#include "parley/model/conversation_records.hpp"
#include "parley/model/event.hpp"
#include "parley/model/projection.hpp"
#include "parley/model/record_uuid.hpp"
#include "parley/model/records.hpp"

namespace parley {

// The wire names of the records' events (payloads in model/events/records_events.hpp).
namespace records_event {
inline constexpr std::string_view turn_window_expired = events::turn_window_expired::kType;
inline constexpr std::string_view session_opened = events::record_session_opened::kType;
inline constexpr std::string_view session_closed = events::record_session_closed::kType;
inline constexpr std::string_view turn_opened = events::record_turn_opened::kType;
inline constexpr std::string_view turn_closed = events::record_turn_closed::kType;
inline constexpr std::string_view message_recorded = events::record_message::kType;
inline constexpr std::string_view introspection_recorded = events::record_introspection::kType;
inline constexpr std::string_view memory_linked = events::record_memory_link::kType;
}  // namespace records_event

// `row_after` is the dialog's projection row after `ev`, `step` what apply_event made of it, and
// `cursor` the dialog's cursor (empty for dialog_created). Events that touch no record return an
// empty step and leave the cursor unchanged.
records_step apply_records(const event& ev, const dialog_row& row_after, const projection_step& step,
                           records_cursor& cursor);

// record_uuid, the records' ids, is declared in model/record_uuid.hpp.

// The id of the records message `ev` makes (when it makes one): for writers that refer to it later,
// such as the analyst (record_message_analyzed).
std::string record_message_id(const event& ev);

// True when `ev` can change the records (so the store loads the cursor only for those).
bool touches_records(const event& ev, const projection_step& step) noexcept;

}  // namespace parley
