// Seed 002's write rules ("对话写入接口标准定义"): which writes of the records write API the records
// as they are allow — a message belongs to an open turn, a turn to the dialogue's current session,
// a turn never spans two sessions. The server asks these under the dialog's lock, just before it
// appends the write; the records reducer (conversation_reducer.cpp) folds the same events and
// ignores a write that no longer fits, so the two cannot make different records.
//
// Also the vocabularies a write may use (the seed's and Parley's names for the same things) and
// how the seed's request words map to the records' own values.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "parley/core/result.hpp"
#include "parley/model/conversation_records.hpp"

namespace parley::records_rules {

inline constexpr std::array<std::string_view, 3> kRoles{"human", "ai", "system"};
// Parley's session types, then the seed's request words for them (interaction, reflection).
inline constexpr std::array<std::string_view, 4> kSessionTypes{"dialogue", "self_reflection", "interaction",
                                                               "reflection"};
inline constexpr std::array<std::string_view, 4> kTriggerSources{"schedule", "task_reflection", "human_guidance",
                                                                 "api"};
// Who started a session, in the seed's words (`triggered_by`).
inline constexpr std::array<std::string_view, 4> kTriggeredBy{"system", "human", "ai", "schedule"};
// How a turn may be closed: Parley's statuses, then the seed's outcomes (both unresponded).
inline constexpr std::array<std::string_view, 4> kTurnOutcomes{"responded", "unresponded", "expired", "ignored"};
inline constexpr std::array<std::string_view, 3> kClosedBy{"human", "ai", "system"};
// Why a session was closed (the seed's `reason`).
inline constexpr std::array<std::string_view, 3> kSessionCloseReasons{"timeout", "manual", "task_completed"};
inline constexpr std::array<std::string_view, 3> kUtteranceTargets{"human", "ai", "all"};
// Content types a client may write (image and audio with their content_meta).
inline constexpr std::array<std::string_view, 7> kWritableContentTypes{
    "text", "markdown", "prompt", "quote_reply", "tool_output", "image", "audio"};

// The records' session type for a request's word ("interaction" is a dialogue session).
std::string session_type_of(std::string_view requested);
// The status a turn closed with `outcome` gets: expired and ignored are unresponded turns.
std::string turn_status_of(std::string_view outcome);
// The seed's word for a turn's state: "open" while pending, else its outcome or status.
std::string seed_turn_status(const record_turn& turn);
// A self-reflection's trigger_source for the seed's `triggered_by`.
std::string trigger_source_of(std::string_view triggered_by);
// created_by for the seed's `triggered_by` (a schedule is the system's).
std::string created_by_of(std::string_view triggered_by);
// A turn's type follows from who opens it.
std::string_view turn_type_opened_by(std::string_view initiator);

// The dialogue's open turn as the rules see it.
struct open_turn {
  std::string turn_id;
  std::int64_t deadline_ms = 0;
};

// Opening a session (which ends the current one) while a turn waits would split that turn.
result<void> may_open_session(const std::optional<open_turn>& pending);
result<void> may_close_session(const record_session& session, const std::optional<open_turn>& pending);
result<void> may_open_turn(const record_session& session, const std::optional<open_turn>& pending);
// Closing a turn, or writing a message into it: it must be the dialogue's open turn, in its window.
result<void> may_write_to_turn(const record_turn& turn, const std::optional<open_turn>& pending, std::int64_t now_ms);
// Introspection turns belong to an open self-reflection session.
result<void> may_record_introspection(const record_session& session);

}  // namespace parley::records_rules
