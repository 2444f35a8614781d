// Seed 002's conversation records — Message → Turn → Session → Dialogue — as plain rows, and the
// per-dialog cursor the records reducer (conversation_reducer.hpp) folds events into.
// Field names are the seed's; times are UTC milliseconds (the API shows them as ISO-8601). The
// seed's vocabularies are enums (events/records_enums.hpp); the stores convert them at the column
// through their one table, and a stored string that maps to none is an error naming the column.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "parley/model/events/records_enums.hpp"

namespace parley {

// Defaults of seed 002: a turn waits 3 h for its responder; 1 h without activity starts a session.
inline constexpr std::int64_t kDefaultTurnWindowMs = 3LL * 60 * 60 * 1000;
inline constexpr std::int64_t kDefaultSessionGapMs = 60LL * 60 * 1000;

struct record_dialogue {
  std::string id;         // UUID
  std::string dialog_id;  // the Parley dialog it records (its log)
  events::dialogue_type dialogue_type = events::dialogue_type::human_ai;
  std::string human_id;     // the human who opened it (a group's others are in metadata.humans)
  std::string ai_id;        // the member that speaks in it
  std::string relation_id;  // a subdialog: the dialogue of its parent; empty for a root
  std::int64_t created_at = 0;
  bool is_active = true;
  std::int64_t last_activity_at = 0;
  std::string metadata;  // JSON object text

  bool operator==(const record_dialogue&) const = default;
};

struct record_session {
  std::string id;
  std::string dialogue_id;
  events::session_type session_type = events::session_type::dialogue;
  std::int64_t start_at = 0;
  std::int64_t end_at = 0;  // 0 (NULL) while it is the dialogue's current session
  std::string description;
  events::record_role created_by = events::record_role::system;
  std::string metadata;
  // A self-reflection session's (seed 002 SelfReflectionSession); empty (NULL) for dialogue sessions.
  std::optional<events::trigger_source> trigger_source;
  std::string goal;
  std::string ai_mood_state;
  std::string summary;  // written when the session closes

  bool operator==(const record_session&) const = default;
};

// One step of a self-reflection (seed 002 IntrospectionTurn): a purpose, the tool it used and what
// came of it. `generated_entry` is the id of the memory entry it produced, if any.
struct record_introspection {
  std::string id;
  std::string session_id;
  std::string dialogue_id;
  std::string purpose;
  std::string input_context;
  std::string tool_used;
  std::string tool_input;
  std::string tool_output;
  std::string generated_entry;
  std::string mood_shift;
  std::string value_impact;
  std::int64_t started_at = 0;
  std::int64_t duration_ms = 0;

  bool operator==(const record_introspection&) const = default;
};

// A memory entry an introspection produced; turns (dialogue or introspection) link to entries.
struct record_memory_entry {
  std::string id;
  std::string dialogue_id;
  std::string ai_id;
  std::string content;
  std::int64_t created_at = 0;
  std::string source_turn_id;

  bool operator==(const record_memory_entry&) const = default;
};

struct record_memory_link {
  std::string turn_id;
  std::string memory_id;
  std::string relation;  // "generated" | "related"
  std::int64_t created_at = 0;

  bool operator==(const record_memory_link&) const = default;
};

// Seed 002's SystemUtteranceLog: what the system itself said, and to whom.
struct record_system_utterance {
  std::string log_id;  // the system message's id
  std::int64_t timestamp = 0;
  std::string conversation_id;  // the dialogue
  events::utterance_trigger trigger = events::utterance_trigger::context_hint;
  std::string content;
  events::utterance_target target = events::utterance_target::all;
  std::string linked_turn_id;
  std::string notes;

  bool operator==(const record_system_utterance&) const = default;
};

struct record_turn {
  std::string id;
  std::string dialogue_id;
  std::string session_id;
  events::turn_type turn_type = events::turn_type::human_query;
  events::record_role initiator_role = events::record_role::human;
  events::record_role responder_role = events::record_role::ai;  // the expected responder
  std::int64_t started_at = 0;
  std::int64_t closed_at = 0;  // 0 (NULL) while pending
  events::turn_status status = events::turn_status::pending;
  std::int64_t response_time = 0;  // ms from start to the response; 0 (NULL) unless responded
  std::int64_t window_ms = 0;      // the response window it was opened with
  std::string metadata;

  bool operator==(const record_turn&) const = default;
};

struct record_message {
  std::string id;
  std::string dialogue_id;
  std::string session_id;
  std::string turn_id;
  events::record_role sender_role = events::record_role::human;
  std::string sender_id;  // the member (ai) or empty
  std::string content;
  events::content_type content_type = events::content_type::text;
  std::int64_t created_at = 0;
  std::string metadata;
  std::string dialog_id;  // the log position it comes from
  std::int64_t seq = 0;
  // image and audio (seed 002): {caption, format, size_kb, transcription, mime, upload_id, text};
  // JSON text, empty (NULL) for other content types
  std::string content_meta;

  bool operator==(const record_message&) const = default;
};

// What the analyst or the embedder added to a message (docs/records.md "Analysis and embeddings"):
// a JSON merge patch of its metadata and, for an embedding, the vector (little-endian float32
// bytes, checked: `dimensions` finite values).
struct record_message_annotation {
  std::string message_id;
  std::string metadata_patch;  // a JSON object's text
  std::string model;           // the embedding's; empty without a vector
  std::int64_t dimensions = 0;
  std::string vector;  // empty: no vector to store

  bool operator==(const record_message_annotation&) const = default;
};

// What the reducer keeps between events of one dialog: its open turn and current session.
struct records_cursor {
  std::string dialog_id;
  std::string dialogue_id;
  events::record_role counterpart =
      events::record_role::human;  // who this dialog's AI answers: human (root) or ai (subdialog)
  std::int64_t window_ms = kDefaultTurnWindowMs;
  std::int64_t gap_ms = kDefaultSessionGapMs;
  std::string session_id;  // empty before the first message
  events::session_type session_type = events::session_type::dialogue;
  std::int64_t session_last_ms = 0;
  // A self-reflection dialog (selfReflect, a schedule): its sessions are self-reflection sessions.
  // The dialog_created event's trigger as written (a trigger_source's wire name), empty for any
  // other dialog.
  std::string reflection_trigger;
  std::string reflection_goal;
  std::string reflection_mood;
  std::string turn_id;  // the open (pending) turn, empty when none
  // The last turn's roles and type (the open one's while turn_id is set); none before the first
  // turn (stored as '').
  std::optional<events::record_role> turn_initiator;
  std::string turn_initiator_id;  // who opened it (a user, a member); a human's turn is answered by another
  std::optional<events::record_role> turn_responder;
  std::optional<events::turn_type> turn_type;
  std::int64_t turn_started_ms = 0;
  // The open turn's own response window (seed 002's expected_window_minutes); 0: the dialogue's.
  // The SQLite store keeps it in the open turn's row, not in its cursor table.
  std::int64_t turn_window_ms = 0;

  std::int64_t open_turn_window_ms() const noexcept { return turn_window_ms > 0 ? turn_window_ms : window_ms; }
  bool operator==(const records_cursor&) const = default;
};

// Rows one event adds or changes. Updates carry the whole row; the writer stores only the columns
// that can change (see records_writer).
struct records_step {
  std::optional<record_dialogue> dialogue;  // inserted on dialog_created, updated otherwise
  bool new_dialogue = false;
  std::vector<record_session> closed_sessions;
  std::vector<record_session> opened_sessions;
  std::vector<record_turn> closed_turns;  // turns that were pending before this event
  std::vector<record_turn> opened_turns;
  std::optional<record_message> message;
  std::optional<record_system_utterance> utterance;  // when `message` is the system's
  std::optional<record_introspection> introspection;
  std::optional<record_memory_entry> memory;
  std::vector<record_memory_link> links;
  std::optional<record_message_annotation> annotation;

  bool empty() const noexcept {
    return !dialogue && closed_sessions.empty() && opened_sessions.empty() && closed_turns.empty() &&
           opened_turns.empty() && !message && !introspection && !memory && links.empty() && !annotation;
  }
};

}  // namespace parley
