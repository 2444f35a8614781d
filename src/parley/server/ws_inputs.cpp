#include "parley/server/ws_inputs.hpp"

#include <limits>

#include "parley/core/json_fields.hpp"
#include "parley/server/flow_host.hpp"
#include "parley/server/pubchan.hpp"
#include "parley/server/request_reader.hpp"
#include "parley/server/rest_support.hpp"
#include "parley/server/store_reads.hpp"
#include "parley/server/tree_inputs.hpp"

namespace parley::server {

bool is_input_packet(client_packet_type type) {
  switch (type) {
    case client_packet_type::drive_dlg_by_user_msg:
    case client_packet_type::drive_dialog_by_user_answer:
    case client_packet_type::interrupt:
    case client_packet_type::resume:
    case client_packet_type::declare_subdialog_dead:
      return true;
    case client_packet_type::hello:
    case client_packet_type::subscribe:
    case client_packet_type::unsubscribe:
      return false;
  }
  return false;
}

const char* wire_error_code(errc code) {
  switch (code) {
    case errc::invalid_argument:
      return "bad_field";
    case errc::not_found:
      return "not_found";
    case errc::conflict:
      return "conflict";
    case errc::limit_exceeded:
      return "too_large";
    case errc::storage_full:
      return "storage_full";
    case errc::unavailable:
      return "unavailable";
    default:
      return "internal";
  }
}

namespace {

// The input packets as typed requests. The protocol table (wire_schema.cpp) has already checked
// which fields a packet has and their JSON kinds — and owns what an unknown field means — so these
// read the values the engine takes, with its limits, and ignore the rest (`type`, `dialog`).
constexpr std::size_t kMaxIdBytes = 200;

struct user_message_packet {
  std::string content;
  std::string msg_id;

  template <class S, class R>
  static void fields(S& s, R& r) {
    r.text("content", s.content, std::numeric_limits<std::size_t>::max());  // the engine's limit, below
    r.name("msgId", s.msg_id, kMaxIdBytes);
  }
};

struct user_answer_packet {
  std::string content;
  std::string msg_id;
  std::string question_id;

  template <class S, class R>
  static void fields(S& s, R& r) {
    r.text("content", s.content, std::numeric_limits<std::size_t>::max());
    r.name("msgId", s.msg_id, kMaxIdBytes);
    r.required_name("questionId", s.question_id, kMaxIdBytes);
  }
};

struct declare_dead_packet {
  std::string reason;

  template <class S, class R>
  static void fields(S& s, R& r) {
    r.text("reason", s.reason);
  }
};

}  // namespace

namespace {

// Whether `who` may see a dialog the engine holds, when memory can tell: always with one user; a
// root by its people; a subdialog by its root's, if the engine holds that too.
std::optional<bool> visible_in_memory(server_context& context, const user& who, const dialog_row& row) {
  if (!context.users.multi_user()) return true;
  if (row.parent_id.empty()) return context.users.may_see(who, row);
  if (const auto* root = context.engine.find(row.root_id)) return context.users.may_see(who, root->row());
  return std::nullopt;
}

}  // namespace

boost::asio::awaitable<result<dialog_row>> check_dialog(server_context& context, const user& who,
                                                        std::string dialog_id) {
  if (const auto* running = context.engine.find(dialog_id)) {
    auto row = running->row();
    if (visible_in_memory(context, who, row).value_or(false)) co_return row;
  }
  auto read = [&context, &who, &dialog_id]() -> result<dialog_row> {
    auto row = context.log.get_dialog(dialog_id);
    if (!row) return std::move(row).err();
    // Another user's dialog is answered like an unknown one.
    if (!row->has_value() || !may_see(context, &who, **row)) {
      return make_error(errc::not_found, "dialog.selfId: no dialog '" + dialog_id + "'");
    }
    return std::move(**row);
  };
  co_return co_await read_store(context, std::move(read));
}

namespace {

// Seed 001 names the field: the question must be open in that dialog.
// The dialog exists (check_dialog), so "not found" from the engine is the question: not open.
result<void> named_question_problem(result<void> answered, const std::string& dialog_id,
                                    const std::string& question_id) {
  if (answered || answered.err().code != errc::not_found) return answered;
  return make_error(errc::conflict, "questionId: no open question " + question_id + " in dialog " + dialog_id);
}

result<void> check_content(server_context& context, std::string_view content) {
  if (auto valid = context.engine.inputs().check_user_message(content); !valid) {
    return make_error(errc::invalid_argument, "content: " + valid.err().message);
  }
  return ok();
}

// A flow's dialog (seed 004) is not the engine's to drive: its messages go to the flow host over
// REST, which answers once the flow waits again.
result<void> refuse_flow_dialog(server_context& context, const dialog_row& row) {
  if (context.flows != nullptr && context.flows->is_flow_member(row.member_id)) {
    return make_error(errc::conflict, "dialog.selfId: dialog " + row.id + " is a flow of member " + row.member_id +
                                          "; post its messages with POST /api/dialogs/" + row.id + "/messages");
  }
  return ok();
}

}  // namespace

boost::asio::awaitable<result<void>> run_input(server_context& context, const user& who, client_packet_type type,
                                               boost::json::object packet) {
  // decode_client_packet read dialog.selfId strictly before the packet came here.
  json_fields in(packet);
  const auto* dialog = in.object("dialog");
  std::string dialog_id;
  if (dialog != nullptr) {
    auto dialog_fields = in.nested(*dialog, "dialog");
    dialog_id = dialog_fields.string("selfId");
    in.adopt(dialog_fields);
  }
  if (!in.ok()) co_return make_error(errc::invalid_argument, in.message());
  auto row = co_await check_dialog(context, who, dialog_id);
  if (!row) co_return std::move(row).err();
  if (type != client_packet_type::interrupt) PARLEY_CO_TRY(refuse_flow_dialog(context, *row));
  // The drive's state packets say whether each dialog has children: known before it starts.
  co_await context.channels.learn_hierarchy(row->root_id);
  switch (type) {
    case client_packet_type::drive_dlg_by_user_msg: {
      auto input = read_request<user_message_packet>(packet, unknown_fields::ignore);
      if (!input) co_return std::move(input).err();
      PARLEY_CO_TRY(check_content(context, input->content));
      auto posted =
          co_await post_message_via(context.inputs, context.engine, *row, input->content, input->msg_id, who.id);
      if (!posted) co_return std::move(posted).err();
      co_return ok();
    }
    case client_packet_type::drive_dialog_by_user_answer: {
      auto input = read_request<user_answer_packet>(packet, unknown_fields::ignore);
      if (!input) co_return std::move(input).err();
      engine::user_answer answer{
          dialog_id, std::move(input->content), std::move(input->msg_id), std::move(input->question_id), "answer",
          who.id};
      PARLEY_CO_TRY(check_content(context, answer.content));
      // The engine tells a retry of a taken answer (the question is then closed) from a question
      // that was never open; only the latter is refused.
      const std::string question_id = answer.question_id;
      auto answered = co_await answer_via(context.inputs, context.engine, *row, std::move(answer));
      result<void> outcome = ok();
      if (!answered) outcome = std::move(answered).err();
      co_return named_question_problem(std::move(outcome), dialog_id, question_id);
    }
    case client_packet_type::interrupt:
      co_return context.engine.runs().stop(dialog_id, "stopped by " + who.id);
    case client_packet_type::resume:
      co_return co_await context.engine.runs().resume(dialog_id);
    case client_packet_type::declare_subdialog_dead: {
      auto input = read_request<declare_dead_packet>(packet, unknown_fields::ignore);
      if (!input) co_return std::move(input).err();
      co_return co_await context.engine.questions().declare_subdialog_dead(dialog_id, std::move(input->reason));
    }
    case client_packet_type::hello:
    case client_packet_type::subscribe:
    case client_packet_type::unsubscribe:
      break;  // the session answers these itself
  }
  co_return make_error(errc::invalid_argument, "type: '" + std::string(to_name(type)) + "' is not an input packet");
}

}  // namespace parley::server
