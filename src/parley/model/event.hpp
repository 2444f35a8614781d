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
// {memberId, kind: "root"|"sub", parentId?, taskDocPath?, title?, depth,
//  callKind?: "tellask"|"tellaskSessionless"|"freshBootsReasoning", sessionSlug?,
//  humans?: [userId] (a root's people, its creator first), members?: [memberId] (a group's AIs;
//  memberId is then the default responder, "" when none answers unasked)}
inline constexpr std::string_view dialog_created = "dialog_created";
// {course, content, msgId, origin: "user"|"system"|"tellask"|"reply",
//  assignment?: {callerId, callerMemberId, callId, callName, sessionSlug, tellaskContent},
//  from?: the user who wrote it, responder?: the member who answers it ("" in a group: nobody),
//  attachment?: {uploadId, url, kind: "image"|"audio", mime, format, sizeKb, caption?,
//                transcription?, describedBy?: the member who wrote the caption/transcription}}
// A Tellask to a subdialog is a user message with origin "tellask" and the assignment from its
// current tellasker (seed 001 `assignmentFromSup`); replies route to that caller.
inline constexpr std::string_view user_message = "user_message";
// {course, genseq, round}
inline constexpr std::string_view generation_started = "generation_started";
// {course, genseq, thinking, saying, toolCalls: [{id, name, arguments}], finishReason, model?,
//  memberId? (in a group: who generated it),
//  usage: {inputTokens, outputTokens, cachedTokens?, reasoningTokens?}, interrupted,
//  inputArrived?: input came while it ran}
inline constexpr std::string_view generation_finished = "generation_finished";
// {course, genseq, thinking, saying} — what a long generation has streamed so far; a generation
// cut by a crash is closed with the last of these as its (interrupted) output
inline constexpr std::string_view generation_progress = "generation_progress";
// {course, genseq, reason} — the provider's connection broke mid-stream and the call starts again:
// what this generation streamed so far (and any generation_progress of it) is void
inline constexpr std::string_view generation_discarded = "generation_discarded";
// {course, genseq, callId, name, ok, content}
inline constexpr std::string_view tool_result = "tool_result";
// {course, message} — a drive ended in a runtime failure; the dialog can be resumed
inline constexpr std::string_view drive_failed = "drive_failed";
// {status: "running"|"completed"|"archived"}
inline constexpr std::string_view status_changed = "status_changed";
// {course, prompt} — a new course begins (clear_mind or context-health remediation)
inline constexpr std::string_view course_started = "course_started";

// Hierarchy (seed 001). On the caller: a Tellask call that waits for another dialog —
// {course, genseq, callId, name: "tellask"|"tellaskSessionless"|"freshBootsReasoning"|"tellaskBack",
//  subdialogId (for tellaskBack: the tellasker), targetAgentId, sessionSlug?, tellaskContent}
inline constexpr std::string_view tellask_called = "tellask_called";
// On a tellasker: another dialog's reply — {course, callId ("" when no call of this course waits
// for it), name, awaited (it ended a wait), fromDialogId, fromMemberId,
// kind: "final"|"tellaskBack"|"answer"|"superseded"|"dead", ok, content, backCallId?}
// With a callId it is that call's tool result; without, a user message with origin "reply".
inline constexpr std::string_view reply_received = "reply_received";
// On a dialog that answered a tellaskBack: {course, toDialogId, callId} — the answer went out and
// the dialog waits for that subdialog again.
inline constexpr std::string_view answer_delivered = "answer_delivered";
// Q4H: {course, genseq, callId, questionId, mentionList, tellaskContent, askedAt (ISO-8601)}
inline constexpr std::string_view question_asked = "question_asked";
// {course, questionId, callId, content, msgId} — the human's answer, the askHuman call's result
inline constexpr std::string_view question_answered = "question_answered";
// Reminders (dialog-scoped working memory, kept across courses): {content}, {index, content}, {index}
inline constexpr std::string_view reminder_added = "reminder_added";
inline constexpr std::string_view reminder_updated = "reminder_updated";
inline constexpr std::string_view reminder_deleted = "reminder_deleted";
// {selector: "goals"|"constraints"|"progress", path, hash, previousHash} — change_mind wrote a section
inline constexpr std::string_view taskdoc_changed = "taskdoc_changed";
// {course, genseq, level: "healthy"|"caution"|"critical", promptTokens, contextWindow} — the prompt
// of a generation measured against the model's context window; recorded when the level is not
// healthy or changes. A course that stays critical is ended by the runtime (a new course).
inline constexpr std::string_view context_health = "context_health";
// {reason} — a human declared this subdialog dead; it is never driven again
inline constexpr std::string_view declared_dead = "declared_dead";
// {} — a human asked a stopped or failed dialog to continue
inline constexpr std::string_view drive_resumed = "drive_resumed";
// {originalType, problem} — written only by `parley repair`, in place of an event whose stored
// text could not be read; it changes nothing (the original is kept in `quarantined_events`)
inline constexpr std::string_view event_quarantined = "event_quarantined";
}  // namespace event_type

}  // namespace parley
