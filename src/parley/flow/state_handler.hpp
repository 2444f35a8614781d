// StateHandler (seed 004 §4, §7.2.2): handles a task in one phase and returns a Response; it may
// suggest the next phase (`_suggestPhaseUpdate`), which is stored in the served thread's
// `settings._phaseUpdateSuggestion` and applied by the agent before its next task (§4.2).
// Like every component it receives the main thread and finds its own thread by
// `task.meta.subThreadPath` (§3.1).
#pragma once

#include <boost/asio/awaitable.hpp>

#include <string>
#include <string_view>

#include "parley/core/result.hpp"
#include "parley/flow/flow_thread.hpp"
#include "parley/flow/response.hpp"
#include "parley/flow/task.hpp"

namespace parley::flow {

class base_agent;

// The seed's `{phase, nextPhase}` configuration of handlers and interaction units.
struct phase_config {
  std::string phase;
  std::string next_phase;  // nextPhase; "" = the handler suggests nothing by itself
};

class state_handler {
 public:
  explicit state_handler(phase_config config) : config_(std::move(config)) {}
  virtual ~state_handler() = default;
  state_handler(const state_handler&) = delete;
  state_handler& operator=(const state_handler&) = delete;

  // handle(task, thread, agent): `main` is always the main thread.
  virtual boost::asio::awaitable<result<response>> handle(task& t, flow_thread& main, base_agent& agent) = 0;

  const std::string& phase() const { return config_.phase; }
  const std::string& next_phase() const { return config_.next_phase; }

  // _suggestPhaseUpdate: persists the suggestion (updateThreadSettings) on the thread the task
  // serves. Refused, writing nothing, when `agent` has no such phase.
  static boost::asio::awaitable<result<void>> suggest_phase_update(task& t, flow_thread& main, base_agent& agent,
                                                                   std::string_view phase,
                                                                   std::string_view suggested_by);

 protected:
  boost::asio::awaitable<result<void>> suggest_phase_update(task& t, flow_thread& main, base_agent& agent);

 private:
  phase_config config_;
};

}  // namespace parley::flow
