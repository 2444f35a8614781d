// A system utterance the engine made is read from its message and its event (schema version 23,
// docs/store.md "Utterances and dialogue metadata from the log").
//
// Every message of the system is an utterance (seed 002 SystemUtteranceLog), and for those the
// engine makes its trigger, target and notes follow from the message and the event it came from:
// a tool's output (`tool_output`) is `tool_result` for the AI, noted "result of <the event's
// name>"; a runtime prompt (`system_context`) is a `context_hint` for the AI, noted "runtime prompt
// inserted into the context". Such an utterance stores no row of `system_utterance`; one written
// through the records routes, or any other whose values differ, keeps its row.
#pragma once

#include <string>

#include "parley/model/conversation_records.hpp"
#include "parley/model/event.hpp"

namespace parley::sqlite {

// The event of the row of `message AS m`, as the alias `e_`: the one place this file's SQL names
// how a message refers to its event.
inline constexpr const char* kMessageEventSql = "FROM events AS e_ WHERE e_.id = m.event_id";

// The trigger, target and notes the log gives the system message `m` (NULL trigger: none).
const std::string& derived_utterance_trigger_sql();
inline constexpr const char* kDerivedUtteranceTargetSql = "'ai'";
const std::string& derived_utterance_notes_sql();

// `system_utterance_log`, the view the records routes read: the seed's columns, a stored row's
// values where there is one and the derived ones otherwise, in the order of the messages' rowids.
const std::string& system_utterance_log_view_sql();

// Whether `u`, the utterance of `message` made from `ev`, is exactly what the view derives for a
// message without a row: its trigger, target and notes, byte for byte.
bool utterance_is_in_log(const record_system_utterance& u, const record_message& message, const event& ev);

}  // namespace parley::sqlite
