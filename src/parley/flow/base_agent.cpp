#include "parley/flow/base_agent.hpp"

#include "parley/flow/host_utils.hpp"
#include "parley/flow/thread_repository.hpp"

namespace parley::flow {

namespace asio = boost::asio;

result<sub_thread_path> served_path(const task& t) { return parse_sub_thread_path(t.sub_thread_path()); }

result<flow_thread*> served_thread(const task& t, flow_thread& main) {
  auto path = served_path(t);
  if (!path) return std::move(path).err();
  return get_sub_thread_by_path(main, *path);
}

result<void> base_agent::initialize() {
  if (settings.phase.empty()) settings.phase = std::string(kInitialPhase);
  return initialize_state_handlers();
}

bool base_agent::has_phase(std::string_view phase) const {
  return phase == kCompletedPhase || state_handlers.find(phase) != state_handlers.end();
}

std::vector<std::string> base_agent::phase_names() const {
  std::vector<std::string> names;
  for (const auto& [phase, handler] : state_handlers) names.push_back(phase);
  return names;
}

std::string base_agent::describe_phases() const {
  std::string out;
  for (const auto& phase : phase_names()) out += (out.empty() ? "" : ", ") + phase;
  return out + (out.empty() ? "" : ", ") + std::string(kCompletedPhase);
}

asio::awaitable<result<response>> base_agent::execute_task(task& t, flow_thread& main) {
  co_return co_await handle_message_processing(t, main);
}

asio::awaitable<result<response>> base_agent::handle_message_processing(task& t, flow_thread& main) {
  // The suggestion is applied first, then the handler of the (new) current phase is chosen.
  PARLEY_CO_TRY(co_await apply_phase_update_suggestion(t, main, true));
  const std::string phase = settings.phase;
  const auto handler = state_handlers.find(phase);
  if (handler == state_handlers.end()) {
    co_return make_error(errc::invalid_argument, "agent " + metadata.name + " has no StateHandler for phase \"" +
                                                     phase + "\" (its phases: " + describe_phases() + ")");
  }
  co_return co_await handler->second->handle(t, main, *this);
}

asio::awaitable<result<void>> base_agent::apply_phase_update_suggestion(task& t, flow_thread& main, bool keep_own) {
  if (t.host_utils == nullptr) co_return make_error(errc::internal, "task " + t.name + " has no host_utils");
  auto path = served_path(t);
  if (!path) co_return std::move(path).err();
  auto served = get_sub_thread_by_path(main, *path);
  if (!served) co_return std::move(served).err();
  thread_settings current = (*served)->settings;
  if (current.phase.empty()) current.phase = std::string(kInitialPhase);
  if (current.phase_update_suggestion && !(keep_own && current.phase_update_suggestion->task_id == t.id)) {
    const std::string next = current.phase_update_suggestion->phase;
    if (!t.is_retry()) {
      // A suggestion for a phase this agent lacks is refused here too: the thread may come from
      // the log of an older version of the agent.
      if (!has_phase(next)) {
        co_return make_error(errc::invalid_argument, "agent " + metadata.name + ": the suggested phase \"" + next +
                                                         "\" is unknown (its phases: " + describe_phases() + ")");
      }
      current.phase = next;
      current.phase_start_index = static_cast<std::int64_t>((*served)->messages.size());
    }
    current.phase_update_suggestion.reset();
    PARLEY_CO_TRY(co_await t.host_utils->repository.update_thread_settings(main, *path, current));
  }
  settings = std::move(current);
  co_return ok();
}

}  // namespace parley::flow
