#include "parley/store/sqlite/row_codec.hpp"

#include "parley/core/json_check.hpp"
#include "parley/core/json_read.hpp"
#include "parley/core/utf8.hpp"
#include "parley/model/event_codec.hpp"
#include "parley/model/projection.hpp"
#include "parley/store/dialog_fields.hpp"
#include "parley/store/sqlite/payload_codec.hpp"
#include "parley/store/sqlite/prompt_versions.hpp"

namespace parley::sqlite {

std::string placeholders(int count) {
  std::string out;
  for (int i = 1; i <= count; ++i) {
    if (i > 1) out += ", ";
    out += '?';
    out += std::to_string(i);
  }
  return out;
}

void bind_dialog(statement& stmt, const dialog_row& row) {
  stmt.bind_text(1, row.id);
  stmt.bind_text(2, row.root_id);
  stmt.bind_text(3, row.parent_id);
  stmt.bind_text(4, row.member_id);
  stmt.bind_text(5, events::to_wire(row.kind));
  stmt.bind_text(6, events::to_wire(row.status));
  stmt.bind_text(7, row.task_doc_path);
  stmt.bind_text(8, row.title);
  stmt.bind_text(9, row.last_error);
  stmt.bind_int(10, row.course);
  stmt.bind_int(11, row.depth);
  stmt.bind_int(12, row.last_seq);
  stmt.bind_int(13, row.last_genseq);
  stmt.bind_int(14, row.message_count);
  stmt.bind_int(15, row.open_questions);
  stmt.bind_int(16, row.pending_subdialogs);
  stmt.bind_int(17, row.input_tokens);
  stmt.bind_int(18, row.output_tokens);
  stmt.bind_int(19, row.created_at_ms);
  stmt.bind_int(20, row.updated_at_ms);
  stmt.bind_int(21, row.generating ? 1 : 0);
  stmt.bind_int(22, row.needs_drive ? 1 : 0);
  // Never a null pointer: SQLite binds that as NULL, and the column is NOT NULL.
  stmt.bind_text(23, row.call_kind ? events::to_wire(*row.call_kind) : std::string_view(""));
  stmt.bind_text(24, row.session_slug);
  stmt.bind_text(25, row.caller_id);
  stmt.bind_int(26, row.dead ? 1 : 0);
  stmt.bind_text_copy(27, joined_ids(row.humans));
  stmt.bind_text_copy(28, joined_ids(row.members));
}

result<dialog_row> read_dialog(const statement& stmt) {
  dialog_row row;
  row.id = stmt.text_at(0);
  row.root_id = stmt.text_at(1);
  row.parent_id = stmt.text_at(2);
  row.member_id = stmt.text_at(3);
  PARLEY_TRY_ASSIGN(row.kind, stored_enum<events::dialog_kind>(row, "kind", stmt.text_view_at(4)));
  PARLEY_TRY_ASSIGN(row.status, stored_enum<events::dialog_status>(row, "status", stmt.text_view_at(5)));
  row.task_doc_path = stmt.text_at(6);
  row.title = stmt.text_at(7);
  row.last_error = stmt.text_at(8);
  row.course = stmt.int_at(9);
  row.depth = stmt.int_at(10);
  row.last_seq = stmt.int_at(11);
  row.last_genseq = stmt.int_at(12);
  row.message_count = stmt.int_at(13);
  row.open_questions = stmt.int_at(14);
  row.pending_subdialogs = stmt.int_at(15);
  row.input_tokens = stmt.int_at(16);
  row.output_tokens = stmt.int_at(17);
  row.created_at_ms = stmt.int_at(18);
  row.updated_at_ms = stmt.int_at(19);
  row.generating = stmt.int_at(20) != 0;
  row.needs_drive = stmt.int_at(21) != 0;
  if (const auto call = stmt.text_view_at(22); !call.empty()) {
    PARLEY_TRY_ASSIGN(row.call_kind, stored_enum<events::call_kind>(row, "call_kind", call));
  }
  row.session_slug = stmt.text_at(23);
  row.caller_id = stmt.text_at(24);
  row.dead = stmt.int_at(25) != 0;
  row.humans = split_ids(stmt.text_view_at(26));
  row.members = split_ids(stmt.text_view_at(27));
  return row;
}

const std::string& event_payload_column() {
  // Only a prompt_logged event needs its text in SQL (to put a shared prompt back); every other
  // payload is read as stored, and a blob is decoded here, where the event can be named.
  static const std::string column =
      std::string("CASE WHEN e.type != 'prompt_logged' THEN e.stored_payload ELSE (") + kEventPayloadSql + ") END";
  return column;
}

const std::string& event_columns() {
  static const std::string columns = "e.dialog_id, e.root_id, e.seq, e.type, " + event_payload_column() + ", e.ts_ms";
  return columns;
}

result<std::string> stored_payload_text(const statement& stmt, int column) {
  if (!stmt.is_blob_at(column)) return stmt.text_at(column);
  return decode_payload_blob(stmt.blob_view_at(column));
}

result<event> read_event(const statement& stmt) {
  event ev;
  ev.dialog_id = stmt.text_at(0);
  ev.root_id = stmt.text_at(1);
  ev.seq = stmt.int_at(2);
  const std::string type = stmt.text_at(3);
  ev.ts_ms = stmt.int_at(5);
  const auto which = [&] { return "event " + std::to_string(ev.seq) + " (" + type + ") of dialog " + ev.dialog_id; };
  std::string decoded;
  std::string_view text;
  if (stmt.is_blob_at(4)) {
    auto blob = decode_payload_blob(stmt.blob_view_at(4));
    if (!blob) return make_error(errc::corrupt, which() + " cannot be read: " + blob.err().message);
    decoded = std::move(*blob);
    text = decoded;
  } else {
    text = stmt.text_view_at(4);
  }
  boost::system::error_code ec;
  boost::json::value payload = read_json(text, ec);
  if (ec) {
    // Written by a Parley that did not yet refuse such bytes (store/append_check.hpp): read with
    // them replaced, so the dialog stays usable; `parley check` names the event and `parley repair`
    // rewrites it.
    std::string repairs;
    auto repaired = parse_json_repairing(text, repairs);
    if (!repaired) {
      return make_error(errc::corrupt, which() + " cannot be read: its payload is not JSON (" + ec.message() +
                                           "); run `parley repair`");
    }
    payload = std::move(*repaired);
  }
  if (!payload.is_object()) {
    return make_error(errc::corrupt, which() + " has a payload that is not a JSON object; run `parley repair`");
  }
  // Strict: a missing or mistyped field fails this event's dialog alone, like unreadable text.
  auto typed = decode_payload(type, payload.get_object());
  if (!typed) {
    // The problem quotes stored text (an enum value cut at 64 bytes): kept UTF-8 for the message.
    return make_error(errc::corrupt,
                      which() + " does not decode: " + repair_utf8(typed.err().message).text + "; run `parley repair`");
  }
  ev.payload = std::move(*typed);
  return ev;
}

result<message_row> read_message(const statement& stmt) {
  auto ev = read_event(stmt);
  if (!ev) return std::move(ev).err();
  // The dialog's row as it was just before the event, as far as a message depends on it.
  dialog_row before;
  before.id = ev->dialog_id;
  before.last_seq = ev->seq - 1;
  before.course = stmt.int_at(kEventColumnCount);
  auto step = apply_event(*ev, before);
  if (!step || !step->new_message) {
    return make_error(errc::corrupt, "message " + std::to_string(ev->seq) + " of dialog " + ev->dialog_id +
                                         " refers to an event (" + std::string(ev->type()) + ") that is not a message");
  }
  return std::move(*step->new_message);
}

}  // namespace parley::sqlite
