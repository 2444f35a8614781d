// Projection rows: what the store derives from the log for queries (dialog list, transcripts).
// Plain data, no I/O. `apply_event` in projection.hpp is the only code that computes them.
// A row's kind, status and call kind, and a message's role, origin, attachment and calls, are the
// log's types (model/events/*.hpp); a store keeps the dialog row's enums as their wire strings
// (events::to_wire / events::from_wire are the one conversion each), and a stored string that is
// none of them is an error naming the dialog and the field. Messages are projected from their
// events whenever they are read, so they are never parsed back from text.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "parley/model/events/message_events.hpp"

namespace parley {

struct dialog_row {
  std::string id;
  std::string root_id;
  std::string parent_id;  // empty for a root dialog
  std::string member_id;
  events::dialog_kind kind = events::dialog_kind::root;
  // Subdialogs: the call that created it (tellask, tellaskSessionless, freshBootsReasoning, ...; a
  // self-reflection root has selfReflect; none for other roots), its Type B session slug (empty
  // unless registered) and the current tellasker dialog.
  std::optional<events::call_kind> call_kind;
  std::string session_slug;
  std::string caller_id;
  events::dialog_status status = events::dialog_status::running;
  std::string task_doc_path;
  std::string title;
  std::string last_error;
  std::int64_t course = 1;
  std::int64_t depth = 0;
  std::int64_t last_seq = 0;
  std::int64_t last_genseq = 0;
  std::int64_t message_count = 0;  // messages of the current course
  std::int64_t open_questions = 0;
  std::int64_t pending_subdialogs = 0;
  std::int64_t input_tokens = 0;
  std::int64_t output_tokens = 0;
  std::int64_t created_at_ms = 0;
  std::int64_t updated_at_ms = 0;
  bool generating = false;
  bool needs_drive = false;
  bool dead = false;  // declared dead by a human: never driven again, its registry entry is gone
  // A root's people (seed 002's dialogue types): the humans who take part (its creator first; who
  // may see the dialog and its subdialogs) and, in a group, the AI members who may answer.
  std::vector<std::string> humans;
  std::vector<std::string> members;

  bool operator==(const dialog_row&) const = default;
};

struct message_row {
  std::string dialog_id;
  std::int64_t seq = 0;  // the seq of the event that produced it
  std::int64_t course = 1;
  std::int64_t genseq = 0;
  events::message_role role = events::message_role::user;
  std::optional<events::message_origin> origin;  // user messages only
  std::string speaker;  // a human's message: the user; an AI's in a group: the member; else empty
  std::optional<events::attachment> attachment;  // a user message's image or audio
  std::optional<events::tool_image> tool_image;  // a tool result's image (read_file of a PNG or JPEG)
  std::string content;                           // user text, assistant saying, or tool output
  std::string thinking;
  std::string thinking_signature;                    // assistant: the provider's proof of `thinking`
  std::vector<events::tool_call_record> tool_calls;  // assistant
  std::string tool_call_id;                          // tool
  std::string tool_name;                             // tool
  bool ok = true;                                    // tool: false when the tool failed
  bool interrupted = false;                          // assistant: generation stopped before it finished
  std::int64_t ts_ms = 0;

  bool operator==(const message_row&) const = default;
};

}  // namespace parley
