// BaseAgent (seed 004 §2, §4.2): the agent of a main thread. `create` builds and initializes it;
// `initialize` sets the default `briefStatus` and calls `initialize_state_handlers`, which a
// business agent overrides to fill `state_handlers` by phase. `execute_task` routes a task to the
// handler of the current phase, after `apply_phase_update_suggestion` applied any suggestion —
// except on a retry (`task.meta._ui_action == "retry"`), which removes the suggestion without
// applying it.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/flow/flow_thread.hpp"
#include "parley/flow/response.hpp"
#include "parley/flow/state_handler.hpp"
#include "parley/flow/sub_thread_path.hpp"
#include "parley/flow/task.hpp"

namespace parley::flow {

// The seed's `metadata`: who the agent is.
struct agent_metadata {
  std::string name;       // the business class name, e.g. "ArticleCreationAgent"
  std::string member_id;  // the team member running the flow
  boost::json::object extra;
};

// One entry of `loadOperations`: a task the main agent takes beside the user's chat messages (the
// seed's extra tasks such as `chatPair`, which `executeTask` routes by `task.name`). The host runs
// only tasks the agent lists here (flow_runner::run_task), so a client cannot invent one.
struct flow_operation {
  std::string name;         // the task name, e.g. "chatPair"
  std::string description;  // for people choosing it (REST, `parley show`)
  // Whether the task's `message` is put into the thread as a user message first (the seed's
  // Task.skipUserMessage, reversed).
  bool with_user_message = true;
};

class base_agent {
 public:
  base_agent(agent_metadata who, thread_settings initial) : metadata(std::move(who)), settings(std::move(initial)) {}
  virtual ~base_agent() = default;
  base_agent(const base_agent&) = delete;
  base_agent& operator=(const base_agent&) = delete;

  // static create(metadata, settings): construct, then initialize.
  template <class Agent, class... Args>
  static result<std::unique_ptr<Agent>> create(agent_metadata who, thread_settings initial, Args&&... args) {
    auto agent = std::make_unique<Agent>(std::move(who), std::move(initial), std::forward<Args>(args)...);
    PARLEY_TRY(agent->initialize());
    return agent;
  }

  virtual result<void> initialize();
  // executeTask(task, thread): `main` is the main thread; the served thread is at the task's
  // subThreadPath.
  virtual boost::asio::awaitable<result<response>> execute_task(task& t, flow_thread& main);

  // loadOperations(agent): the extra tasks this agent takes. The seed asks it of main agents only;
  // the default is none, which is what a sub-thread agent has (its tasks come from its parent).
  virtual std::vector<flow_operation> load_operations() const { return {}; }

  // createStream(stream): the stream a handler sets on its Response (`response.setStream(...)`),
  // marked with this agent's current phase, as the bot message it becomes is.
  answer_stream create_stream(answer_stream from_adapter) const {
    from_adapter.phase = settings.phase;
    return from_adapter;
  }

  // The phases this agent can be in; `completed` always counts.
  virtual bool has_phase(std::string_view phase) const;
  virtual std::vector<std::string> phase_names() const;
  std::string describe_phases() const;  // "a, b, completed" for error messages

  agent_metadata metadata;
  thread_settings settings;  // the served thread's settings as of the last task (this.settings)

 protected:
  // _initializeStateHandlers
  virtual result<void> initialize_state_handlers() = 0;
  // _handleMessageProcessing
  boost::asio::awaitable<result<response>> handle_message_processing(task& t, flow_thread& main);
  // _applyPhaseUpdateSuggestion. `keep_own`: leave a suggestion this same task made (a main-thread
  // task run again after a crash or a failure must not apply its own, unconsumed suggestion).
  boost::asio::awaitable<result<void>> apply_phase_update_suggestion(task& t, flow_thread& main, bool keep_own);

  std::map<std::string, std::shared_ptr<state_handler>, std::less<>> state_handlers;  // this.stateHandlers
};

// The thread a task serves inside `main` (its subThreadPath; the main thread when none).
result<flow_thread*> served_thread(const task& t, flow_thread& main);
result<sub_thread_path> served_path(const task& t);

}  // namespace parley::flow
