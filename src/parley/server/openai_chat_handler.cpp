#include "parley/server/openai_chat_handler.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/this_coro.hpp>

#include <memory>
#include <optional>
#include <variant>
#include <vector>

#include "parley/engine/dialog_title.hpp"
#include "parley/server/dialog_answers.hpp"
#include "parley/server/openai_chat_request.hpp"
#include "parley/server/openai_wire.hpp"
#include "parley/server/rest_support.hpp"
#include "parley/server/store_reads.hpp"

namespace parley::server {

namespace asio = boost::asio;

namespace {

// What the request asks, checked before anything is written.
struct chat_plan {
  chat_request body;
  std::string member_id;
  std::optional<dialog_row> dialog;  // set: go on with this root dialog
};

// The dialog a request drives, and what follows its tree for this request.
using started_answer = followed_answer;

template <class T>
using or_refusal = std::variant<T, openai_error>;

// Every value handed to a coroutine below is named first: GCC 12 destroys a temporary built in the
// call of a coroutine inside a co_await expression twice.

asio::awaitable<void> send_refusal_with(response_sink& sink, openai_error error, header_list headers) {
  std::string body = error_json(error);
  co_await sink.send_json(error.status, std::move(headers), std::move(body));
}

asio::awaitable<void> send_refusal(response_sink& sink, openai_error error) {
  header_list none;
  co_await send_refusal_with(sink, std::move(error), std::move(none));
}

// One event of a stream; false once the client is gone.
asio::awaitable<bool> send_event(response_sink& sink, std::string event) {
  co_return co_await sink.stream(std::move(event));
}

openai_error model_not_found(const std::string& model) {
  return openai_error{404, "model: no model '" + model.substr(0, 100) + "'; GET /v1/models lists parley/<member id>",
                      "model", "model_not_found"};
}

openai_error dialog_not_found(const std::string& id) {
  return openai_error{
      404, std::string(kDialogIdHeader) + ": no dialog with id '" + id.substr(0, 100) + "'", {}, "dialog_not_found"};
}

// The root dialog the X-Parley-Dialog-Id header names, as the asking user may see it; another
// user's is as unknown as an id nobody made.
asio::awaitable<or_refusal<dialog_row>> dialog_to_go_on(server_context& context, const openai_request& request,
                                                        const std::string& member_id) {
  const std::string& id = *request.dialog_id;
  auto read = [&context, &id, who = request.who]() -> result<dialog_row> {
    auto row = load_dialog(context.log, id);
    if (!row) return row;
    if (!may_see(context, who, *row)) return make_error(errc::not_found, "no dialog");
    return row;
  };
  auto row = co_await read_store(context, std::move(read));
  if (!row) co_return row.err().code == errc::not_found ? dialog_not_found(id) : openai_error_of(row.err());
  if (row->kind != events::dialog_kind::root) {
    co_return openai_error{
        400,
        std::string(kDialogIdHeader) + ": dialog " + id + " is a subdialog; name its root " + row->root_id,
        {},
        "not_a_root_dialog"};
  }
  if (row->member_id != member_id) {
    co_return openai_error{
        400, "model: dialog " + id + " talks with parley/" + row->member_id + ", not parley/" + member_id, "model", {}};
  }
  co_return std::move(*row);
}

asio::awaitable<or_refusal<chat_plan>> plan_of(server_context& context, const openai_request& request) {
  auto body = parse_chat_request(request.body);
  if (!body) co_return invalid_request(body.err());
  const auto member_id = member_of_model(body->model);
  const auto* member = member_id ? context.engine.team().find_member(*member_id) : nullptr;
  // A flow member's dialogs are the flow layer's to run, not the engine's: not offered here.
  if (member == nullptr || member->kind != config::member_kind::llm) co_return model_not_found(body->model);
  chat_plan plan{std::move(*body), std::string(*member_id), std::nullopt};
  if (request.dialog_id) {
    auto dialog = co_await dialog_to_go_on(context, request, plan.member_id);
    if (auto* refused = std::get_if<openai_error>(&dialog)) co_return std::move(*refused);
    plan.dialog = std::move(std::get<dialog_row>(dialog));
  }
  const std::string text = plan.dialog ? last_user_text(plan.body) : first_message_of(plan.body);
  if (auto valid = context.engine.inputs().check_user_message(text); !valid) {
    co_return invalid_request(make_error(errc::invalid_argument, "messages: " + valid.err().message));
  }
  co_return plan;
}

// A new root dialog with the member, its first message the conversation so far.
asio::awaitable<or_refusal<started_answer>> start_new_dialog(server_context& context, const openai_request& request,
                                                             const chat_plan& plan) {
  // Titled by the message it answers, not by the transcript's heading above it.
  engine::new_dialog spec{plan.member_id, engine::title_from_message(last_user_text(plan.body)), {}};
  spec.humans = {request.who->id};
  spec.first_message = first_message_of(plan.body);
  spec.first_message_from = request.who->id;
  auto started = co_await start_followed_root(context, std::move(spec));
  if (!started) co_return openai_error_of(started.err());
  co_return std::move(*started);
}

// The last user message, posted to the dialog the header names; the answer is what follows it.
asio::awaitable<or_refusal<started_answer>> go_on_with_dialog(server_context& context, const openai_request& request,
                                                              const chat_plan& plan) {
  std::string root_id = plan.dialog->id;
  std::string text = last_user_text(plan.body);
  auto posted = co_await post_followed_message(context, std::move(root_id), std::move(text), request.who->id);
  if (!posted) co_return openai_error_of(posted.err());
  co_return std::move(*posted);
}

openai_error failed_drive(const std::string& root_id, const std::string& why) {
  return openai_error{502,
                      "dialog " + root_id + " stopped: " + why + " (POST /api/dialogs/" + root_id + "/resume)",
                      {},
                      "drive_failed",
                      "server_error"};
}

asio::awaitable<void> answer_whole(server_context& context, const completion_head& head, started_answer answer,
                                   response_sink& sink) {
  co_await context.engine.runs().wait_until_settled(answer.root_id);
  const auto& collector = *answer.collector;
  header_list headers{{kDialogIdHeader, answer.root_id}};
  if (collector.failure()) {
    auto refused = failed_drive(answer.root_id, *collector.failure());
    co_await send_refusal_with(sink, std::move(refused), std::move(headers));
    co_return;
  }
  const auto questions = co_await open_questions_of(context, answer.root_id);
  std::string content = collector.final_saying();
  content += questions_note(questions, !content.empty());
  std::string body = completion_json(head, content, collector.usage());
  co_await sink.send_json(200, std::move(headers), std::move(body));
}

// The deltas of a stream's chunks.
chunk_delta opening_delta() { return chunk_delta{true, std::string_view(), false}; }
chunk_delta text_delta(std::string_view text) { return chunk_delta{false, text, false}; }
chunk_delta closing_delta() { return chunk_delta{false, std::nullopt, true}; }

// Writes the root's saying as it comes; false once the client is gone.
asio::awaitable<bool> stream_saying(const completion_head& head, answer_collector& collector, bool usage_null,
                                    response_sink& sink) {
  for (;;) {
    if (collector.has_pending()) {
      const std::string text = collector.take_pending();
      std::string event = chunk_event(head, text_delta(text), usage_null);
      if (!co_await send_event(sink, std::move(event))) co_return false;
      continue;
    }
    if (collector.settled()) co_return true;
    co_await collector.changed().wait();
  }
}

asio::awaitable<void> answer_streamed(server_context& context, const completion_head& head, const chat_plan& plan,
                                      started_answer answer, response_sink& sink) {
  auto& collector = *answer.collector;
  const bool usage_null = plan.body.include_usage;
  // Beside the stream's writer, which may end first (its client gone).
  auto watcher = watch_settling(context.engine, answer.collector);
  asio::co_spawn(co_await asio::this_coro::executor, std::move(watcher), asio::detached);
  header_list headers{{kDialogIdHeader, answer.root_id}};
  if (!co_await sink.begin_stream(std::move(headers))) co_return;
  std::string opening = chunk_event(head, opening_delta(), usage_null);
  if (!co_await send_event(sink, std::move(opening))) co_return;
  if (!co_await stream_saying(head, collector, usage_null, sink)) co_return;
  if (collector.failure()) {
    // The header went out with 200: the failure is an error event, which OpenAI's clients raise.
    std::string failure = error_event(failed_drive(answer.root_id, *collector.failure()));
    if (co_await send_event(sink, std::move(failure))) co_await sink.end_stream();
    co_return;
  }
  const auto questions = co_await open_questions_of(context, answer.root_id);
  if (!questions.empty()) {
    const std::string note = questions_note(questions, collector.streamed_any());
    std::string event = chunk_event(head, text_delta(note), usage_null);
    if (!co_await send_event(sink, std::move(event))) co_return;
  }
  std::string closing = chunk_event(head, closing_delta(), usage_null);
  if (!co_await send_event(sink, std::move(closing))) co_return;
  if (plan.body.include_usage) {
    std::string usage = usage_event(head, collector.usage());
    if (!co_await send_event(sink, std::move(usage))) co_return;
  }
  std::string done(done_event());
  if (!co_await send_event(sink, std::move(done))) co_return;
  co_await sink.end_stream();
}

}  // namespace

asio::awaitable<void> answer_chat_completion(server_context& context, const openai_request& request,
                                             response_sink& sink) {
  if (context.answers == nullptr) {
    openai_error refused{
        503, "this server does not serve the OpenAI-compatible endpoint", {}, "unavailable", "server_error"};
    co_await send_refusal(sink, std::move(refused));
    co_return;
  }
  auto planned = co_await plan_of(context, request);
  if (auto* refused = std::get_if<openai_error>(&planned)) {
    co_await send_refusal(sink, std::move(*refused));
    co_return;
  }
  const auto& plan = std::get<chat_plan>(planned);
  or_refusal<started_answer> started = openai_error{};
  if (plan.dialog) {
    started = co_await go_on_with_dialog(context, request, plan);
  } else {
    started = co_await start_new_dialog(context, request, plan);
  }
  if (auto* refused = std::get_if<openai_error>(&started)) {
    co_await send_refusal(sink, std::move(*refused));
    co_return;
  }
  const auto head = new_completion_head(plan.body.model);
  auto answer = std::move(std::get<started_answer>(started));
  if (plan.body.stream) {
    co_await answer_streamed(context, head, plan, std::move(answer), sink);
  } else {
    co_await answer_whole(context, head, std::move(answer), sink);
  }
}

}  // namespace parley::server
