#include "parley/model/projection.hpp"

#include <boost/json/array.hpp>
#include <boost/json/serialize.hpp>

#include "parley/core/json.hpp"

namespace parley {
namespace {

message_row message_from(const event& ev, const dialog_row& row, std::string role) {
  message_row msg;
  msg.dialog_id = ev.dialog_id;
  msg.seq = ev.seq;
  msg.course = row.course;
  msg.genseq = json_int_or(ev.payload, "genseq", 0);
  msg.role = std::move(role);
  msg.ts_ms = ev.ts_ms;
  return msg;
}

void apply_created(const event& ev, dialog_row& row) {
  row.id = ev.dialog_id;
  row.root_id = ev.root_id;
  row.parent_id = json_string_or(ev.payload, "parentId");
  row.member_id = json_string_or(ev.payload, "memberId");
  row.kind = json_string_or(ev.payload, "kind", "root");
  row.task_doc_path = json_string_or(ev.payload, "taskDocPath");
  row.title = json_string_or(ev.payload, "title");
  row.depth = json_int_or(ev.payload, "depth", 0);
  row.call_kind = json_string_or(ev.payload, "callKind");
  row.session_slug = json_string_or(ev.payload, "sessionSlug");
  row.humans = json_strings_at(ev.payload, "humans");
  row.members = json_strings_at(ev.payload, "members");
  row.status = "running";
  row.course = 1;
  row.created_at_ms = ev.ts_ms;
}

projection_step apply_generation_finished(const event& ev, dialog_row& row) {
  projection_step step;
  message_row msg = message_from(ev, row, "assistant");
  msg.content = json_string_or(ev.payload, "saying");
  msg.thinking = json_string_or(ev.payload, "thinking");
  msg.speaker = json_string_or(ev.payload, "memberId");
  msg.interrupted = json_bool_or(ev.payload, "interrupted");
  const auto* calls = json_array_at(ev.payload, "toolCalls");
  const bool has_calls = calls != nullptr && !calls->empty();
  if (has_calls) msg.tool_calls_json = boost::json::serialize(*calls);
  if (const auto* usage = json_object_at(ev.payload, "usage")) {
    row.input_tokens += json_int_or(*usage, "inputTokens");
    row.output_tokens += json_int_or(*usage, "outputTokens");
  }
  row.generating = false;
  // A finished generation with tool calls still owes their results, and input that arrived while
  // it ran is still unread; otherwise the drive is done.
  row.needs_drive = !msg.interrupted && (has_calls || json_bool_or(ev.payload, "inputArrived"));
  row.last_error.clear();
  ++row.message_count;
  step.new_message = std::move(msg);
  return step;
}

// A reply from another dialog: the result of the call that waited for it, or, when no call of
// this course waits, a user message. Decoded from the payload alone (see read_message).
message_row reply_message(const event& ev, const dialog_row& row) {
  const std::string call_id = json_string_or(ev.payload, "callId");
  message_row msg = message_from(ev, row, call_id.empty() ? "user" : "tool");
  msg.content = json_string_or(ev.payload, "content");
  if (call_id.empty()) {
    msg.origin = "reply";
  } else {
    msg.tool_call_id = call_id;
    msg.tool_name = json_string_or(ev.payload, "name");
    msg.ok = json_bool_or(ev.payload, "ok", true);
    // An image the tool read (read_file of a PNG): kept as the message's attachment, inline.
    if (const auto* image = json_object_at(ev.payload, "image")) {
      boost::json::object attachment = *image;
      attachment["kind"] = "image";
      msg.attachment = boost::json::serialize(attachment);
    }
  }
  return msg;
}

message_row answer_message(const event& ev, const dialog_row& row) {
  message_row msg = message_from(ev, row, "tool");
  msg.content = json_string_or(ev.payload, "content");
  msg.tool_call_id = json_string_or(ev.payload, "callId");
  msg.tool_name = "askHuman";
  return msg;
}

void decrement(std::int64_t& counter) {
  if (counter > 0) --counter;
}

}  // namespace

result<projection_step> apply_event(const event& ev, dialog_row& row) {
  const bool creating = ev.type == event_type::dialog_created;
  if (creating && !row.id.empty()) {
    return make_error(errc::conflict, "dialog " + ev.dialog_id + " is created twice");
  }
  if (!creating && row.id.empty()) {
    return make_error(errc::not_found, "event " + ev.type + " for unknown dialog " + ev.dialog_id);
  }
  if (ev.seq != row.last_seq + 1) {
    return make_error(errc::conflict, "dialog " + ev.dialog_id + ": event seq " + std::to_string(ev.seq) +
                                          " does not follow " + std::to_string(row.last_seq));
  }

  projection_step step;
  if (creating) {
    apply_created(ev, row);
  } else if (ev.type == event_type::user_message) {
    message_row msg = message_from(ev, row, "user");
    msg.content = json_string_or(ev.payload, "content");
    msg.origin = json_string_or(ev.payload, "origin", "user");
    msg.speaker = json_string_or(ev.payload, "from");
    if (const auto* attachment = json_object_at(ev.payload, "attachment")) {
      msg.attachment = boost::json::serialize(*attachment);
    }
    if (const auto* assignment = json_object_at(ev.payload, "assignment")) {
      row.caller_id = json_string_or(*assignment, "callerId");
    }
    // In a group a message nobody is asked to answer is only relayed: no drive.
    const auto* responder = ev.payload.if_contains("responder");
    if (responder == nullptr || !responder->is_string() || !responder->get_string().empty()) row.needs_drive = true;
    ++row.message_count;
    step.new_message = std::move(msg);
  } else if (ev.type == event_type::generation_started) {
    row.generating = true;
    row.last_genseq = json_int_or(ev.payload, "genseq", row.last_genseq + 1);
  } else if (ev.type == event_type::generation_finished) {
    step = apply_generation_finished(ev, row);
  } else if (ev.type == event_type::tool_result) {
    message_row msg = message_from(ev, row, "tool");
    msg.content = json_string_or(ev.payload, "content");
    msg.tool_call_id = json_string_or(ev.payload, "callId");
    msg.tool_name = json_string_or(ev.payload, "name");
    msg.ok = json_bool_or(ev.payload, "ok", true);
    // An image the tool read (read_file of a PNG): kept as the message's attachment, inline.
    if (const auto* image = json_object_at(ev.payload, "image")) {
      boost::json::object attachment = *image;
      attachment["kind"] = "image";
      msg.attachment = boost::json::serialize(attachment);
    }
    row.needs_drive = true;
    ++row.message_count;
    step.new_message = std::move(msg);
  } else if (ev.type == event_type::drive_failed) {
    row.generating = false;
    row.needs_drive = false;
    row.last_error = json_string_or(ev.payload, "message");
  } else if (ev.type == event_type::status_changed) {
    row.status = json_string_or(ev.payload, "status", row.status);
    if (row.status != "running") row.needs_drive = false;
  } else if (ev.type == event_type::course_started) {
    row.course = json_int_or(ev.payload, "course", row.course + 1);
    row.message_count = 0;
    row.open_questions = 0;
    row.pending_subdialogs = 0;
    step.course_reset = true;
  } else if (ev.type == event_type::tellask_called) {
    ++row.pending_subdialogs;
  } else if (ev.type == event_type::reply_received) {
    if (json_bool_or(ev.payload, "awaited")) decrement(row.pending_subdialogs);
    row.needs_drive = true;
    ++row.message_count;
    step.new_message = reply_message(ev, row);
  } else if (ev.type == event_type::answer_delivered) {
    ++row.pending_subdialogs;
  } else if (ev.type == event_type::question_asked) {
    ++row.open_questions;
  } else if (ev.type == event_type::question_answered) {
    decrement(row.open_questions);
    row.needs_drive = true;
    ++row.message_count;
    step.new_message = answer_message(ev, row);
  } else if (ev.type == event_type::declared_dead) {
    // Like the dialog's state: a dead subdialog waits for nobody and nobody waits for its answers.
    row.dead = true;
    row.needs_drive = false;
    row.generating = false;
    row.open_questions = 0;
    row.pending_subdialogs = 0;
  } else if (ev.type == event_type::drive_resumed) {
    row.needs_drive = true;
    row.last_error.clear();
  }
  row.last_seq = ev.seq;
  row.updated_at_ms = ev.ts_ms;
  return step;
}

}  // namespace parley
