// Input that drives a dialog (a message, an answer, resume), stopping it, and giving up on a
// subdialog. Each answers once the engine has made the input durable; the drive itself runs in the
// background on the engine's executor.
#include <boost/asio/this_coro.hpp>

#include <array>
#include <limits>
#include <map>
#include <optional>

#include "parley/server/dialog_requests.hpp"
#include "parley/server/flow_host.hpp"
#include "parley/server/rest_flow.hpp"
#include "parley/server/rest_handlers.hpp"
#include "parley/server/rest_replay.hpp"
#include "parley/server/rest_support.hpp"
#include "parley/server/tree_inputs.hpp"

namespace parley::server::rest {

namespace {

// `{reason?}`: why a human stops work (interrupt, stop all), recorded with the stop.
struct stop_request {
  std::string reason;

  template <class S, class R>
  static void fields(S& s, R& r) {
    r.text("reason", s.reason, 500);
  }
};

// "stopped by <user><how>: <reason>", as the log records the stop.
std::string stop_reason_of(const rest_request& request, const stop_request& body, std::string_view how = "") {
  const std::string by =
      "stopped by " + (request.who != nullptr ? request.who->id : std::string("a human")) + std::string(how);
  return body.reason.empty() ? by : by + ": " + body.reason;
}

// `POST .../complete|archive|reopen` take no fields.
struct no_fields_request {
  template <class S, class R>
  static void fields(S&, R&) {}
};

// `POST .../dead`: why the subdialog is given up on (optional).
struct declare_dead_request {
  std::string reason;

  template <class S, class R>
  static void fields(S& s, R& r) {
    r.text("reason", s.reason);
  }
};

// `POST .../answer`: the answer to an open question (seed 001's Q4H).
struct answer_request {
  std::string question_id;
  std::optional<std::string> content;
  std::string msg_id;

  template <class S, class R>
  static void fields(S& s, R& r) {
    r.required_name("questionId", s.question_id);
    r.message_text("content", s.content, std::numeric_limits<std::size_t>::max());  // the engine's limit applies
    r.name("msgId", s.msg_id, std::numeric_limits<std::size_t>::max());             // to_user_input's limit applies
  }
};

// `forwarded`: another node drives the dialog's tree, and the input waits in the store for it.
boost::json::object accepted(const std::string& msg_id, input_route route) {
  boost::json::object out{{"accepted", true}};
  if (!msg_id.empty()) out["msgId"] = msg_id;
  if (route == input_route::forwarded) out["forwarded"] = true;
  return out;
}

}  // namespace

handler_result post_message(server_context& context, const rest_request& request, std::string dialog_id) {
  auto row = co_await read_dialog(context, request, dialog_id);
  if (!row) co_return error_response(row.err());
  rest_response failure;
  auto body = read_body<post_message_request>(request, false, failure);
  if (!body) co_return failure;
  auto input = to_user_input(context.engine, body->content, std::move(body->msg_id), body->attachment.has_value(),
                             request.idempotency_key);
  if (!input) co_return field_error(input.err());
  if (is_flow_member(context, row->member_id)) {
    co_return co_await post_flow_message(context, request, *row, *input, body->attachment.has_value());
  }
  auto attachment = read_attachment(context, request, body->attachment);
  if (!attachment) co_return field_error(attachment.err());
  if (auto shared = share_attachment(context, *attachment, row->root_id); !shared)
    co_return error_response(shared.err());
  // A replay's tree takes input through its own engine (docs/fork.md "Replay"), on this node.
  auto replay = co_await replay_run_for(context, *row);
  if (!replay) co_return error_response(replay.err());
  auto* inputs = *replay ? nullptr : context.inputs;
  auto& eng = *replay ? *(*replay)->eng : context.engine;
  auto posted = co_await post_message_via(inputs, eng, *row, input->content, input->msg_id, request.who->id,
                                          std::move(*attachment));
  if (!posted) co_return error_response(posted.err());
  if (*replay) {
    auto executor = co_await boost::asio::this_coro::executor;
    settle_replay_later(executor, std::move(*replay), row->root_id);
  }
  co_return json_response(202, accepted(input->msg_id, *posted));
}

handler_result post_answer(server_context& context, const rest_request& request, std::string dialog_id) {
  auto row = co_await read_dialog(context, request, dialog_id);
  if (!row) co_return error_response(row.err());
  rest_response failure;
  auto body = read_body<answer_request>(request, false, failure);
  if (!body) co_return failure;
  auto input = to_user_input(context.engine, body->content, std::move(body->msg_id), false, request.idempotency_key);
  if (!input) co_return field_error(input.err());
  engine::user_answer answer{dialog_id, input->content, input->msg_id, body->question_id, "answer", request.who->id};
  auto replay = co_await replay_run_for(context, *row);
  if (!replay) co_return error_response(replay.err());
  auto* inputs = *replay ? nullptr : context.inputs;
  auto& eng = *replay ? *(*replay)->eng : context.engine;
  auto answered = co_await answer_via(inputs, eng, *row, std::move(answer));
  if (!answered) {
    // The dialog exists (checked above), so "not found" can only be the question: it is not open.
    if (answered.err().code == errc::not_found) co_return error_response(409, "conflict", answered.err().message);
    co_return error_response(answered.err());
  }
  if (*replay) {
    auto executor = co_await boost::asio::this_coro::executor;
    settle_replay_later(executor, std::move(*replay), row->root_id);
  }
  co_return json_response(202, accepted(input->msg_id, *answered));
}

handler_result post_interrupt(server_context& context, const rest_request& request, std::string dialog_id) {
  auto row = co_await read_dialog(context, request, dialog_id);
  if (!row) co_return error_response(row.err());
  rest_response failure;
  const auto body = read_body<stop_request>(request, true, failure);
  if (!body) co_return failure;
  // Nothing running is not an error for the client: the dialog is stopped either way. A dialog not
  // in memory runs nothing, and is not read back into memory on the loop just to say so.
  if (context.engine.find(dialog_id) == nullptr) co_return json_response(200, boost::json::object{{"stopped", false}});
  const auto stopped = context.engine.runs().stop(dialog_id, stop_reason_of(request, *body));
  if (!stopped && stopped.err().code != errc::conflict) co_return error_response(stopped.err());
  co_return json_response(200, boost::json::object{{"stopped", stopped.has_value()}});
}

handler_result post_stop_all(server_context& context, const rest_request& request, std::string /*dialog_id*/) {
  rest_response failure;
  const auto body = read_body<stop_request>(request, true, failure);
  if (!body) co_return failure;
  const std::string reason = stop_reason_of(request, *body, " (stop all)");
  std::vector<dialog_row> running;
  for (const auto& id : context.engine.runs().running_dialogs()) {
    if (const auto* runtime = context.engine.find(id)) running.push_back(runtime->row());
  }
  // Only what the asker may see: under --users, one user's stop all leaves the others' work.
  const auto visible = co_await read_visible_ids(context, request, std::move(running));
  boost::json::array stopped;
  for (const auto& id : visible) {
    if (context.engine.runs().stop(id, reason)) stopped.emplace_back(id);
  }
  co_return json_response(200, boost::json::object{{"stopped", std::move(stopped)}});
}

namespace {

// Resumes the dialog with the engine of its tree: the replay's, kept until the tree settles, or the
// served one. A replay's tree already driving is resumed by the engine driving it, never a second.
boost::asio::awaitable<result<void>> resume_with_its_engine(server_context& context, const dialog_row& row,
                                                            std::string dialog_id) {
  auto replay = co_await replay_run_for(context, row);
  if (!replay) co_return std::move(replay).err();
  auto& eng = *replay ? *(*replay)->eng : context.engine;
  PARLEY_CO_TRY(co_await eng.runs().resume(std::move(dialog_id)));
  if (*replay) {
    auto executor = co_await boost::asio::this_coro::executor;
    settle_replay_later(executor, std::move(*replay), row.root_id);
  }
  co_return ok();
}

}  // namespace

handler_result post_resume_all(server_context& context, const rest_request& request, std::string /*dialog_id*/) {
  boost::json::array resumed;
  boost::json::array refused;
  std::vector<dialog_row> candidates;
  std::map<std::string, dialog_row, std::less<>> rows;
  for (const auto& id : co_await context.engine.runs().resumable_dialogs_async()) {
    if (const auto* runtime = context.engine.find(id)) {
      candidates.push_back(runtime->row());
      rows.emplace(id, runtime->row());
    }
  }
  const auto visible = co_await read_visible_ids(context, request, std::move(candidates));
  for (const auto& id : visible) {
    // A replay's dialog goes on with the replay's engine, as POST .../resume does (docs/fork.md).
    auto done = co_await resume_with_its_engine(context, rows.at(id), id);
    if (done) {
      resumed.emplace_back(id);
    } else {
      // It changed since it was listed (a drive took it, a human answered): said, not fatal.
      refused.emplace_back(boost::json::object{{"id", id}, {"message", done.err().message}});
    }
  }
  co_return json_response(200, boost::json::object{{"resumed", std::move(resumed)}, {"refused", std::move(refused)}});
}

handler_result post_resume(server_context& context, const rest_request& request, std::string dialog_id) {
  auto row = co_await read_dialog(context, request, dialog_id);
  if (!row) co_return error_response(row.err());
  auto resumed = co_await resume_with_its_engine(context, *row, dialog_id);
  if (!resumed) co_return error_response(resumed.err());
  co_return json_response(202, boost::json::object{{"accepted", true}});
}

handler_result post_dead(server_context& context, const rest_request& request, std::string dialog_id) {
  auto row = co_await read_dialog(context, request, dialog_id);
  if (!row) co_return error_response(row.err());
  rest_response failure;
  const auto body = read_body<declare_dead_request>(request, true, failure);
  if (!body) co_return failure;
  if (row->kind != events::dialog_kind::sub) {
    co_return error_response(400, "bad_request",
                             "dialog " + dialog_id + " is a root dialog; only a subdialog can be declared dead");
  }
  auto declared = co_await context.engine.questions().declare_subdialog_dead(dialog_id, body->reason);
  if (!declared) co_return error_response(declared.err());
  auto updated = co_await read_dialog_summary(context, request, dialog_id);
  if (!updated) co_return error_response(updated.err());
  co_return json_response(200, boost::json::object{{"dialog", std::move(*updated)}});
}

namespace {

handler_result set_root_status(server_context& context, const rest_request& request, std::string dialog_id,
                               events::dialog_status to) {
  auto row = co_await read_dialog(context, request, dialog_id);
  if (!row) co_return error_response(row.err());
  rest_response failure;
  if (!read_body<no_fields_request>(request, true, failure)) co_return failure;
  // A flow's dialog is written by its flow host alone, so its status changes go through it too.
  // (An if, not a conditional expression: GCC 12 miscompiles co_await inside one.)
  result<void> changed = ok();
  if (is_flow_member(context, row->member_id)) {
    changed = co_await context.flows->set_status(row->member_id, dialog_id, to);
  } else {
    changed = co_await context.engine.lifecycle().set_root_status(dialog_id, to);
  }
  if (!changed) co_return error_response(changed.err());
  auto updated = co_await read_dialog_summary(context, request, dialog_id);
  if (!updated) co_return error_response(updated.err());
  co_return json_response(200, boost::json::object{{"dialog", std::move(*updated)}});
}

}  // namespace

handler_result post_complete(server_context& context, const rest_request& request, std::string dialog_id) {
  return set_root_status(context, request, std::move(dialog_id), events::dialog_status::completed);
}

handler_result post_archive(server_context& context, const rest_request& request, std::string dialog_id) {
  return set_root_status(context, request, std::move(dialog_id), events::dialog_status::archived);
}

handler_result post_reopen(server_context& context, const rest_request& request, std::string dialog_id) {
  return set_root_status(context, request, std::move(dialog_id), events::dialog_status::running);
}

}  // namespace parley::server::rest
