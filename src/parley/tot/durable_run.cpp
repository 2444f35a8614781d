#include "parley/tot/durable_run.hpp"

#include "parley/core/file_text.hpp"
#include "parley/tot/decomposition_check.hpp"
#include "parley/tot/explorer.hpp"
#include "parley/tot/game24/game24_task.hpp"
#include "parley/tot/game24/state.hpp"
#include "parley/tot/logged_channel.hpp"
#include "parley/tot/model_agents.hpp"
#include "parley/tot/protocol_names.hpp"
#include "parley/tot/run_log.hpp"
#include "parley/tot/text_task.hpp"
#include "parley/tot/tot_run.hpp"

namespace parley::tot {
namespace fs = std::filesystem;

namespace {

// Answers from the run's recorded replies only; a call the log does not hold fails at once, and
// from then on the tree no longer shows what the run did.
class replay_only_channel final : public model_channel {
 public:
  explicit replay_only_channel(recorded_replies replies) : replies_(std::move(replies)) {}
  boost::asio::awaitable<result<std::string>> ask(agent_call& call) override {
    const std::string request = call.messages.empty() ? std::string() : call.messages.back().content;
    const auto found = replies_.find(replay_key(name_of(call.role), request));
    if (found == replies_.end() || found->second.empty()) {
      missed_ = true;
      co_return make_error(errc::not_found, "not in the run's log");
    }
    std::string reply = std::move(found->second.front());
    found->second.erase(found->second.begin());
    co_return reply;
  }
  const call_meter& meter() const override { return meter_; }
  bool missed() const noexcept { return missed_; }

 private:
  recorded_replies replies_;
  call_meter meter_;
  bool missed_ = false;
};

// Keeps the thoughts as they were up to the first call the log does not hold.
class tree_until_miss final : public search_observer {
 public:
  explicit tree_until_miss(const replay_only_channel& channel) : channel_(channel) {}
  void on_node(const thought_node& node) override {
    if (!channel_.missed()) nodes[node.id] = node;
  }
  std::map<std::string, thought_node> nodes;

 private:
  const replay_only_channel& channel_;
};

// The final_solution the orchestrator logged last, and whether an explorer ever finished.
struct logged_end {
  std::optional<json::value> final_solution;
  bool searched = false;
};

logged_end end_of(const std::map<std::string, std::vector<log_entry>>& calls) {
  logged_end out;
  for (const auto& [name, entries] : calls) {
    if (name.ends_with("-explorer.log")) out.searched = true;
    if (!name.ends_with("-orchestrator.log")) continue;
    for (const auto& entry : entries) {
      if (const auto* solution = entry.data.if_contains("final_solution")) out.final_solution = *solution;
    }
  }
  return out;
}

}  // namespace

std::map<std::string, std::string> index_run_roots(const run_logs& logs) {
  std::map<std::string, std::string> out;
  for (const auto& folder : logs.folders()) {
    std::error_code ec;
    for (const auto& item : fs::directory_iterator(folder, ec)) {
      const std::string task_id = item.path().filename().string();
      if (!task_id.starts_with("tot-")) continue;
      // Only the task info: opening the folder would read every call file of every run.
      auto text = read_regular_file(item.path() / "00-task-info.json", errc::io_error);
      if (!text) continue;
      auto parsed = parse_json(*text);
      if (!parsed || !parsed->is_object()) continue;
      // A run whose task info does not read is left out of the index, as one that cannot be parsed.
      auto info = read_task_info_fields(parsed->get_object());
      if (!info) continue;
      // The folder new runs go to is read first: a root found there is not taken by an older copy.
      for (auto& root : info->root_dialogs) out.emplace(std::move(root), task_id);
    }
  }
  return out;
}

boost::asio::awaitable<result<durable_run>> read_durable_run(run_logs logs, std::string task_id) {
  auto folder = logs.open(task_id);
  if (!folder) co_return std::move(folder).err();
  auto info = folder->read_task_info();
  if (!info) co_return std::move(info).err();
  auto request = request_of_task_info(*info, tot_request{});
  if (!request) co_return std::move(request).err();
  auto calls = folder->read_calls();
  if (!calls) co_return std::move(calls).err();
  auto replies = read_recorded_replies(*folder);
  if (!replies) co_return std::move(replies).err();

  durable_run run;
  run.task_id = task_id;
  auto fields = read_task_info_fields(*info);
  if (!fields) co_return std::move(fields).err();
  run.root_dialogs = std::move(fields->root_dialogs);
  switch (fields->status) {
    case task_status::completed:
      run.status = run_status::solved;
      break;
    case task_status::failed:
      run.status = run_status::failed;
      break;
    case task_status::running:
      run.status = run_status::interrupted;  // it never ended: the process stopped during it
      break;
  }
  const logged_end end = end_of(*calls);
  if (run.status != run_status::interrupted) run.final_solution = end.final_solution;
  // An ended run that never searched (its decomposer failed) has no tree, as it had none live.
  if (run.status != run_status::interrupted && !end.searched) co_return run;

  replay_only_channel channel(std::move(*replies));
  tree_until_miss observer(channel);
  model_agent_options agent_options;
  agent_options.type = request->type;
  agent_options.task_id = task_id;
  // The decomposition the run searched with (its constraints are in every generator request),
  // from the decomposer's logged reply.
  const message decompose{agent_role::orchestrator, "decomposer", decompose_task{request->problem, request->type},
                          task_id, std::nullopt};
  std::int64_t decomposer_calls = 0;
  for (int attempt = 0; attempt <= request->options.retries; ++attempt) {
    auto decomposition = co_await exchange<decomposition_result>(channel, agent_options, agent_role::decomposer,
                                                                 decompose, decomposer_calls);
    if (const auto* made = std::get_if<decomposition_result>(&decomposition)) {
      if (!check_decomposition(*made)) apply_decomposition(request->options, *made, request->depth_given);
      break;
    }
    if (!std::get<protocol_error>(decomposition).recoverable) break;
  }
  model_generator generator(channel, agent_options);
  model_evaluator evaluator(channel, agent_options);
  const bool puzzle = request->type == task_type::math_reasoning && game24::state::from_puzzle(request->problem);
  game24::game24_task game24;
  text_task text;
  task_plugin& task = puzzle ? static_cast<task_plugin&>(game24) : static_cast<task_plugin&>(text);
  explorer search(task, generator, evaluator, request->options, &observer);
  auto searched = co_await search.run(task_id, request->problem, request->type);
  if (channel.missed()) {
    run.nodes = std::move(observer.nodes);
  } else {
    run.nodes = searched.complete.tree.nodes;
    run.best_path = searched.complete.tree.search_state.best_path;
  }
  co_return run;
}

}  // namespace parley::tot
