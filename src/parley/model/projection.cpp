#include "parley/model/projection.hpp"

#include "parley/model/event_codec.hpp"

namespace parley {
namespace {

namespace ev_t = events;

message_row message_from(const event& ev, const dialog_row& row, ev_t::message_role role, std::int64_t genseq = 0) {
  message_row msg;
  msg.dialog_id = ev.dialog_id;
  msg.seq = ev.seq;
  msg.course = row.course;
  msg.genseq = genseq;
  msg.role = role;
  msg.ts_ms = ev.ts_ms;
  return msg;
}

void decrement(std::int64_t& counter) {
  if (counter > 0) --counter;
}

// One function per event type that changes the projection; every other type (including those
// this binary does not know) only advances last_seq.
class projector {
 public:
  projector(const event& ev, dialog_row& row) : ev_(ev), row_(row) {}

  void operator()(const ev_t::dialog_created& p) {
    row_.id = ev_.dialog_id;
    row_.root_id = ev_.root_id;
    row_.parent_id = p.parent_id;
    row_.member_id = p.member_id;
    row_.kind = p.kind;
    row_.task_doc_path = p.task_doc_path;
    row_.title = p.title;
    row_.depth = p.depth;
    row_.call_kind = p.call;
    row_.session_slug = p.session_slug;
    row_.humans = p.humans;
    row_.members = p.members;
    row_.status = ev_t::dialog_status::running;
    row_.course = 1;
    row_.created_at_ms = ev_.ts_ms;
  }

  // A fork's row is its origin's at the cut, given whole by the event (docs/fork.md).
  void operator()(const ev_t::dialog_forked& p) {
    (*this)(p.created);
    row_.status = p.row.status;
    row_.course = p.row.course;
    row_.caller_id = p.row.caller_id;
    row_.last_genseq = p.row.last_genseq;
    row_.message_count = p.row.message_count;
    row_.open_questions = p.row.open_questions;
    row_.pending_subdialogs = p.row.pending_subdialogs;
    row_.input_tokens = p.row.input_tokens;
    row_.output_tokens = p.row.output_tokens;
    row_.needs_drive = p.row.needs_drive;
    row_.dead = p.row.dead;
    row_.last_error = p.row.last_error;
    row_.generating = false;
    row_.created_at_ms = p.row.created_at_ms;
  }

  void operator()(const ev_t::user_message& p) {
    message_row msg = message_from(ev_, row_, ev_t::message_role::user);
    msg.content = p.content;
    msg.origin = p.origin;
    msg.speaker = p.from;
    msg.attachment = p.media;
    if (p.assigned) row_.caller_id = p.assigned->caller_id;
    // In a group a message nobody is asked to answer is only relayed: no drive.
    if (!p.responder || !p.responder->empty()) row_.needs_drive = true;
    add_message(std::move(msg));
  }

  void operator()(const ev_t::generation_started& p) {
    row_.generating = true;
    row_.last_genseq = p.genseq;
  }

  void operator()(const ev_t::generation_finished& p) {
    message_row msg = message_from(ev_, row_, ev_t::message_role::assistant, p.genseq);
    msg.content = p.saying;
    msg.thinking = p.thinking;
    msg.thinking_signature = p.thinking_signature;
    msg.speaker = p.member_id.value_or("");
    msg.interrupted = p.interrupted;
    const bool has_calls = !p.tool_calls.empty();
    msg.tool_calls = p.tool_calls;
    row_.input_tokens += p.usage.input_tokens;
    row_.output_tokens += p.usage.output_tokens;
    row_.generating = false;
    // A finished generation with tool calls still owes their results, and input that arrived while
    // it ran is still unread; otherwise the drive is done.
    row_.needs_drive = !msg.interrupted && (has_calls || p.input_arrived);
    row_.last_error.clear();
    add_message(std::move(msg));
  }

  void operator()(const ev_t::tool_result& p) {
    message_row msg = message_from(ev_, row_, ev_t::message_role::tool, p.genseq);
    msg.content = p.content;
    msg.tool_call_id = p.call_id;
    msg.tool_name = p.name;
    msg.ok = p.ok;
    msg.tool_image = p.image;  // sent inline with the result (context_builder)
    row_.needs_drive = true;
    add_message(std::move(msg));
  }

  void operator()(const ev_t::drive_failed& p) {
    row_.generating = false;
    row_.needs_drive = false;
    row_.last_error = p.message;
  }

  void operator()(const ev_t::status_changed& p) {
    row_.status = p.status;
    if (p.status != ev_t::dialog_status::running) row_.needs_drive = false;
  }

  void operator()(const ev_t::course_started& p) {
    row_.course = p.course;
    row_.message_count = 0;
    row_.open_questions = 0;
    row_.pending_subdialogs = 0;
    step_.course_reset = true;
  }

  void operator()(const ev_t::tellask_called&) { ++row_.pending_subdialogs; }

  // A reply from another dialog: the result of the call that waited for it, or, when no call of
  // this course waits, a user message. Decoded from the event alone (see read_message).
  void operator()(const ev_t::reply_received& p) {
    if (p.awaited) decrement(row_.pending_subdialogs);
    row_.needs_drive = true;
    message_row msg = message_from(ev_, row_, p.call_id.empty() ? ev_t::message_role::user : ev_t::message_role::tool);
    msg.content = p.content;
    if (p.call_id.empty()) {
      msg.origin = ev_t::message_origin::reply;
    } else {
      msg.tool_call_id = p.call_id;
      msg.tool_name = std::string(ev_t::to_wire(p.name));
      msg.ok = p.ok;
    }
    add_message(std::move(msg));
  }

  void operator()(const ev_t::answer_delivered&) { ++row_.pending_subdialogs; }
  void operator()(const ev_t::question_asked&) { ++row_.open_questions; }
  void operator()(const ev_t::title_changed& p) { row_.title = p.title; }

  void operator()(const ev_t::question_answered& p) {
    decrement(row_.open_questions);
    row_.needs_drive = true;
    message_row msg = message_from(ev_, row_, ev_t::message_role::tool);
    msg.content = p.content;
    msg.tool_call_id = p.call_id;
    msg.tool_name = "askHuman";
    add_message(std::move(msg));
  }

  void operator()(const ev_t::declared_dead&) {
    // Like the dialog's state: a dead subdialog waits for nobody and nobody waits for its answers.
    row_.dead = true;
    row_.needs_drive = false;
    row_.generating = false;
    row_.open_questions = 0;
    row_.pending_subdialogs = 0;
  }

  void operator()(const ev_t::drive_resumed&) {
    row_.needs_drive = true;
    row_.last_error.clear();
  }

  // Nothing in the row: progress, discards, reminders, Taskdoc, health, quarantine stubs, the
  // records' events, and types this binary does not know.
  template <class Other>
  void operator()(const Other&) {}

  projection_step take() { return std::move(step_); }

 private:
  void add_message(message_row msg) {
    ++row_.message_count;
    step_.new_message = std::move(msg);
  }

  const event& ev_;
  dialog_row& row_;
  projection_step step_;
};

}  // namespace

result<projection_step> apply_event(const event& ev, dialog_row& row) {
  const bool creating = ev.is<ev_t::dialog_created>();
  if (creating && !row.id.empty()) {
    return make_error(errc::conflict, "dialog " + ev.dialog_id + " is created twice");
  }
  // A fork's own log starts after the events it shares with its origin: alone (a store's row) or
  // after them (the engine's replay of its whole history), it follows seq throughSeq.
  const auto* forked = ev.as<ev_t::dialog_forked>();
  if (!creating && forked == nullptr && row.id.empty()) {
    return make_error(errc::not_found, "event " + std::string(ev.type()) + " for unknown dialog " + ev.dialog_id);
  }
  const std::int64_t follows = forked != nullptr && row.id.empty() ? forked->through_seq : row.last_seq;
  if (forked != nullptr && (follows != forked->through_seq || forked->through_seq < 1)) {
    return make_error(errc::conflict, "dialog " + ev.dialog_id + ": a fork through seq " +
                                          std::to_string(forked->through_seq) + " follows seq " +
                                          std::to_string(row.last_seq));
  }
  if (ev.seq != follows + 1) {
    return make_error(errc::conflict, "dialog " + ev.dialog_id + ": event seq " + std::to_string(ev.seq) +
                                          " does not follow " + std::to_string(follows));
  }
  projector fold(ev, row);
  std::visit(fold, ev.payload);
  row.last_seq = ev.seq;
  row.updated_at_ms = ev.ts_ms;
  return fold.take();
}

}  // namespace parley
