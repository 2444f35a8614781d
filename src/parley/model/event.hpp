// The event: one append-only record of the log, the source of truth for every dialog.
// Event type names and payload field names are wire names: once shipped they never change.
#pragma once

#include <boost/json/object.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace parley {

struct event {
  std::string dialog_id;
  std::string root_id;
  std::int64_t seq = 0;  // per-dialog, strictly increasing from 1, assigned by the dialog's owner
  std::string type;      // one of event_type::*
  boost::json::object payload;
  std::int64_t ts_ms = 0;  // UTC, milliseconds since the Unix epoch
};

// Payload fields are listed beside each type.
namespace event_type {
// {memberId, kind: "root"|"sub", parentId?, taskDocPath?, title?, depth}
inline constexpr std::string_view dialog_created = "dialog_created";
// {course, content, msgId, origin: "user"|"answer"|"system"|"tellask"|"reply"}
inline constexpr std::string_view user_message = "user_message";
// {course, genseq, round}
inline constexpr std::string_view generation_started = "generation_started";
// {course, genseq, thinking, saying, toolCalls: [{id, name, arguments}], finishReason,
//  usage: {inputTokens, outputTokens}, interrupted}
inline constexpr std::string_view generation_finished = "generation_finished";
// {course, genseq, callId, name, ok, content}
inline constexpr std::string_view tool_result = "tool_result";
// {course, genseq, message} — a drive ended in a runtime failure; the dialog can be resumed
inline constexpr std::string_view drive_failed = "drive_failed";
// {status: "running"|"completed"|"archived"}
inline constexpr std::string_view status_changed = "status_changed";
// {course, prompt} — a new course begins (clear_mind or context-health remediation)
inline constexpr std::string_view course_started = "course_started";
}  // namespace event_type

}  // namespace parley
