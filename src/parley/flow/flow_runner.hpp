// The host's side of a flow: what seed 004 leaves to "the system" around BaseAgent. It starts a
// main thread, takes the user's messages, and runs the flow's tasks one after another until the
// flow waits for the user again:
//   a user message is saved together with the task it creates (settings._pendingTasks), in one
//   event; each task's result — the bot message unless skipBotMessageCreation, the task taken off
//   the list and the response's next tasks put on it — is saved in one event too.
// So the log always says what is left to do, and `resume` after a crash runs exactly that. A task
// that fails leaves the thread as its last durable step left it (the in-memory thread is read back
// from the log) and stays pending, to be resumed or retried.
#pragma once

#include <boost/asio/awaitable.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/flow/ai_adapter.hpp"
#include "parley/flow/base_agent.hpp"
#include "parley/flow/host_utils.hpp"
#include "parley/flow/thread_repository.hpp"

namespace parley::flow {

// Builds the main agent of a thread (ArticleCreationAgent.create(metadata, settings)).
using main_agent_factory = std::function<result<std::unique_ptr<base_agent>>(const thread_settings& settings)>;

// How a main thread is started: who may see it, the client's request that brought its first
// message (recorded with it, so a retry finds the thread), and its id when the caller must know it
// before the flow runs (empty: a new one).
struct thread_start {
  std::vector<std::string> humans;
  std::optional<events::flow_input> input;
  std::string thread_id;
};

// An extra task a client asks of a waiting flow (one of its agent's loadOperations), e.g.
// {name: "chatPair", message: "Hi", meta: {bot: "Hello"}}.
struct task_request {
  std::string name;
  std::string message;
  boost::json::object meta;
};

struct flow_step_observer {
  std::function<void(const flow_thread&, const task&)> on_task_done;  // after each task's save
};

class flow_runner {
 public:
  flow_runner(thread_repository& repository, ai_adapter& ai, main_agent_factory factory, std::string member_id)
      : repository_(repository),
        ai_(ai),
        host_{repository, ai},
        factory_(std::move(factory)),
        member_id_(std::move(member_id)) {
    // What the flow wrote since its last model call goes to the log before the next one.
    ai_.set_before_call([&repository] { repository.send_held(); });
  }

  // A new main thread whose first message is `text` from the user; runs until the flow waits.
  boost::asio::awaitable<result<flow_thread>> start(std::string_view text, thread_start how);
  // A new main thread with no people and no client input (the CLI's). An overload, not a default
  // argument: GCC 12 frees a defaulted aggregate argument of a coroutine wrongly.
  boost::asio::awaitable<result<flow_thread>> start(std::string_view text);
  // The user says `text` in a waiting flow; runs until it waits again. `ui_action` "retry" marks the
  // task as a retry (the suggestion is dropped, not applied). With `input` (the client's request)
  // the message is durable, and recorded with it, before the flow runs.
  boost::asio::awaitable<result<flow_thread>> say(std::string_view thread_id, std::string_view text,
                                                  std::string_view ui_action, std::optional<events::flow_input> input);
  // Without a client's input (overloads rather than default arguments, as for start).
  boost::asio::awaitable<result<flow_thread>> say(std::string_view thread_id, std::string_view text,
                                                  std::string_view ui_action = {});
  // Runs the extra task `request` (an operation the main agent lists in loadOperations) in a waiting
  // flow; its message becomes a user message first unless the operation says otherwise. A name the
  // agent does not list is refused, naming the ones it does, with nothing written.
  boost::asio::awaitable<result<flow_thread>> run_task(std::string_view thread_id, task_request request);
  // loadOperations of the main agent.
  result<std::vector<flow_operation>> operations() const;
  // Runs what the log says is left to do (after a crash or a failed step).
  boost::asio::awaitable<result<flow_thread>> resume(std::string_view thread_id);
  // Completes, archives or reopens the flow's dialog, as for any root: a conflict when it already
  // has that status, when an archived dialog would be completed, when a step is still pending, or
  // when a flow that reached its completed phase would be reopened (it takes no more messages).
  // A flow that reaches its completed phase completes its dialog itself.
  boost::asio::awaitable<result<void>> set_status(std::string_view thread_id, events::dialog_status to);

  // Bound on tasks per run: a flow that keeps adding next tasks is stopped with an error.
  std::size_t max_tasks = 256;
  flow_step_observer observer;

 private:
  boost::asio::awaitable<result<void>> run_pending(flow_thread& main);
  // The dialog of a flow that has just reached its completed phase is completed with it.
  boost::asio::awaitable<result<void>> complete_if_finished(const flow_thread& main);
  boost::asio::awaitable<result<void>> run_one(flow_thread& main);
  // Takes `t` into the waiting thread `thread_id` (its message as a user message when `user_text`),
  // durable with `input` when given, and runs until the flow waits again.
  boost::asio::awaitable<result<flow_thread>> take_task(std::string_view thread_id, task t,
                                                        std::optional<std::string> user_text,
                                                        std::optional<events::flow_input> input);
  // Puts the answer of `current` into `main` (in memory; the caller's save sends it), or, for a
  // stream or a messageUpdate, writes it through the repository at once.
  boost::asio::awaitable<result<void>> deliver(flow_thread& main, const task& current, const std::string& phase,
                                               response& answer);
  boost::asio::awaitable<result<void>> deliver_stream(flow_thread& main, const task& current, const std::string& phase,
                                                      response& answer);

  thread_repository& repository_;
  ai_adapter& ai_;
  host_utils host_;
  main_agent_factory factory_;
  std::string member_id_;
};

}  // namespace parley::flow
