#include "parley/flow/sub_thread_handlers.hpp"

#include "parley/core/ids.hpp"
#include "parley/core/time.hpp"
#include "parley/flow/host_utils.hpp"
#include "parley/flow/interaction_unit.hpp"
#include "parley/flow/thread_repository.hpp"

namespace parley::flow {

namespace asio = boost::asio;

flow_thread new_sub_thread(const flow_thread& parent) {
  flow_thread sub;
  sub.id = "sub_" + parent.id + "_" + std::to_string(parent.messages.size());
  sub.settings.phase = std::string(kInitialPhase);
  return sub;
}

namespace {

// Runs the sub-thread agent over the sub-thread at `path`, with a task that carries the path.
asio::awaitable<result<response>> run_sub_agent(const sub_agent_factory& factory, task& parent_task, flow_thread& main,
                                                base_agent& agent, const sub_thread_path& path) {
  auto sub = get_sub_thread_by_path(main, path);
  if (!sub) co_return std::move(sub).err();
  auto sub_agent = factory(agent.metadata, (*sub)->settings);
  if (!sub_agent) co_return std::move(sub_agent).err();
  task sub_task;
  sub_task.id = new_uuid();
  sub_task.name = "ProcessSubThread";
  sub_task.type = std::string(task::kTypeAction);
  sub_task.message = parent_task.message;
  sub_task.meta["subThreadPath"] = path.text();
  sub_task.meta["parentThreadPath"] = parent_task.sub_thread_path();
  sub_task.host_utils = parent_task.host_utils;
  co_return co_await (*sub_agent)->execute_task(sub_task, main);
}

}  // namespace

task continue_task(const task& from) {
  task next;
  next.id = new_uuid();
  next.name = "ContinueProcessing";  // the name does not matter, the phase does (§8.1)
  next.type = std::string(task::kTypeAction);
  next.skip_user_message = true;
  next.message = "continue";
  next.meta["originalQuery"] = from.message;
  return next;
}

asio::awaitable<result<response>> sub_thread_preparation_handler::handle(task& t, flow_thread& main,
                                                                         base_agent& agent) {
  response placeholder(placeholder_);
  placeholder.add_next_task(continue_task(t));
  placeholder.meta["_step"] = "placeholder";
  PARLEY_CO_TRY(co_await suggest_phase_update(t, main, agent));
  co_return placeholder;
}

asio::awaitable<result<response>> sub_thread_execution_handler::handle(task& t, flow_thread& main, base_agent& agent) {
  auto served_path_of_task = served_path(t);
  if (!served_path_of_task) co_return std::move(served_path_of_task).err();
  auto served = get_sub_thread_by_path(main, *served_path_of_task);
  if (!served) co_return std::move(served).err();
  if ((*served)->messages.empty() || (*served)->messages.back().sender != "bot") {
    co_return make_error(errc::invalid_argument, "phase \"" + phase() +
                                                     "\" needs the placeholder bot message of prepare_subthread as "
                                                     "the thread's last message");
  }
  const std::size_t index = (*served)->messages.size() - 1;
  auto& placeholder = (*served)->messages[index];
  const std::string placeholder_id = placeholder.id;
  if (!placeholder.sub_thread) {
    boost::json::object meta = placeholder.meta;
    meta["_thread"] = to_json(new_sub_thread(**served));
    message_patch with_thread;  // a named patch: g++ 12 mishandles temporaries inside co_await
    with_thread.meta = std::move(meta);
    PARLEY_CO_TRY(co_await t.host_utils->repository.update_message(main, placeholder_id, std::move(with_thread)));
  }
  const auto path = served_path_of_task->child(index);
  auto result_of_sub = co_await run_sub_agent(factory_, t, main, agent, path);
  if (!result_of_sub) co_return result_of_sub;
  message_patch with_result;
  with_result.text = result_of_sub->full_message();
  PARLEY_CO_TRY(co_await t.host_utils->repository.update_message(main, placeholder_id, std::move(with_result)));
  PARLEY_CO_TRY(co_await suggest_phase_update(t, main, agent));
  result_of_sub->set_skip_bot_message_creation();
  if (continue_after_ && next_phase() != kCompletedPhase) result_of_sub->add_next_task(continue_task(t));
  co_return result_of_sub;
}

asio::awaitable<result<response>> nested_sub_thread_handler::handle(task& t, flow_thread& main, base_agent& agent) {
  auto current_path = served_path(t);
  if (!current_path) co_return std::move(current_path).err();
  auto current = get_sub_thread_by_path(main, *current_path);
  if (!current) co_return std::move(current).err();
  // A placeholder of this phase written before a restart is continued, not written again.
  std::size_t index = (*current)->messages.size();
  const auto start = static_cast<std::size_t>((*current)->settings.phase_start_index);
  for (std::size_t i = start; i < (*current)->messages.size(); ++i) {
    const auto& message = (*current)->messages[i];
    if (message.sub_thread && message.meta.contains("_step") && message.meta.at("_step") == "placeholder") index = i;
  }
  if (index == (*current)->messages.size()) {
    auto message = make_message("bot", placeholder_, phase(), "placeholder");
    message.sub_thread = std::make_unique<flow_thread>(new_sub_thread(**current));
    (*current)->messages.push_back(std::move(message));
    PARLEY_CO_TRY(co_await t.host_utils->repository.save_thread(main));
  }
  auto refreshed = get_sub_thread_by_path(main, *current_path);
  if (!refreshed) co_return std::move(refreshed).err();
  const std::string placeholder_id = (*refreshed)->messages[index].id;
  auto nested = co_await run_sub_agent(factory_, t, main, agent, current_path->child(index));
  if (!nested) co_return nested;
  message_patch with_result;
  with_result.text = nested->full_message();
  PARLEY_CO_TRY(co_await t.host_utils->repository.update_message(main, placeholder_id, std::move(with_result)));
  nested->set_skip_bot_message_creation();
  co_return nested;
}

}  // namespace parley::flow
