#include "parley/store/postgres/pg_rows.hpp"

#include <array>

#include <boost/json/serialize.hpp>

#include "parley/core/json_read.hpp"
#include "parley/core/json_text.hpp"
#include "parley/model/event_codec.hpp"
#include "parley/model/projection.hpp"
#include "parley/store/dialog_fields.hpp"

namespace parley::pg {

namespace {

struct column {
  std::string_view name;
  std::string_view type;
};

// The order of read_dialog and of pg_schema.cpp's CREATE TABLE.
constexpr std::array<column, 28> kDialogTable = {{
    {"id", "text"},
    {"root_id", "text"},
    {"parent_id", "text"},
    {"member_id", "text"},
    {"kind", "text"},
    {"status", "text"},
    {"task_doc_path", "text"},
    {"title", "text"},
    {"last_error", "text"},
    {"course", "bigint"},
    {"depth", "bigint"},
    {"last_seq", "bigint"},
    {"last_genseq", "bigint"},
    {"message_count", "bigint"},
    {"open_questions", "bigint"},
    {"pending_subdialogs", "bigint"},
    {"input_tokens", "bigint"},
    {"output_tokens", "bigint"},
    {"created_at_ms", "bigint"},
    {"updated_at_ms", "bigint"},
    {"generating", "boolean"},
    {"needs_drive", "boolean"},
    {"call_kind", "text"},
    {"session_slug", "text"},
    {"caller_id", "text"},
    {"dead", "boolean"},
    {"humans", "text"},
    {"members", "text"},
}};

template <class Each>
std::string joined_columns(Each each, std::size_t skip = 0) {
  std::string out;
  for (std::size_t i = skip; i < kDialogTable.size(); ++i) {
    if (!out.empty()) out += ", ";
    out += each(kDialogTable[i]);
  }
  return out;
}

bool is_true(std::string_view text) { return text == "t"; }

}  // namespace

const std::string& dialog_columns() {
  static const std::string text = joined_columns([](const column& c) { return std::string(c.name); });
  return text;
}

const std::string& dialog_record_type() {
  static const std::string text =
      joined_columns([](const column& c) { return std::string(c.name) + " " + std::string(c.type); });
  return text;
}

const std::string& dialog_assignments() {
  static const std::string text = joined_columns(
      [](const column& c) { return std::string(c.name) + " = x." + std::string(c.name); }, /*skip the key*/ 1);
  return text;
}

std::string json_text_array(std::span<const std::string> texts) {
  std::string array = "[";
  for (const auto& text : texts) {
    if (array.size() > 1) array += ',';
    append_json_string(array, text);
  }
  array += ']';
  return array;
}

std::string storable_text(std::string_view text) {
  if (text.find('\0') == std::string_view::npos) return std::string(text);
  std::string out;
  out.reserve(text.size() + 8);
  for (const char c : text) {
    if (c == '\0') {
      out += "\xEF\xBF\xBD";
    } else {
      out += c;
    }
  }
  return out;
}

void write_dialog(json_text_writer& out, const dialog_row& row, std::int64_t prev_seq) {
  out.begin_object();
  if (prev_seq >= 0) out.key("prev_seq").integer(prev_seq);
  out.field("id", row.id).field("root_id", row.root_id).field("parent_id", row.parent_id);
  out.field("member_id", row.member_id);
  out.field("kind", events::to_wire(row.kind)).field("status", events::to_wire(row.status));
  out.field("task_doc_path", storable_text(row.task_doc_path)).field("title", storable_text(row.title));
  out.field("last_error", storable_text(row.last_error));
  out.key("course").integer(row.course).key("depth").integer(row.depth);
  out.key("last_seq").integer(row.last_seq).key("last_genseq").integer(row.last_genseq);
  out.key("message_count").integer(row.message_count).key("open_questions").integer(row.open_questions);
  out.key("pending_subdialogs").integer(row.pending_subdialogs);
  out.key("input_tokens").integer(row.input_tokens).key("output_tokens").integer(row.output_tokens);
  out.key("created_at_ms").integer(row.created_at_ms).key("updated_at_ms").integer(row.updated_at_ms);
  out.key("generating").boolean(row.generating).key("needs_drive").boolean(row.needs_drive);
  out.field("call_kind", row.call_kind ? events::to_wire(*row.call_kind) : std::string_view());
  out.field("session_slug", row.session_slug).field("caller_id", row.caller_id);
  out.key("dead").boolean(row.dead);
  out.field("humans", joined_ids(row.humans)).field("members", joined_ids(row.members));
  out.end_object();
}

void write_event(json_text_writer& out, const event& ev, std::int64_t n) {
  const std::string payload = boost::json::serialize(encode_payload(ev.payload));
  out.begin_object();
  out.key("n").integer(n);
  out.field("dialog_id", ev.dialog_id).field("root_id", ev.root_id);
  out.key("seq").integer(ev.seq);
  out.field("type", ev.type()).field("payload", payload);
  out.key("ts_ms").integer(ev.ts_ms);
  out.end_object();
}

void write_input(json_text_writer& out, const event& ev, std::int64_t n) {
  auto entry = [&](std::string_view msg_id, std::string_view kind, std::string_view from, std::string_view content,
                   std::string_view question_id) {
    std::string content_json;
    append_json_string(content_json, content);
    out.begin_object();
    out.key("n").integer(n);
    out.field("msg_id", storable_text(msg_id)).field("kind", kind).field("dialog_id", ev.dialog_id);
    out.key("seq").integer(ev.seq);
    out.field("sender", storable_text(from)).field("content_json", content_json);
    out.field("question_id", question_id);
    out.end_object();
  };
  if (const auto* input = ev.as<events::user_message>(); input != nullptr && !input->msg_id.empty()) {
    entry(input->msg_id, "message", input->from, input->content, "");
  } else if (const auto* answer = ev.as<events::question_answered>(); answer != nullptr && !answer->msg_id.empty()) {
    entry(answer->msg_id, "answer", answer->from, answer->content, answer->question_id);
  } else if (const auto* flow = flow_input_of(ev); flow != nullptr && !flow->msg_id.empty()) {
    entry(flow->msg_id, "message", flow->from, flow->content, "");
  }
}

void write_message_ref(json_text_writer& out, const event& ev, std::int64_t course) {
  out.begin_object().field("dialog_id", ev.dialog_id).key("seq").integer(ev.seq).key("course").integer(course);
  out.end_object();
}

void add_input(record_set& inputs, const event& ev) {
  const auto before = inputs.bytes();
  write_input(inputs.writer(), ev, inputs.count());
  if (inputs.bytes() != before) inputs.counted();
}

result<dialog_row> read_dialog(const rows& r, int i) {
  dialog_row row;
  row.id = r.text(i, 0);
  row.root_id = r.text(i, 1);
  row.parent_id = r.text(i, 2);
  row.member_id = r.text(i, 3);
  PARLEY_TRY_ASSIGN(row.kind, stored_enum<events::dialog_kind>(row, "kind", r.text(i, 4)));
  PARLEY_TRY_ASSIGN(row.status, stored_enum<events::dialog_status>(row, "status", r.text(i, 5)));
  row.task_doc_path = r.text(i, 6);
  row.title = r.text(i, 7);
  row.last_error = r.text(i, 8);
  std::int64_t* const numbers[] = {&row.course,        &row.depth,          &row.last_seq,           &row.last_genseq,
                                   &row.message_count, &row.open_questions, &row.pending_subdialogs, &row.input_tokens,
                                   &row.output_tokens, &row.created_at_ms,  &row.updated_at_ms};
  for (int n = 0; n < 11; ++n) PARLEY_TRY_ASSIGN(*numbers[n], r.integer(i, 9 + n));
  row.generating = is_true(r.text(i, 20));
  row.needs_drive = is_true(r.text(i, 21));
  if (const auto call = r.text(i, 22); !call.empty()) {
    PARLEY_TRY_ASSIGN(row.call_kind, stored_enum<events::call_kind>(row, "call_kind", call));
  }
  row.session_slug = r.text(i, 23);
  row.caller_id = r.text(i, 24);
  row.dead = is_true(r.text(i, 25));
  row.humans = split_ids(r.text(i, 26));
  row.members = split_ids(r.text(i, 27));
  return row;
}

result<event> read_event(const rows& r, int row, int first) {
  event ev;
  ev.dialog_id = r.text(row, first);
  ev.root_id = r.text(row, first + 1);
  PARLEY_TRY_ASSIGN(ev.seq, r.integer(row, first + 2));
  const std::string_view type = r.text(row, first + 3);
  PARLEY_TRY_ASSIGN(ev.ts_ms, r.integer(row, first + 5));
  const auto which = [&] {
    return "event " + std::to_string(ev.seq) + " (" + std::string(type) + ") of dialog " + ev.dialog_id;
  };
  boost::system::error_code ec;
  const boost::json::value payload = read_json(r.text(row, first + 4), ec);
  if (ec || !payload.is_object())
    return make_error(errc::corrupt, which() + " has a payload that is not a JSON object");
  auto typed = decode_payload(type, payload.get_object());
  if (!typed) return make_error(errc::corrupt, which() + " does not decode: " + typed.err().message);
  ev.payload = std::move(*typed);
  return ev;
}

result<message_row> read_message(const rows& r, int row) {
  auto ev = read_event(r, row);
  if (!ev) return std::move(ev).err();
  // The dialog's row as it was just before the event, as far as a message depends on it.
  dialog_row before;
  before.id = ev->dialog_id;
  before.last_seq = ev->seq - 1;
  PARLEY_TRY_ASSIGN(before.course, r.integer(row, kEventColumnCount));
  auto step = apply_event(*ev, before);
  if (!step || !step->new_message) {
    return make_error(errc::corrupt, "message " + std::to_string(ev->seq) + " of dialog " + ev->dialog_id +
                                         " refers to an event (" + std::string(ev->type()) + ") that is not a message");
  }
  return std::move(*step->new_message);
}

result<input_record> read_input(const rows& r, int row) {
  input_record input;
  input.kind = r.text(row, 0) == "answer" ? input_kind::answer : input_kind::message;
  input.dialog_id = r.text(row, 1);
  PARLEY_TRY_ASSIGN(input.seq, r.integer(row, 2));
  input.from = r.text(row, 3);
  boost::system::error_code ec;
  const boost::json::value content = read_json(r.text(row, 4), ec);
  if (ec || !content.is_string()) {
    return make_error(errc::corrupt, "the input of dialog " + input.dialog_id + " at " + std::to_string(input.seq) +
                                         " has content that is not a JSON string");
  }
  input.content = std::string(content.get_string());
  input.question_id = r.text(row, 5);
  return input;
}

}  // namespace parley::pg
