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
#include "parley/model/records.hpp"

namespace parley {

namespace records_event {
// {turnId} — a turn's response window passed with no response (written by the window timer)
inline constexpr std::string_view turn_window_expired = "turn_window_expired";
// Seed 002's write API (docs/records.md "Writing records"). The server checks each against the
// records before appending it; the reducer applies only what still fits when it folds the event
// (a write that no longer fits changes no record).
// {sessionId, sessionType, description, createdBy, metadata} — ends the current session, opens this one
inline constexpr std::string_view session_opened = "record_session_opened";
// {sessionId} — ends the current session; the next turn opens a new one
inline constexpr std::string_view session_closed = "record_session_closed";
// {turnId, sessionId, initiatorRole, responderRole} — a turn in the current session
inline constexpr std::string_view turn_opened = "record_turn_opened";
// {turnId, status} — closes the pending turn `responded` or `unresponded`
inline constexpr std::string_view turn_closed = "record_turn_closed";
// {messageId, turnId, senderRole, senderId, content, contentType, metadata, replyTo} — a message in
// the pending turn; one from the turn's responder answers it
inline constexpr std::string_view message_recorded = "record_message";
// {turnId, sessionId, purpose, inputContext, toolUsed, toolInput, toolOutput, generatedEntry,
//  memoryId, moodShift, valueImpact, startedAt, durationMs, aiId} — a step of the current
// self-reflection session; a non-empty generatedEntry becomes memory entry `memoryId`
inline constexpr std::string_view introspection_recorded = "record_introspection";
// {turnId, memoryId} — a turn refers to a memory entry
inline constexpr std::string_view memory_linked = "record_memory_link";

bool is_write(std::string_view type) noexcept;
}  // namespace records_event

// `row_after` is the dialog's projection row after `ev`, `step` what apply_event made of it, and
// `cursor` the dialog's cursor (empty for dialog_created). Events that touch no record return an
// empty step and leave the cursor unchanged.
records_step apply_records(const event& ev, const dialog_row& row_after, const projection_step& step,
                           records_cursor& cursor);

// A deterministic RFC 9562 version-8 UUID named by `kind` and `name`: rebuilding the records
// from the log gives every row the id it had. Ids of records made by an event begin with the
// event's time, and a dialogue's with its dialog's (Parley's dialog ids begin with it), so ids made
// later sort later: each index on an id grows at its end instead of taking every insert on a
// random page, which at a million messages made every commit rewrite pages all over the file.
std::string record_uuid(std::string_view kind, std::string_view name);
std::string record_uuid(std::string_view kind, std::string_view name, std::int64_t time_ms);

// True when `ev` can change the records (so the store loads the cursor only for those).
bool touches_records(const event& ev, const projection_step& step) noexcept;

}  // namespace parley
