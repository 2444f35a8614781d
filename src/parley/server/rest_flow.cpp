// A flow's dialog over REST: its thread as seed 004 shapes it (§1, §7.3: messages, settings with
// briefStatus.phase, sub-threads in meta._thread to any depth), a sub-thread by the seed's string
// path, and the user's messages handed to the flow host (flow_host.hpp). The thread is replayed
// from the dialog's events (flow/thread_replay.hpp), the same replay `parley show` reads.
#include "parley/server/rest_flow.hpp"

#include "parley/flow/sub_thread_path.hpp"
#include "parley/flow/thread_replay.hpp"
#include "parley/server/flow_host.hpp"
#include "parley/server/server_context.hpp"

namespace parley::server::rest {

namespace {

const flow::sub_thread_path kMainThread{};

// {dialogId, member, path, phase, completed, working, thread}: the thread at `path` with what a
// reader needs beside it — its phase, and whether the main flow is over or still on a step.
boost::json::object flow_view(const server_context& context, const dialog_row& row, flow::flow_thread& main,
                              const flow::sub_thread_path& path, const flow::flow_thread& shown) {
  return boost::json::object{{"dialogId", row.id},
                             {"member", row.member_id},
                             {"path", path.text()},
                             {"phase", shown.settings.phase},
                             {"completed", flow::is_completed(main.settings)},
                             {"working", context.flows != nullptr && context.flows->running(row.id)},
                             {"thread", flow::to_json(shown)}};
}

// The main thread of a flow's dialog; 404 for a dialog that holds none.
result<flow::flow_thread> read_flow_thread(server_context& context, const dialog_row& row) {
  auto events = context.log.read_events(row.id);
  if (!events) return std::move(events).err();
  if (!flow::is_flow_dialog(*events)) {
    return make_error(errc::not_found, "dialog " + row.id + " is not a flow's thread (its member is " + row.member_id +
                                           ", not a member of kind flow)");
  }
  return flow::replay_flow_thread(row.id, *events);
}

}  // namespace

bool is_flow_member(const server_context& context, std::string_view member_id) {
  return context.flows != nullptr && context.flows->is_flow_member(member_id);
}

handler_result get_flow_thread(server_context& context, const rest_request& request, std::string dialog_id) {
  auto row = find_dialog(context, request, dialog_id);
  if (!row) co_return error_response(row.err());
  for (const auto& [key, value] : request.query) {
    if (key != "path") co_return field_error(make_error(errc::invalid_argument, key + ": unknown parameter; use path"));
  }
  const auto asked = request.query.find("path");
  const std::string path_text = asked == request.query.end() ? std::string() : asked->second;
  auto path = flow::parse_sub_thread_path(path_text);
  if (!path) co_return field_error(make_error(errc::invalid_argument, "path: " + path.err().message));
  auto main = read_flow_thread(context, *row);
  if (!main) co_return error_response(main.err());
  auto shown = flow::get_sub_thread_by_path(*main, *path);
  if (!shown) co_return field_error(make_error(errc::invalid_argument, "path: " + shown.err().message));
  co_return json_response(200, flow_view(context, *row, *main, *path, **shown));
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
  std::vector<std::string> humans;
  humans.push_back(request.who->id);
  auto started = co_await context.flows->start(member_id, input.content, std::move(humans));
  if (!started) co_return error_response(started.err());
  auto row = find_dialog(context, request, started->id);
  if (!row) co_return error_response(row.err());
  co_return json_response(201,
                          boost::json::object{{"dialog", summary_of(context.log, *row)},
                                              {"flow", flow_view(context, *row, *started, kMainThread, *started)}});
}

handler_result post_flow_message(server_context& context, const dialog_row& row, const user_input& input,
                                 bool with_attachment) {
  if (with_attachment) {
    co_return field_error(
        make_error(errc::invalid_argument, "attachment: dialog " + row.id + " is a flow, which takes text only"));
  }
  auto said = co_await context.flows->say(row.member_id, row.id, input.content);
  if (!said) co_return error_response(said.err());  // a completed flow, or one still working: 409
  co_return json_response(
      200, boost::json::object{{"msgId", input.msg_id}, {"flow", flow_view(context, row, *said, kMainThread, *said)}});
}

}  // namespace parley::server::rest
