#include "parley/flow/sub_thread_agent.hpp"

namespace parley::flow {

namespace asio = boost::asio;

bool sub_thread_agent::has_phase(std::string_view phase) const {
  return phase == kCompletedPhase || interaction_units.find(phase) != interaction_units.end();
}

std::vector<std::string> sub_thread_agent::phase_names() const {
  std::vector<std::string> names;
  for (const auto& [phase, unit] : interaction_units) names.push_back(phase);
  return names;
}

asio::awaitable<result<response>> sub_thread_agent::execute_task(task& t, flow_thread& main) {
  co_return co_await execute_sub_thread_interaction(t, main);
}

asio::awaitable<result<response>> sub_thread_agent::execute_sub_thread_interaction(task& t, flow_thread& main) {
  const std::string where = "sub-thread \"" + t.sub_thread_path() + "\" of agent " + metadata.name;
  std::string walked;
  for (std::size_t step = 0; step < max_steps; ++step) {
    auto applied = co_await apply_phase_update_suggestion(t, main, false);
    if (!applied) co_return make_error(applied.err().code, where + ": " + applied.err().message);
    const std::string phase = settings.phase;
    if (!walked.empty()) walked += " → ";
    walked += phase;
    if (phase == kCompletedPhase) {
      auto served = served_thread(t, main);
      if (!served) co_return std::move(served).err();
      co_return summarize_results(**served);
    }
    const auto unit = interaction_units.find(phase);
    if (unit == interaction_units.end()) {
      std::string message = where;
      message.append(" has no interaction unit for phase \"").append(phase).append("\" (its phases: ");
      message.append(describe_phases()).append(")");
      co_return make_error(errc::invalid_argument, std::move(message));
    }
    auto done = co_await unit->second->execute(t, main, *this);
    if (!done) {
      std::string message = where;
      message.append(", phase \"").append(phase).append("\": ").append(done.err().message);
      co_return make_error(done.err().code, std::move(message));
    }
    auto served = served_thread(t, main);
    if (!served) co_return std::move(served).err();
    if (!(*served)->settings.phase_update_suggestion) {
      std::string message = where;
      message.append(": the unit of phase \"").append(phase).append("\" suggested no next phase");
      co_return make_error(errc::internal, std::move(message));
    }
  }
  co_return make_error(errc::limit_exceeded, where + ": no `completed` after " + std::to_string(max_steps) +
                                                 " phases (" + walked + "); its phases cycle without an exit");
}

response sub_thread_agent::summarize_results(const flow_thread& sub) {
  for (auto it = sub.messages.rbegin(); it != sub.messages.rend(); ++it) {
    if (it->sender == "bot") return response(it->text);
  }
  return response();
}

}  // namespace parley::flow
