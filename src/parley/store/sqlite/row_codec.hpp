// Moves records between C++ structs and table columns. Each column list here is the single source
// for its table's SELECT and INSERT order, so binding and reading cannot drift apart.
#pragma once

#include <string>
#include <string_view>

#include "parley/core/result.hpp"
#include "parley/model/event.hpp"
#include "parley/model/records.hpp"
#include "parley/store/sqlite/sqlite_handle.hpp"

namespace parley::sqlite {

inline constexpr std::string_view kDialogColumns =
    "id, root_id, parent_id, member_id, kind, status, task_doc_path, title, last_error, course, depth, last_seq, "
    "last_genseq, message_count, open_questions, pending_subdialogs, input_tokens, output_tokens, created_at_ms, "
    "updated_at_ms, generating, needs_drive, call_kind, session_slug, caller_id, dead, humans, members";
inline constexpr int kDialogColumnCount = 28;

// Columns of `events`, qualified by `e` so the same list serves queries that join it. The payload
// is read as it was appended (kEventPayloadSql puts a shared prompt text back).
// Over `events_stored AS e` (schema version 18): a compressed payload is decoded by read_event.
const std::string& event_columns();
// The payload as appended, TEXT or a compressed blob (stored_payload_text reads either).
const std::string& event_payload_column();
// The JSON text of a payload column read through event_payload_column(); an unreadable blob's
// problem otherwise (the caller names the event).
result<std::string> stored_payload_text(const statement& stmt, int column);
inline constexpr int kEventColumnCount = 6;

// "?1, ?2, ... ?n" for an INSERT of `count` columns.
std::string placeholders(int count);

// Binds parameters ?1..?n in column-list order. Text is bound by reference (see statement).
void bind_dialog(statement& stmt, const dialog_row& row);

// Read a row selected with the matching column list, starting at column 0. Fails with `corrupt`,
// naming the dialog and the column, when a kind, status or call kind is not one the log knows.
result<dialog_row> read_dialog(const statement& stmt);
// Fails with `corrupt` when the stored payload is not a JSON object.
result<event> read_event(const statement& stmt);
// A message is its event (event_columns()) followed by `messages.course`, decoded by apply_event,
// the reducer that created the message row: a message depends on nothing but its event and the
// course it was appended in. Fails with `corrupt` when the event does not make a message.
result<message_row> read_message(const statement& stmt);

}  // namespace parley::sqlite
