// SubThreadAgent (seed 004 §7.4.1): the agent of a sub-thread. It walks its interaction units
// phase by phase — apply the suggestion, run the unit of the current phase — until the sub-thread
// reaches `completed`, then summarizes the sub-thread into one synchronous Response (§6.1).
// Business sub-thread agents override `initialize_interaction_units` (§7.7, §9).
#pragma once

#include <map>
#include <memory>
#include <string>

#include "parley/flow/base_agent.hpp"
#include "parley/flow/interaction_unit.hpp"

namespace parley::flow {

class sub_thread_agent : public base_agent {
 public:
  using base_agent::base_agent;

  boost::asio::awaitable<result<response>> execute_task(task& t, flow_thread& main) override;
  bool has_phase(std::string_view phase) const override;
  std::vector<std::string> phase_names() const override;

  // A bound on units per run: a cycle of phases that never reaches `completed` is an error, not a
  // loop without end.
  std::size_t max_steps = 64;

 protected:
  // _initializeInteractionUnits
  virtual result<void> initialize_interaction_units() = 0;
  result<void> initialize_state_handlers() final { return initialize_interaction_units(); }

  // _executeSubThreadInteraction
  boost::asio::awaitable<result<response>> execute_sub_thread_interaction(task& t, flow_thread& main);
  // _summarizeResults: by default the last bot message of the sub-thread.
  virtual response summarize_results(const flow_thread& sub);

  std::map<std::string, std::shared_ptr<interaction_unit>, std::less<>> interaction_units;  // this.interactionUnits
};

}  // namespace parley::flow
