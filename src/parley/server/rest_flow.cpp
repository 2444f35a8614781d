// A flow's dialog over REST: its thread as seed 004 shapes it (§1, §7.3: messages, settings with
// briefStatus.phase, sub-threads in meta._thread to any depth), a sub-thread by the seed's string
// path, and the user's messages handed to the flow host (flow_host.hpp). The thread is replayed
// from the dialog's events (flow/thread_replay.hpp), the same replay `parley show` reads.
#include "parley/server/rest_flow.hpp"

#include "parley/flow/sub_thread_path.hpp"
#include "parley/flow/thread_replay.hpp"
#include "parley/server/flow_host.hpp"
#include "parley/server/server_context.hpp"
#include "parley/server/store_reads.hpp"

namespace parley::server::rest {

namespace {

const flow::sub_thread_path kMainThread{};

// loadOperations of the flow's main agent: the extra tasks POST …/thread/tasks takes.
boost::json::array operations_json(const server_context& context, std::string_view member_id) {
  boost::json::array out;
  if (context.flows == nullptr) return out;
  for (const auto& operation : context.flows->operations(member_id)) {
    out.push_back(boost::json::object{{"name", operation.name},
                                      {"description", operation.description},
                                      {"withUserMessage", operation.with_user_message}});
  }
  return out;
}

// {dialogId, member, path, phase, completed, working, streaming, operations, thread}: the thread at
// `path` with what a reader needs beside it — its phase, whether the main flow is over or still on
// a step, the main thread's answer as it streams (not saved yet), and the extra tasks it takes.
boost::json::object flow_view(const server_context& context, const dialog_row& row, flow::flow_thread& main,
                              const flow::sub_thread_path& path, const flow::flow_thread& shown) {
  return boost::json::object{{"dialogId", row.id},
                             {"member", row.member_id},
                             {"path", path.text()},
                             {"phase", shown.settings.phase},
                             {"completed", flow::is_completed(main.settings)},
                             {"working", context.flows != nullptr && context.flows->running(row.id)},
                             {"streaming", context.flows != nullptr ? context.flows->streaming_text(row.id) : ""},
                             {"operations", operations_json(context, row.member_id)},
                             {"thread", flow::to_json(shown)}};
}

// The main thread of a flow's dialog; 404 for a dialog that holds none. Reads the log: called
// inside read_store.
result<flow::flow_thread> read_flow_thread(store& log, const dialog_row& row) {
  auto events = log.read_events(row.id);
  if (!events) return std::move(events).err();
  if (!flow::is_flow_dialog(*events)) {
    return make_error(errc::not_found, "dialog " + row.id + " is not a flow's thread (its member is " + row.member_id +
                                           ", not a member of kind flow)");
  }
  return flow::replay_flow_thread(row.id, *events);
}

// The request recorded with the message it brings (events::flow_input), when the client named it:
// an id the server made up is never sent again.
std::optional<events::flow_input> input_of(const rest_request& request, const user_input& input) {
  if (!input.msg_id_from_client) return std::nullopt;
  return events::flow_input{input.msg_id, request.who->id, input.content};
}

// The flow dialog a retry of `input` names: nullopt for a message the log does not hold yet, a
// conflict naming msgId for an id taken with another body, by another user or for another dialog.
boost::asio::awaitable<result<std::optional<std::string>>> flow_dialog_of_retry(server_context& context,
                                                                                const rest_request& request,
                                                                                const user_input& input,
                                                                                std::string dialog_id,
                                                                                std::string member_id) {
  if (!input.msg_id_from_client) co_return std::optional<std::string>{};
  const engine::sent_input sent{
      .msg_id = input.msg_id, .dialog_id = dialog_id, .from = request.who->id, .content = input.content};
  auto earlier = co_await context.engine.inputs().dialog_of_retry(sent);
  if (!earlier || !*earlier) co_return earlier;
  auto read_row = [&log = context.log, id = **earlier] { return log.get_dialog(id); };
  auto row = co_await read_store(context, std::move(read_row));
  if (!row) co_return std::move(row).err();
  if (!*row || (*row)->member_id != member_id) {
    co_return make_error(errc::conflict, "msgId: '" + input.msg_id + "' was already sent to another dialog");
  }
  co_return earlier;
}

}  // namespace

bool is_flow_member(const server_context& context, std::string_view member_id) {
  return context.flows != nullptr && context.flows->is_flow_member(member_id);
}

handler_result get_flow_thread(server_context& context, const rest_request& request, std::string dialog_id) {
  auto row = co_await read_dialog(context, request, dialog_id);
  if (!row) co_return error_response(row.err());
  for (const auto& [key, value] : request.query) {
    if (key != "path") co_return field_error(make_error(errc::invalid_argument, key + ": unknown parameter; use path"));
  }
  const auto asked = request.query.find("path");
  const std::string path_text = asked == request.query.end() ? std::string() : asked->second;
  auto path = flow::parse_sub_thread_path(path_text);
  if (!path) co_return field_error(make_error(errc::invalid_argument, "path: " + path.err().message));
  auto read_thread = [&log = context.log, &row = *row] { return read_flow_thread(log, row); };
  auto main = co_await read_store(context, std::move(read_thread));
  if (!main) co_return error_response(main.err());
  auto shown = flow::get_sub_thread_by_path(*main, *path);
  if (!shown) co_return field_error(make_error(errc::invalid_argument, "path: " + shown.err().message));
  co_return json_response(200, flow_view(context, *row, *main, *path, **shown));
}

namespace {

// The flow dialog a POST …/thread/… names, as its reader sees it: 404 when it is none of the user's
// or holds no flow.
boost::asio::awaitable<result<dialog_row>> flow_dialog_row(server_context& context, const rest_request& request,
                                                           const std::string& dialog_id) {
  auto row = co_await read_dialog(context, request, dialog_id);
  if (!row) co_return std::move(row).err();
  if (!is_flow_member(context, row->member_id)) {
    co_return make_error(errc::not_found, "dialog " + dialog_id + " is not a flow's thread (its member is " +
                                              row->member_id + ", not a member of kind flow)");
  }
  co_return std::move(*row);
}

const std::string_view kRetryFields[] = {"content"};
const std::string_view kTaskFields[] = {"name", "message", "meta"};

result<flow::task_request> read_task_request(const boost::json::object& body) {
  PARLEY_TRY(only_fields(body, kTaskFields));
  auto name = required_text(body, "name");
  if (!name) return std::move(name).err();
  auto message = optional_text(body, "message");
  if (!message) return std::move(message).err();
  flow::task_request out{std::move(*name), std::move(*message), {}};
  if (const auto* meta = body.if_contains("meta")) {
    if (!meta->is_object()) return make_error(errc::invalid_argument, "meta: expected an object");
    out.meta = meta->get_object();
  }
  return out;
}

}  // namespace

handler_result post_flow_retry(server_context& context, const rest_request& request, std::string dialog_id) {
  auto row = co_await flow_dialog_row(context, request, dialog_id);
  if (!row) co_return error_response(row.err());
  rest_response failure;
  auto body = parse_body_object(request.body, false, failure);
  if (!body) co_return failure;
  if (auto known = only_fields(*body, kRetryFields); !known) co_return field_error(known.err());
  auto content = required_text(*body, "content");
  if (!content) co_return field_error(content.err());
  auto retried = co_await context.flows->retry(row->member_id, dialog_id, std::move(*content));
  if (!retried) co_return error_response(retried.err());
  co_return json_response(200,
                          boost::json::object{{"flow", flow_view(context, *row, *retried, kMainThread, *retried)}});
}

handler_result post_flow_task(server_context& context, const rest_request& request, std::string dialog_id) {
  auto row = co_await flow_dialog_row(context, request, dialog_id);
  if (!row) co_return error_response(row.err());
  rest_response failure;
  auto body = parse_body_object(request.body, false, failure);
  if (!body) co_return failure;
  auto task = read_task_request(*body);
  if (!task) co_return field_error(task.err());
  auto ran = co_await context.flows->run_task(row->member_id, dialog_id, std::move(*task));
  if (!ran) co_return error_response(ran.err());
  co_return json_response(200, boost::json::object{{"flow", flow_view(context, *row, *ran, kMainThread, *ran)}});
}

handler_result create_flow_dialog(server_context& context, const rest_request& request, std::string member_id,
                                  const user_input& input, bool with_attachment, bool with_task_doc) {
  if (with_attachment) {
    co_return field_error(
        make_error(errc::invalid_argument, "attachment: member " + member_id + " is a flow, which takes text only"));
  }
  if (with_task_doc) {
    co_return field_error(
        make_error(errc::invalid_argument, "taskDocPath: member " + member_id + " is a flow, which has no Taskdoc"));
  }
  auto earlier = co_await flow_dialog_of_retry(context, request, input, std::string(), member_id);
  if (!earlier) co_return error_response(earlier.err());
  std::vector<std::string> humans;
  humans.push_back(request.who->id);
  // Named, not built inside the co_await (GCC 12 miscompiles such temporaries).
  auto recorded = input_of(request, input);
  result<flow::flow_thread> started = make_error(errc::internal, "the flow was not started");
  if (*earlier) {
    started = co_await context.flows->retried(member_id, **earlier);
  } else {
    started = co_await context.flows->start(member_id, input.content, std::move(humans), std::move(recorded));
  }
  if (!started) co_return error_response(started.err());
  auto row = co_await read_dialog(context, request, started->id);
  if (!row) co_return error_response(row.err());
  auto summary = co_await read_summary(context, *row);
  co_return json_response(201,
                          boost::json::object{{"dialog", std::move(summary)},
                                              {"flow", flow_view(context, *row, *started, kMainThread, *started)}});
}

handler_result post_flow_message(server_context& context, const rest_request& request, const dialog_row& row,
                                 const user_input& input, bool with_attachment) {
  if (with_attachment) {
    co_return field_error(
        make_error(errc::invalid_argument, "attachment: dialog " + row.id + " is a flow, which takes text only"));
  }
  auto earlier = co_await flow_dialog_of_retry(context, request, input, row.id, row.member_id);
  if (!earlier) co_return error_response(earlier.err());
  auto recorded = input_of(request, input);
  result<flow::flow_thread> said = make_error(errc::internal, "the message was not said");
  if (*earlier) {
    said = co_await context.flows->retried(row.member_id, row.id);
  } else {
    said = co_await context.flows->say(row.member_id, row.id, input.content, std::move(recorded));
  }
  if (!said) co_return error_response(said.err());  // a completed flow, or one still working: 409
  co_return json_response(
      200, boost::json::object{{"msgId", input.msg_id}, {"flow", flow_view(context, row, *said, kMainThread, *said)}});
}

}  // namespace parley::server::rest
