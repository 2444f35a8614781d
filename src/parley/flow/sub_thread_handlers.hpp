// The StateHandlers of seed 004 §8 that start sub-threads, ready to use:
//   sub_thread_preparation_handler (phase `prepare_subthread`): a placeholder bot message in the
//     main thread ("Working on it…"), a next task, and the suggestion `execute_subthread` (§8.1);
//   sub_thread_execution_handler (phase `execute_subthread`): places a new sub-thread in the
//     placeholder's `meta._thread` (updateMessage), runs the sub-thread agent on it, and updates
//     the placeholder with the result (§8.1);
//   nested_sub_thread_handler (inside a sub-thread agent): a bot message holding a deeper
//     sub-thread, saved with saveThread of the main thread, run, then updated with the result (§8.2).
// After a restart each finds the sub-thread it already placed and continues it instead of
// starting another.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "parley/flow/base_agent.hpp"
#include "parley/flow/state_handler.hpp"

namespace parley::flow {

// Builds the agent of a sub-thread (MySubThreadAgent.create(agent.metadata, agent.settings)).
using sub_agent_factory =
    std::function<result<std::unique_ptr<base_agent>>(const agent_metadata& parent, const thread_settings& settings)>;

class sub_thread_preparation_handler : public state_handler {
 public:
  sub_thread_preparation_handler(phase_config config, std::string placeholder_text)
      : state_handler(std::move(config)), placeholder_(std::move(placeholder_text)) {}
  boost::asio::awaitable<result<response>> handle(task& t, flow_thread& main, base_agent& agent) override;

 private:
  std::string placeholder_;
};

class sub_thread_execution_handler : public state_handler {
 public:
  // `continue_after`: the next phase runs at once (a next task), instead of waiting for the user.
  sub_thread_execution_handler(phase_config config, sub_agent_factory factory, bool continue_after = true)
      : state_handler(std::move(config)), factory_(std::move(factory)), continue_after_(continue_after) {}
  boost::asio::awaitable<result<response>> handle(task& t, flow_thread& main, base_agent& agent) override;

 private:
  sub_agent_factory factory_;
  bool continue_after_;
};

class nested_sub_thread_handler : public state_handler {
 public:
  nested_sub_thread_handler(phase_config config, std::string placeholder_text, sub_agent_factory factory)
      : state_handler(std::move(config)), placeholder_(std::move(placeholder_text)), factory_(std::move(factory)) {}
  boost::asio::awaitable<result<response>> handle(task& t, flow_thread& main, base_agent& agent) override;

 private:
  std::string placeholder_;
  sub_agent_factory factory_;
};

// The task that carries a flow on into its next phase without a user message.
task continue_task(const task& from);

// A fresh, empty sub-thread (id `sub_<parent>_<n>`), in `initial_phase`.
flow_thread new_sub_thread(const flow_thread& parent);

}  // namespace parley::flow
