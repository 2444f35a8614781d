#include "parley/server/flow_host.hpp"

#include "parley/core/ids.hpp"
#include "parley/engine/store_reads.hpp"
#include "parley/flow/yaml_agent.hpp"

namespace parley::server {

flow_host::~flow_host() = default;

namespace {

// A flow thread's events, read on `reads`; a plain function, so its frame keeps its own copies.
boost::asio::awaitable<result<std::vector<event>>> read_thread_events(engine::store_reads* reads, store& log,
                                                                      std::string thread_id) {
  auto read = [&log, thread_id = std::move(thread_id)] { return log.read_events(thread_id); };
  co_return co_await engine::read_off_loop(reads, std::move(read));
}

}  // namespace

void flow_host::set_store_reads(engine::store_reads* reads) {
  reads_ = reads;
  repository_.set_events_reader(
      [reads](store& log, std::string thread_id) { return read_thread_events(reads, log, std::move(thread_id)); });
}

result<std::unique_ptr<flow_host>> flow_host::create(boost::asio::any_io_executor executor, store& log,
                                                     const config::team_config& team,
                                                     const engine::provider_map& providers) {
  auto host = std::make_unique<flow_host>(log, std::move(executor));
  flow_host& self = *host;
  self.repository_.set_change_observer([&self](std::string_view dialog_id) {
    // What streamed is in the thread now (or the step moved on): readers read it there.
    if (auto found = self.streaming_.find(dialog_id); found != self.streaming_.end()) self.streaming_.erase(found);
    if (self.observer_ != nullptr) self.observer_->on_thread_changed(dialog_id, self.running(dialog_id));
  });
  for (const auto& member : team.members) {
    if (member.kind != config::member_kind::flow) continue;
    auto agent = flow::yaml_flow::load(member.flow);
    if (!agent) return make_error(agent.err().code, "members." + member.id + ".flow: " + agent.err().message);
    const auto provider = providers.find(member.provider);
    if (provider == providers.end()) {
      return make_error(errc::config_error, "members." + member.id + ".provider: no provider " + member.provider);
    }
    member_flow runs;
    runs.ai = std::make_unique<flow::ai_adapter>(provider->second, member.id, member.model);
    runs.ai->set_stream_observer([&self](std::string_view dialog_id, std::string_view chunk) {
      auto found = self.streaming_.find(dialog_id);
      if (found == self.streaming_.end()) found = self.streaming_.emplace(std::string(dialog_id), std::string()).first;
      found->second.append(chunk);
      if (self.observer_ != nullptr) self.observer_->on_saying_chunk(dialog_id, chunk);
    });
    runs.runner =
        std::make_unique<flow::flow_runner>(host->repository_, *runs.ai, agent->factory(member.id), member.id);
    host->members_.emplace(member.id, std::move(runs));
  }
  return host;
}

namespace {

error no_longer_a_flow(const std::string& dialog_id, const std::string& member_id) {
  return make_error(errc::conflict, "dialog " + dialog_id + " is a flow of member " + member_id +
                                        ", which the team no longer has as a flow");
}

// The runner of a flow member's dialog with no step under way; else an error saying which it is not.
template <class Members>
result<flow::flow_runner*> idle_runner(const Members& members, const std::set<std::string, std::less<>>& running,
                                       const std::string& member_id, const std::string& dialog_id) {
  const auto found = members.find(member_id);
  if (found == members.end()) return no_longer_a_flow(dialog_id, member_id);
  if (running.contains(dialog_id)) {
    return make_error(errc::conflict, "dialog " + dialog_id + ": the flow is still working on the last message");
  }
  return found->second.runner.get();
}

// Marks a dialog as having a step under way, taken off again however the step ends (an exception
// unwinding the coroutine included); whoever waits for a step to end is woken then. With an
// observer, the dialog's watchers are told when the step starts and when it has ended.
struct running_mark {
  std::set<std::string, std::less<>>& running;
  engine::async_signal& step_ended;
  std::string id;
  flow_observer* observer;
  running_mark(std::set<std::string, std::less<>>& marks, engine::async_signal& ended, std::string dialog_id,
               flow_observer* watchers = nullptr)
      : running(marks), step_ended(ended), id(std::move(dialog_id)), observer(watchers) {
    running.insert(id);
    if (observer != nullptr) observer->on_thread_changed(id, true);
  }
  running_mark(const running_mark&) = delete;
  running_mark& operator=(const running_mark&) = delete;
  ~running_mark() {
    running.erase(id);
    if (observer != nullptr) observer->on_thread_changed(id, false);
    step_ended.notify_all();
  }
};

}  // namespace

boost::asio::awaitable<result<flow::flow_thread>> flow_host::start(std::string member_id, std::string text,
                                                                   std::vector<std::string> humans,
                                                                   std::optional<events::flow_input> input) {
  const auto found = members_.find(member_id);
  if (found == members_.end()) co_return make_error(errc::not_found, "member " + member_id + " is not a flow");
  // Named before the flow runs, so that a retry arriving meanwhile sees its step under way.
  flow::thread_start how{std::move(humans), std::move(input), new_dialog_id()};
  const running_mark mark(running_, step_ended_, how.thread_id);
  co_return co_await found->second.runner->start(text, std::move(how));
}

boost::asio::awaitable<result<flow::flow_thread>> flow_host::say(std::string member_id, std::string dialog_id,
                                                                 std::string text,
                                                                 std::optional<events::flow_input> input) {
  auto runner = idle_runner(members_, running_, member_id, dialog_id);
  if (!runner) co_return std::move(runner).err();
  const running_mark mark(running_, step_ended_, dialog_id, observer_);
  const std::string_view no_ui_action;
  co_return co_await (*runner)->say(dialog_id, text, no_ui_action, std::move(input));
}

boost::asio::awaitable<result<flow::flow_thread>> flow_host::retry(std::string member_id, std::string dialog_id,
                                                                   std::string text) {
  auto runner = idle_runner(members_, running_, member_id, dialog_id);
  if (!runner) co_return std::move(runner).err();
  const running_mark mark(running_, step_ended_, dialog_id, observer_);
  const std::string_view retry_action = "retry";
  co_return co_await (*runner)->say(dialog_id, text, retry_action);
}

boost::asio::awaitable<result<flow::flow_thread>> flow_host::run_task(std::string member_id, std::string dialog_id,
                                                                      flow::task_request request) {
  auto runner = idle_runner(members_, running_, member_id, dialog_id);
  if (!runner) co_return std::move(runner).err();
  const running_mark mark(running_, step_ended_, dialog_id, observer_);
  co_return co_await (*runner)->run_task(dialog_id, std::move(request));
}

std::vector<flow::flow_operation> flow_host::operations(std::string_view member_id) const {
  const auto found = members_.find(member_id);
  if (found == members_.end()) return {};
  auto listed = found->second.runner->operations();
  return listed ? std::move(*listed) : std::vector<flow::flow_operation>{};
}

std::string flow_host::streaming_text(std::string_view dialog_id) const {
  const auto found = streaming_.find(dialog_id);
  return found == streaming_.end() ? std::string() : found->second;
}

boost::asio::awaitable<result<void>> flow_host::set_status(std::string member_id, std::string dialog_id,
                                                           events::dialog_status to) {
  const auto found = members_.find(member_id);
  if (found == members_.end()) co_return no_longer_a_flow(dialog_id, member_id);
  if (running_.contains(dialog_id)) {
    co_return make_error(errc::conflict,
                         "dialog " + dialog_id + " has work in flight (the flow is on a step); nothing was changed");
  }
  const running_mark mark(running_, step_ended_, dialog_id);
  co_return co_await found->second.runner->set_status(dialog_id, to);
}

boost::asio::awaitable<std::size_t> flow_host::resume_interrupted(std::vector<std::string>* failures) {
  std::size_t resumed = 0;
  for (auto& [member_id, member] : members_) {
    dialog_filter running_flows;
    running_flows.member_id = member_id;
    running_flows.status = events::dialog_status::running;
    running_flows.roots_only = true;
    auto list = [&log = log_, running_flows] { return log.list_dialogs(running_flows); };
    auto rows = co_await engine::read_off_loop(reads_, std::move(list));
    if (!rows) {
      if (failures != nullptr) failures->push_back("flows of " + member_id + ": " + rows.err().message);
      continue;
    }
    for (const auto& row : *rows) {
      if (running_.contains(row.id)) continue;  // a client's retry got there first
      auto thread = co_await repository_.load_thread_async(row.id);
      if (!thread || thread->settings.pending_tasks.empty()) continue;  // not a flow's thread, or at rest
      const running_mark mark(running_, step_ended_, row.id, observer_);
      auto outcome = co_await member.runner->resume(row.id);
      if (outcome) {
        ++resumed;
      } else if (failures != nullptr) {
        failures->push_back("flow " + row.id + ": " + outcome.err().message);
      }
    }
  }
  co_return resumed;
}

boost::asio::awaitable<result<flow::flow_thread>> flow_host::retried(std::string member_id, std::string dialog_id) {
  const auto found = members_.find(member_id);
  if (found == members_.end()) co_return no_longer_a_flow(dialog_id, member_id);
  // The first attempt's step still runs here: the retry answers once it has ended, as it left it.
  while (running_.contains(dialog_id)) co_await step_ended_.wait();
  auto thread = co_await repository_.load_thread_async(dialog_id);
  if (!thread) co_return std::move(thread).err();
  if (thread->settings.pending_tasks.empty()) co_return std::move(*thread);
  const running_mark mark(running_, step_ended_, dialog_id);
  co_return co_await found->second.runner->resume(dialog_id);
}

}  // namespace parley::server
