#include "parley/server/mcp_wait.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>

#include <memory>

#include "parley/server/mcp_progress.hpp"
#include "parley/server/mcp_protocol.hpp"
#include "parley/server/rest_support.hpp"
#include "parley/server/store_reads.hpp"

namespace parley::server {

namespace asio = boost::asio;

namespace {

enum class wait_end { settled, timed_out, stopped };

std::string progress_notification(const mcp_call_env& env, std::int64_t progress, std::string_view line) {
  boost::json::object params{{"progressToken", *env.progress_token}, {"progress", progress}};
  if (mcp_version_has_progress_message(env.version)) params["message"] = line;
  return mcp::serialize(mcp::rpc_notification{"notifications/progress", std::move(params)});
}

// Sends each new step (several that came at once as one notification, the latest line) and
// returns once the wait is over.
asio::awaitable<wait_end> wait_and_report(mcp_call_env& env, answer_collector& collector, const progress_steps& steps,
                                          const bool& timed_out) {
  std::int64_t told = 0;
  for (;;) {
    if (env.progress_token && steps.count() > told) {
      told = steps.count();
      std::string note = progress_notification(env, told, steps.latest());
      if (!co_await env.reply.notify(std::move(note))) co_return wait_end::stopped;
      continue;
    }
    if (env.cancel.cancelled()) co_return wait_end::stopped;
    if (collector.settled()) co_return wait_end::settled;
    if (timed_out) co_return wait_end::timed_out;
    co_await collector.changed().wait();
  }
}

// The root's last saying and its last failure, as the log has them.
struct root_as_logged {
  std::string saying;
  std::string last_error;
};

asio::awaitable<root_as_logged> read_root(server_context& context, std::string root_id) {
  auto read = [&log = context.log, id = std::move(root_id)]() -> root_as_logged {
    root_as_logged out;
    auto row = load_dialog(log, id);
    if (!row) return out;
    out.last_error = row->last_error;
    auto messages = log.messages(id, row->course);
    if (!messages) return out;
    for (auto it = messages->rbegin(); it != messages->rend(); ++it) {
      if (it->role == events::message_role::assistant && !it->content.empty() && !it->interrupted) {
        out.saying = it->content;
        break;
      }
    }
    return out;
  };
  co_return co_await read_store(context, std::move(read));
}

asio::awaitable<call_outcome> outcome_at_rest(mcp_call_env& env, const followed_answer& answer,
                                              const progress_steps& steps, call_outcome out, bool waiting_again) {
  const auto& collector = *answer.collector;
  out.answer = collector.final_saying();
  if (collector.failure()) {
    out.status = call_status::failed;
    out.error = *collector.failure();
    co_return out;
  }
  if (out.answer.empty() && waiting_again) {
    auto logged = co_await read_root(env.context, answer.root_id);
    out.answer = std::move(logged.saying);
    if (!logged.last_error.empty()) {
      out.status = call_status::failed;
      out.error = std::move(logged.last_error);
      co_return out;
    }
  }
  out.questions = co_await open_questions_of(env.context, answer.root_id);
  if (!out.questions.empty()) {
    out.status = call_status::waiting_for_human;
  } else if (out.answer.empty() && !steps.failure().empty()) {
    // A subdialog failed and the root, waiting for it, said nothing.
    out.status = call_status::failed;
    out.error = steps.failure();
  }
  co_return out;
}

}  // namespace

event_tap call_progress::tap() const {
  return [steps = steps](const event& ev) { return steps->take(ev); };
}

call_progress new_call_progress(std::string member_id) {
  return call_progress{std::make_shared<progress_steps>(std::move(member_id))};
}

asio::awaitable<std::optional<call_outcome>> wait_for_outcome(mcp_call_env& env, followed_answer answer,
                                                              call_progress progress, std::string member_id,
                                                              bool waiting_again) {
  auto& collector = *answer.collector;
  const auto steps = progress.steps;
  steps->add("working on dialog " + answer.root_id + " with @" + member_id);
  env.cancel.set_wake([shared = answer.collector] { shared->changed().notify_all(); });
  const auto executor = co_await asio::this_coro::executor;
  auto watcher = watch_settling(env.context.engine, answer.collector);
  asio::co_spawn(executor, std::move(watcher), asio::detached);
  auto timed_out = std::make_shared<bool>(false);
  asio::steady_timer deadline(executor, env.settings.call_timeout);
  deadline.async_wait([timed_out, shared = answer.collector](boost::system::error_code ec) {
    if (ec) return;
    *timed_out = true;
    shared->changed().notify_all();
  });
  const wait_end end = co_await wait_and_report(env, collector, *steps, *timed_out);
  deadline.cancel();
  env.cancel.set_wake({});
  collector.set_event_tap({});
  if (end == wait_end::stopped) co_return std::nullopt;
  call_outcome out;
  out.dialog_id = answer.root_id;
  out.member_id = std::move(member_id);
  if (end == wait_end::timed_out) {
    out.status = call_status::working;
    co_return out;
  }
  co_return co_await outcome_at_rest(env, answer, *steps, std::move(out), waiting_again);
}

}  // namespace parley::server
