// InteractionUnit (seed 004 §7.2.2, §7.4): one round of a sub-thread. Two kinds, never used as a
// direct parent by business code (§10.2.7):
//   responsor — its StateHandler writes the bot message, then `generate_user_message` writes the
//               user's feedback, unless its next phase is `completed` (§7.5.1);
//   starter   — `generate_initial_user_message` writes the first user message, then its responsor
//               (preferred) or its StateHandler answers it (§7.5.2, §7.5.3).
// Persistence (§5.2): the starter saves the initial user message, the responsor the bot message and
// then the user message, each with saveThread of the main thread at once.
//
// Crash safety: a unit run again in the same phase finds the messages it already wrote since the
// phase began (`settings._phaseStartIndex`; each message is tagged with `meta._step`) and does not
// write them twice.
#pragma once

#include <boost/asio/awaitable.hpp>

#include <memory>
#include <string>

#include "parley/core/result.hpp"
#include "parley/flow/flow_thread.hpp"
#include "parley/flow/response.hpp"
#include "parley/flow/state_handler.hpp"
#include "parley/flow/task.hpp"

namespace parley::flow {

class base_agent;

class interaction_unit {
 public:
  explicit interaction_unit(phase_config config) : config_(std::move(config)) {}
  virtual ~interaction_unit() = default;
  interaction_unit(const interaction_unit&) = delete;
  interaction_unit& operator=(const interaction_unit&) = delete;

  // execute(task, thread, agent): runs the unit in the task's sub-thread and suggests its next phase.
  virtual boost::asio::awaitable<result<response>> execute(task& t, flow_thread& main, base_agent& agent) = 0;

  const std::string& phase() const { return config_.phase; }
  const std::string& next_phase() const { return config_.next_phase; }

 protected:
  // _suggestPhaseUpdate
  boost::asio::awaitable<result<void>> suggest_phase_update(task& t, flow_thread& main, base_agent& agent);

 private:
  phase_config config_;
};

class responsor : public interaction_unit {
 public:
  responsor(phase_config config, std::shared_ptr<state_handler> handler)
      : interaction_unit(std::move(config)), handler_(std::move(handler)) {}

  boost::asio::awaitable<result<response>> execute(task& t, flow_thread& main, base_agent& agent) override;
  // The bot–user pair without a phase suggestion; `skip` messages of the phase belong to a starter.
  boost::asio::awaitable<result<response>> run_pair(task& t, flow_thread& main, base_agent& agent, std::size_t skip);

 protected:
  // generateUserMessage(botMessage, task, thread, agent)
  virtual boost::asio::awaitable<result<std::string>> generate_user_message(const thread_message& bot, task& t,
                                                                            flow_thread& main, base_agent& agent) = 0;

 private:
  std::shared_ptr<state_handler> handler_;
};

class starter : public interaction_unit {
 public:
  starter(phase_config config, std::shared_ptr<flow::responsor> held)
      : interaction_unit(std::move(config)), responsor_(std::move(held)) {}
  starter(phase_config config, std::shared_ptr<state_handler> held)
      : interaction_unit(std::move(config)), handler_(std::move(held)) {}

  boost::asio::awaitable<result<response>> execute(task& t, flow_thread& main, base_agent& agent) override;

 protected:
  // generateInitialUserMessage(task, thread, agent)
  virtual boost::asio::awaitable<result<std::string>> generate_initial_user_message(task& t, flow_thread& main,
                                                                                    base_agent& agent) = 0;

 private:
  std::shared_ptr<flow::responsor> responsor_;
  std::shared_ptr<state_handler> handler_;
};

// Shared by the units: appends a message to the task's sub-thread and saves the main thread.
boost::asio::awaitable<result<void>> append_and_save(task& t, flow_thread& main, thread_message message);
thread_message make_message(std::string sender, std::string text, std::string_view phase, std::string_view step);
// The messages of the served thread written since its phase began, skipping `skip` of them.
result<std::vector<const thread_message*>> messages_of_phase(const task& t, flow_thread& main, std::size_t skip);

}  // namespace parley::flow
