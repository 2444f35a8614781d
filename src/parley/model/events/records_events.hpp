// Events of seed 002's conversation records: the response window's timer, and the records write
// API (docs/records.md "Writing records"). The server checks each write against the records before
// appending it; the records reducer applies only what still fits when it folds the event.
// Roles, session types and statuses stay the seed's strings here: they are checked by the REST
// layer against seed 002's lists and only copied into records rows.
#pragma once

#include <boost/json/object.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parley/model/events/wire.hpp"

namespace parley::events {

// A turn's response window passed with no response (written by `parley serve`'s window timers).
struct turn_window_expired {
  static constexpr std::string_view kType = "turn_window_expired";
  std::string turn_id;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("turnId", s.turn_id);
  }
  bool operator==(const turn_window_expired&) const = default;
};

// Ends the current session and opens this one.
struct record_session_opened {
  static constexpr std::string_view kType = "record_session_opened";
  std::string session_id;
  std::string session_type;  // "dialogue" | "self_reflection"
  std::string description;
  std::string created_by;  // "system" | "ai" | "human"
  boost::json::object metadata;
  // A self_reflection session's (seed 002 SelfReflectionSession); absent for dialogue sessions.
  std::optional<std::string> trigger_source;
  std::optional<std::string> goal;
  std::optional<std::string> ai_mood_state;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("sessionId", s.session_id);
    v.required("sessionType", s.session_type);
    v.required("description", s.description);
    v.required("createdBy", s.created_by);
    v.required("metadata", s.metadata);
    v.optional("triggerSource", s.trigger_source);
    v.optional("goal", s.goal);
    v.optional("aiMoodState", s.ai_mood_state);
  }
  bool operator==(const record_session_opened&) const = default;
};

// Ends the current session; the next turn opens a new one.
struct record_session_closed {
  static constexpr std::string_view kType = "record_session_closed";
  std::string session_id;
  std::string summary;
  std::string reason;  // seed 002's close reason: "timeout" | "manual" | "task_completed"; "" unsaid

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("sessionId", s.session_id);
    v.since("summary", s.summary, "", "2026-11-25 (461d2c6, self-reflection sessions)");
    v.defaulted("reason", s.reason, "");
  }
  bool operator==(const record_session_closed&) const = default;
};

// A turn in the current session. `windowMs` is the turn's own response window (seed 002's
// `expected_window_minutes`); absent, the turn waits its dialogue's window.
struct record_turn_opened {
  static constexpr std::string_view kType = "record_turn_opened";
  std::string turn_id;
  std::string session_id;
  std::string initiator_role;
  std::string responder_role;
  std::optional<std::int64_t> window_ms;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("turnId", s.turn_id);
    v.required("sessionId", s.session_id);
    v.required("initiatorRole", s.initiator_role);
    v.required("responderRole", s.responder_role);
    v.optional("windowMs", s.window_ms);
  }
  bool operator==(const record_turn_opened&) const = default;
};

// Closes the pending turn `responded` or `unresponded`. `outcome` is seed 002's word when the
// client gave one ("expired" | "ignored", both unresponded), `closedBy` who closed it
// ("human" | "ai" | "system"; "" unsaid, recorded as "api").
struct record_turn_closed {
  static constexpr std::string_view kType = "record_turn_closed";
  std::string turn_id;
  std::string status;
  std::string outcome;
  std::string closed_by;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("turnId", s.turn_id);
    v.required("status", s.status);
    v.defaulted("outcome", s.outcome, "");
    v.defaulted("closedBy", s.closed_by, "");
  }
  bool operator==(const record_turn_closed&) const = default;
};

// A message in the pending turn; one from the turn's responder answers it.
struct record_message {
  static constexpr std::string_view kType = "record_message";
  std::string message_id;
  std::string turn_id;
  std::string sender_role;
  std::string sender_id;
  std::string content;
  std::string content_type;
  boost::json::object metadata;
  std::string reply_to;
  std::string target;  // a system message's (seed 002 SystemUtteranceLog)
  std::string notes;
  std::optional<boost::json::object> content_meta;  // an image or audio message's

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("messageId", s.message_id);
    v.required("turnId", s.turn_id);
    v.required("senderRole", s.sender_role);
    v.required("senderId", s.sender_id);
    v.required("content", s.content);
    v.required("contentType", s.content_type);
    v.required("metadata", s.metadata);
    v.required("replyTo", s.reply_to);
    v.since("target", s.target, "all", "2026-11-25 (461d2c6, the SystemUtteranceLog)");
    v.since("notes", s.notes, "", "2026-11-25 (461d2c6, the SystemUtteranceLog)");
    v.optional("contentMeta", s.content_meta);
  }
  bool operator==(const record_message&) const = default;
};

// A step of the current self-reflection session (seed 002 IntrospectionTurn); a generatedEntry
// becomes memory entry `memoryId`. The REST write gives every text (empty when not sent); the
// engine's own reflection dialogs give the tool's.
struct record_introspection {
  static constexpr std::string_view kType = "record_introspection";
  std::string turn_id;
  std::optional<std::string> session_id;  // absent: the current session
  std::string purpose;
  std::optional<std::string> input_context;
  std::optional<std::string> tool_used;
  std::optional<std::string> tool_input;
  std::optional<std::string> tool_output;
  std::optional<std::string> generated_entry;
  std::optional<std::string> memory_id;
  std::optional<std::string> mood_shift;
  std::optional<std::string> value_impact;
  std::optional<std::int64_t> started_at;  // absent: the event's time
  std::int64_t duration_ms = 0;
  std::string ai_id;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("turnId", s.turn_id);
    v.optional("sessionId", s.session_id);
    v.required("purpose", s.purpose);
    v.optional("inputContext", s.input_context);
    v.optional("toolUsed", s.tool_used);
    v.optional("toolInput", s.tool_input);
    v.optional("toolOutput", s.tool_output);
    v.optional("generatedEntry", s.generated_entry);
    v.optional("memoryId", s.memory_id);
    v.optional("moodShift", s.mood_shift);
    v.optional("valueImpact", s.value_impact);
    v.optional("startedAt", s.started_at);
    v.required("durationMs", s.duration_ms);
    v.required("aiId", s.ai_id);
  }
  bool operator==(const record_introspection&) const = default;
};

// A turn refers to a memory entry.
struct record_memory_link {
  static constexpr std::string_view kType = "record_memory_link";
  std::string turn_id;
  std::string memory_id;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("turnId", s.turn_id);
    v.required("memoryId", s.memory_id);
  }
  bool operator==(const record_memory_link&) const = default;
};

// One step of seed 002's MultiModalInputParser on a message: the parser for a medium, what it
// produced (an image's caption, a recording's transcription, the text's tags, the merged context
// block), who produced it with which model, and how it went.
struct analysis_step {
  std::string parser;  // "ImageParser" | "AudioParser" | "TextParser" | "IntegrationManager"
  std::string medium;  // "image" | "audio" | "text" | "mixed"
  std::string kind;    // "caption" | "transcription" | "text_analysis" | "integration"
  std::string status;  // "done" | "given" (the sender sent it) | "failed" | "skipped" (nobody configured)
  std::string member;  // the member who made it; "" for the sender's or the system's own
  std::string model;
  std::string output;  // what it made, cut to a few hundred bytes
  std::string error;
  std::string language;  // the text analysis: the language it was instructed in ("zh" | "en")

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("parser", s.parser);
    v.required("medium", s.medium);
    v.required("kind", s.kind);
    v.required("status", s.status);
    v.defaulted("member", s.member, "");
    v.defaulted("model", s.model, "");
    v.defaulted("output", s.output, "");
    v.defaulted("error", s.error, "");
    v.defaulted("language", s.language, "");
  }
  bool operator==(const analysis_step&) const = default;
};

// The analyst member's reading of a human message (seed 002's `intent_tags` and `emotion` of
// human_input, `topic_tags` of the ConversationThread), written off the critical path after the
// message is durable. `error` non-empty: the analysis failed after `attempts` model calls, and
// the tags are empty. The records reducer folds it into the message's metadata.
struct record_message_analyzed {
  static constexpr std::string_view kType = "record_message_analyzed";
  std::string message_id;        // the records message (its UUID)
  std::int64_t message_seq = 0;  // the seq of the event that made that message
  std::string analyst;           // the member who analysed it
  std::vector<std::string> intent_tags;
  std::string emotion;
  std::vector<std::string> topic_tags;
  std::string error;
  std::int64_t attempts = 1;
  // The MultiModalInputParser's steps: the text's analysis, and for an image or a recording its
  // medium's step and the merge of both. Absent in logs written before them.
  std::vector<analysis_step> steps;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("messageId", s.message_id);
    v.required("messageSeq", s.message_seq);
    v.required("analyst", s.analyst);
    v.required("intentTags", s.intent_tags);
    v.required("emotion", s.emotion);
    v.required("topicTags", s.topic_tags);
    v.defaulted("error", s.error, "");
    v.required("attempts", s.attempts);
    v.defaulted("steps", s.steps, {});
  }
  bool operator==(const record_message_analyzed&) const = default;
};

// A message's embedding (seed 002's `embedding_vector`) from the OpenAI-compatible embeddings
// provider. `vector` is base64 of `dimensions` little-endian IEEE float32s: 5.3 bytes a dimension
// in the log, where JSON numbers take about 10. `error` non-empty: embedding failed (a refused
// answer: malformed, wrong dimension, not finite) and `vector` is empty.
struct record_message_embedded {
  static constexpr std::string_view kType = "record_message_embedded";
  std::string message_id;
  std::int64_t message_seq = 0;
  std::string model;
  std::int64_t dimensions = 0;
  std::string vector;
  std::string error;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("messageId", s.message_id);
    v.required("messageSeq", s.message_seq);
    v.required("model", s.model);
    v.required("dimensions", s.dimensions);
    v.required("vector", s.vector);
    v.defaulted("error", s.error, "");
  }
  bool operator==(const record_message_embedded&) const = default;
};

}  // namespace parley::events
