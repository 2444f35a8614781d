#include "parley/server/flow_host.hpp"

#include "parley/flow/yaml_agent.hpp"

namespace parley::server {

flow_host::~flow_host() = default;

result<std::unique_ptr<flow_host>> flow_host::create(boost::asio::any_io_executor executor, store& log,
                                                     const config::team_config& team,
                                                     const engine::provider_map& providers) {
  auto host = std::make_unique<flow_host>(log, std::move(executor));
  flow_host& self = *host;
  self.repository_.set_change_observer([&self](std::string_view dialog_id) {
    if (self.observer_ != nullptr) self.observer_->on_thread_changed(dialog_id, self.running(dialog_id));
  });
  for (const auto& member : team.members) {
    if (member.kind != "flow") continue;
    auto agent = flow::yaml_flow::load(member.flow);
    if (!agent) return make_error(agent.err().code, "members." + member.id + ".flow: " + agent.err().message);
    const auto provider = providers.find(member.provider);
    if (provider == providers.end()) {
      return make_error(errc::config_error, "members." + member.id + ".provider: no provider " + member.provider);
    }
    member_flow runs;
    runs.ai = std::make_unique<flow::ai_adapter>(provider->second, member.id, member.model);
    runs.ai->set_stream_observer([&self](std::string_view dialog_id, std::string_view chunk) {
      if (self.observer_ != nullptr) self.observer_->on_saying_chunk(dialog_id, chunk);
    });
    runs.runner =
        std::make_unique<flow::flow_runner>(host->repository_, *runs.ai, agent->factory(member.id), member.id);
    host->members_.emplace(member.id, std::move(runs));
  }
  return host;
}

boost::asio::awaitable<result<flow::flow_thread>> flow_host::start(std::string member_id, std::string text,
                                                                   std::vector<std::string> humans) {
  const auto found = members_.find(member_id);
  if (found == members_.end()) co_return make_error(errc::not_found, "member " + member_id + " is not a flow");
  co_return co_await found->second.runner->start(text, std::move(humans));
}

boost::asio::awaitable<result<flow::flow_thread>> flow_host::say(std::string member_id, std::string dialog_id,
                                                                 std::string text) {
  const auto found = members_.find(member_id);
  if (found == members_.end()) {
    co_return make_error(errc::conflict, "dialog " + dialog_id + " is a flow of member " + member_id +
                                             ", which the team no longer has as a flow");
  }
  if (running_.contains(dialog_id)) {
    co_return make_error(errc::conflict, "dialog " + dialog_id + ": the flow is still working on the last message");
  }
  // Taken off again however the step ends (an exception unwinding the coroutine included).
  struct running_mark {
    std::set<std::string, std::less<>>& running;
    std::string id;
    ~running_mark() { running.erase(id); }
  } mark{running_, dialog_id};
  running_.insert(dialog_id);
  if (observer_ != nullptr) observer_->on_thread_changed(dialog_id, true);
  auto outcome = co_await found->second.runner->say(dialog_id, text);
  running_.erase(dialog_id);
  if (observer_ != nullptr) observer_->on_thread_changed(dialog_id, false);
  co_return outcome;
}

}  // namespace parley::server
