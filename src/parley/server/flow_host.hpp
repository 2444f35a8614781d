// The server's side of seed 004's flows: members of kind flow are run by the flow layer's runner
// (src/parley/flow/), not by the engine's drive loop — the same split as `parley run --member` and
// `parley say` in the CLI. A flow's dialog is a root dialog of its flow member; everything it
// holds is on the log as flow events (docs/flows.md "On the log").
//
// One runner per flow member, all on the engine's executor with one thread repository, so the
// flow layer stays single-threaded as it is designed to be. A dialog runs one step at a time: a
// message to a flow that is still working is refused (conflict), never interleaved.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "parley/config/team.hpp"
#include "parley/core/result.hpp"
#include "parley/engine/async_signal.hpp"
#include "parley/engine/engine.hpp"
#include "parley/flow/ai_adapter.hpp"
#include "parley/flow/flow_runner.hpp"
#include "parley/flow/thread_repository.hpp"
#include "parley/store/store.hpp"

namespace parley::server {

// Who watches the flows as they work (the server's PubChan, flow_progress_relay.hpp).
class flow_observer {
 public:
  virtual ~flow_observer() = default;
  // The thread of `dialog_id` changed (a message, a sub-thread, a phase); `working`: a step is
  // still under way.
  virtual void on_thread_changed(std::string_view dialog_id, bool working) = 0;
  // A piece of the bot's reply in the main thread of `dialog_id`, as the model streams it.
  virtual void on_saying_chunk(std::string_view dialog_id, std::string_view text) = 0;
};

class flow_host {
 public:
  // Loads every flow member's agent folder; a folder that does not load is a config_error naming it.
  // `providers` are the team's, by provider id (shared with the engine).
  static result<std::unique_ptr<flow_host>> create(boost::asio::any_io_executor executor, store& log,
                                                   const config::team_config& team,
                                                   const engine::provider_map& providers);

  // Serves no member until create() adds the team's flow members.
  flow_host(store& log, boost::asio::any_io_executor executor) : log_(log), repository_(log, std::move(executor)) {}

  // The flows' reads of the log run on `reads` (the store's read thread), awaited; it must outlive
  // the flows' steps.
  void set_store_reads(engine::store_reads* reads);

  // `observer` (may be null) must outlive the flows' steps.
  void set_observer(flow_observer* observer) { observer_ = observer; }

  bool is_flow_member(std::string_view member_id) const { return members_.contains(member_id); }
  bool running(std::string_view dialog_id) const { return running_.contains(dialog_id); }

  // A new main thread of `member_id` whose first user message is `text`; runs until the flow waits.
  // `humans`: who may see the new dialog (its creator first), as for any root. `input`: the
  // client's request, recorded with the message so that a retry finds it (retried below).
  boost::asio::awaitable<result<flow::flow_thread>> start(std::string member_id, std::string text,
                                                          std::vector<std::string> humans,
                                                          std::optional<events::flow_input> input = {});
  // The user says `text` in the flow `dialog_id` of `member_id`; runs until the flow waits again.
  boost::asio::awaitable<result<flow::flow_thread>> say(std::string member_id, std::string dialog_id, std::string text,
                                                        std::optional<events::flow_input> input = {});
  // The user retries in the flow `dialog_id` (seed 004 `task.meta._ui_action === 'retry'`): `text`
  // is run as a task marked retry, so the waiting phase suggestion is dropped, not applied, and the
  // current phase answers again (a finished flow runs its last phase again).
  boost::asio::awaitable<result<flow::flow_thread>> retry(std::string member_id, std::string dialog_id,
                                                          std::string text);
  // An extra task of the flow's main agent (one of its loadOperations), run until the flow waits.
  boost::asio::awaitable<result<flow::flow_thread>> run_task(std::string member_id, std::string dialog_id,
                                                             flow::task_request request);
  // loadOperations of the member's main agent (empty for a member that is not a flow).
  std::vector<flow::flow_operation> operations(std::string_view member_id) const;
  // The answer's text streamed so far in the main thread of `dialog_id` ("" when none is streaming):
  // what a reader of the thread sees grow before the answer is saved.
  std::string streaming_text(std::string_view dialog_id) const;

  // The answer to a retry of a create or post the flow `dialog_id` already took (found by its
  // msgId): its thread, with nothing taken again. A step the first attempt started and a crash cut
  // is run to its end first — what the log says is left (flow_runner::resume), never the message
  // again. While the first attempt's step still runs here, the retry waits for it to end.
  boost::asio::awaitable<result<flow::flow_thread>> retried(std::string member_id, std::string dialog_id);
  // Completes, archives or reopens the flow `dialog_id` (flow_runner::set_status); a conflict while
  // a step runs.
  boost::asio::awaitable<result<void>> set_status(std::string member_id, std::string dialog_id,
                                                  events::dialog_status to);
  // Runs to their end the steps a crash cut: every running dialog of a flow member whose log says a
  // task is pending, one after another, as start-up re-drives the engine's dialogs. Returns how
  // many it resumed; a flow that fails again is left as it is and named in `failures`.
  boost::asio::awaitable<std::size_t> resume_interrupted(std::vector<std::string>* failures);

  flow_host(const flow_host&) = delete;
  flow_host& operator=(const flow_host&) = delete;
  ~flow_host();

 private:
  struct member_flow {
    std::unique_ptr<flow::ai_adapter> ai;
    std::unique_ptr<flow::flow_runner> runner;
  };
  store& log_;
  engine::store_reads* reads_ = nullptr;
  flow::thread_repository repository_;
  std::map<std::string, member_flow, std::less<>> members_;
  std::set<std::string, std::less<>> running_;  // dialogs with a step under way
  // The main thread's answer as it streams, by dialog; dropped at the thread's next write.
  std::map<std::string, std::string, std::less<>> streaming_;
  engine::async_signal step_ended_;  // notified when one of them ends
  flow_observer* observer_ = nullptr;
};

}  // namespace parley::server
