// Moves dialog rows, events and messages between C++ structs and the PostgreSQL store's tables.
// Writes go as JSON record sets (json_to_recordset), one parameter per table per commit, so that a
// group of batches is a handful of statements whatever its size; reads come back as text columns.
// The column lists here are the single source for both directions.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "parley/core/json_text.hpp"
#include "parley/core/result.hpp"
#include "parley/model/event.hpp"
#include "parley/model/records.hpp"
#include "parley/store/postgres/pg_connection.hpp"
#include "parley/store/postgres/pg_record_set.hpp"
#include "parley/store/store.hpp"

namespace parley::pg {

// "id, root_id, ..." in the order read_dialog reads them.
const std::string& dialog_columns();
// "id text, root_id text, ..." for json_to_recordset's column definition of a dialog row.
const std::string& dialog_record_type();
// "root_id = x.root_id, ..." for an UPDATE from a record set aliased x.
const std::string& dialog_assignments();

// The event columns every event read selects, in read_event's order.
inline constexpr std::string_view kEventColumns = "e.dialog_id, e.root_id, e.seq, e.type, e.payload, e.ts_ms";
inline constexpr int kEventColumnCount = 6;

// Appends a row as a JSON object with the column names as keys; `prev_seq`, when not negative, is
// the head the database must still have for the update to apply (the fence).
void write_dialog(json_text_writer& out, const dialog_row& row, std::int64_t prev_seq);
// Appends an event as {n, dialog_id, root_id, seq, type, payload, ts_ms}; `n` orders the log.
void write_event(json_text_writer& out, const event& ev, std::int64_t n);
// Appends the msgId index entry an event makes, if it makes one (user message, answer, flow input).
void write_input(json_text_writer& out, const event& ev, std::int64_t n);
// Appends the `messages` row of a message event: its position in the log and its course.
void write_message_ref(json_text_writer& out, const event& ev, std::int64_t course);
// Writes the index entry `ev` makes into `inputs`, if it makes one, and counts it.
void add_input(record_set& inputs, const event& ev);

result<dialog_row> read_dialog(const rows& r, int row);
// An event selected with kEventColumns from column `first`; `corrupt` naming it when its payload
// does not decode.
result<event> read_event(const rows& r, int row, int first = 0);
// A message: its event (kEventColumns) followed by its course.
result<message_row> read_message(const rows& r, int row);
// An inputs row: kind, dialog_id, seq, sender, content_json, question_id.
result<input_record> read_input(const rows& r, int row);

// A JSON array of `texts`: a list as one parameter, for `json_array_elements_text($n::json)`.
std::string json_text_array(std::span<const std::string> texts);

// A text column PostgreSQL can hold: NUL, which it cannot, becomes U+FFFD (the log keeps the
// exact text inside its JSON payload; a projection's copy is for display and filters).
std::string storable_text(std::string_view text);

}  // namespace parley::pg
