#include "parley/flow/state_handler.hpp"

#include "parley/flow/base_agent.hpp"
#include "parley/flow/host_utils.hpp"
#include "parley/flow/thread_repository.hpp"

namespace parley::flow {

namespace asio = boost::asio;

asio::awaitable<result<void>> state_handler::suggest_phase_update(task& t, flow_thread& main, base_agent& agent,
                                                                  std::string_view phase,
                                                                  std::string_view suggested_by) {
  if (!agent.has_phase(phase)) {
    co_return make_error(errc::invalid_argument, std::string(suggested_by) + " suggests phase \"" + std::string(phase) +
                                                     "\", which agent " + agent.metadata.name +
                                                     " does not have (its phases: " + agent.describe_phases() + ")");
  }
  if (t.host_utils == nullptr) co_return make_error(errc::internal, "task " + t.name + " has no host_utils");
  auto path = served_path(t);
  if (!path) co_return std::move(path).err();
  auto served = get_sub_thread_by_path(main, *path);
  if (!served) co_return std::move(served).err();
  thread_settings updated = (*served)->settings;
  updated.phase_update_suggestion = phase_suggestion{std::string(phase), t.id};
  co_return co_await t.host_utils->repository.update_thread_settings(main, *path, std::move(updated));
}

asio::awaitable<result<void>> state_handler::suggest_phase_update(task& t, flow_thread& main, base_agent& agent) {
  if (next_phase().empty()) co_return ok();
  const std::string by = "the StateHandler of phase \"" + phase() + "\"";
  co_return co_await suggest_phase_update(t, main, agent, next_phase(), by);
}

}  // namespace parley::flow
