#include "parley/tot/run_board.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/this_coro.hpp>

#include "parley/engine/async_signal.hpp"
#include "parley/tot/durable_run.hpp"
#include "parley/tot/engine_channel.hpp"
#include "parley/tot/protocol_json.hpp"

namespace parley::tot {

namespace {
constexpr std::size_t kKeptRuns = 64;
}

struct run_board::run_view {
  std::string task_id;
  std::string root_dialog;
  run_status status = run_status::running;
  std::map<std::string, thought_node> nodes;
  std::vector<std::string> best_path;
  std::optional<json::value> final_solution;
  std::optional<error> failed_to_start;
  bool started = false;
  engine::async_signal started_signal;
};

class run_board::tracker final : public tot_progress {
 public:
  tracker(run_board& board, std::shared_ptr<run_view> view) : board_(board), view_(std::move(view)) {}
  void on_started(const std::string& task_id, const std::string& root) override {
    view_->task_id = task_id;
    view_->root_dialog = root;
    view_->started = true;
    board_.keep(view_);
    view_->started_signal.notify_all();
    board_.report(*view_, progress_step::started);
  }
  void on_node(const thought_node& node) override {
    const auto known = view_->nodes.find(node.id);
    const auto step = step_between(known == view_->nodes.end() ? nullptr : &known->second, node);
    view_->nodes[node.id] = node;
    board_.report(*view_, step, &node);
  }

 private:
  run_board& board_;
  std::shared_ptr<run_view> view_;
};

run_board::run_board(engine::engine& engine, run_logs logs, run_listener* listener)
    : engine_(engine), logs_(std::move(logs)), listener_(listener) {
  for (auto& [root, task] : index_run_roots(logs_)) task_of_root_.emplace(root, std::move(task));
}

void run_board::report(const run_view& view, progress_step step, const thought_node* node) const {
  if (listener_ == nullptr) return;
  run_progress progress{view.task_id, view.root_dialog, step, view.status};
  if (node != nullptr) progress.node = *node;
  if (step == progress_step::finished) {
    progress.best_path = view.best_path;
    progress.final_solution = view.final_solution;
  }
  listener_->on_progress(progress);
}

void run_board::finish(run_view& view, result<tot_outcome>& outcome) {
  if (!outcome) {
    view.status = run_status::failed;
    if (!view.started) {
      view.failed_to_start = outcome.err();
      view.started_signal.notify_all();
      return;
    }
    report(view, progress_step::finished);
    return;
  }
  // What the search changed without telling (expanded parents, merges, the terminal) is told now,
  // so the reports add up to the final tree.
  for (const auto& [id, node] : outcome->nodes) {
    const auto known = view.nodes.find(id);
    if (known != view.nodes.end() && to_json(known->second) == to_json(node)) continue;
    const auto step = step_between(known == view.nodes.end() ? nullptr : &known->second, node);
    view.nodes[id] = node;
    report(view, step, &node);
  }
  view.status = outcome->solved ? run_status::solved : run_status::failed;
  view.best_path = outcome->best_path;
  const message final_message{agent_role::orchestrator, "caller", outcome->solution, outcome->task_id, std::nullopt};
  view.final_solution = to_json(final_message).at("payload");
  report(view, progress_step::finished);
}

boost::asio::awaitable<result<run_board::started>> run_board::start(tot_request request) {
  if (auto checked = check_request(request); !checked) co_return std::move(checked).err();
  for (auto role : {agent_role::orchestrator, agent_role::decomposer, agent_role::generator, agent_role::evaluator}) {
    if (engine_.team().find_member(member_id_of(role)) == nullptr) {
      co_return make_error(errc::conflict, "the team has no " + member_id_of(role) +
                                               " member: list tree_of_thoughts in a member's tools, or declare the "
                                               "tot-* members in team.yaml (docs/tot.md)");
    }
  }
  auto view = std::make_shared<run_view>();
  auto executor = co_await boost::asio::this_coro::executor;
  boost::asio::co_spawn(
      executor,
      [this, view, request = std::move(request)]() -> boost::asio::awaitable<void> {
        tracker progress(*this, view);
        tot_runner runner(engine_, logs_, &progress);
        auto outcome = co_await runner.run(request);
        finish(*view, outcome);
      },
      boost::asio::detached);
  while (!view->started && !view->failed_to_start) co_await view->started_signal.wait();
  if (view->failed_to_start) co_return *view->failed_to_start;
  co_return started{view->task_id, view->root_dialog};
}

boost::asio::awaitable<result<tot_outcome>> run_board::run(tot_request request) {
  auto view = std::make_shared<run_view>();
  tracker progress(*this, view);
  tot_runner runner(engine_, logs_, &progress);
  auto outcome = co_await runner.run(request);
  finish(*view, outcome);
  co_return outcome;
}

void run_board::keep(const std::shared_ptr<run_view>& view) {
  runs_[view->task_id] = view;
  task_of_root_[view->root_dialog] = view->task_id;
  order_.push_back(view->task_id);
  while (order_.size() > kKeptRuns) {
    const auto oldest = runs_.find(order_.front());
    if (oldest != runs_.end() && oldest->second->status != run_status::running) runs_.erase(oldest);
    if (oldest == runs_.end() || !runs_.contains(order_.front()))
      order_.pop_front();
    else
      break;  // the oldest still runs: keep it, and the board grows by one until it ends
  }
}

json::object run_board::view_json(const run_view& run) {
  json::array nodes;
  for (const auto& [id, node] : run.nodes) nodes.push_back(to_json(node));
  json::object out{{"taskId", run.task_id},
                   {"rootDialog", run.root_dialog},
                   {"status", name_of(run.status)},
                   {"nodes", std::move(nodes)}};
  json::array best;
  for (const auto& id : run.best_path) best.emplace_back(id);
  out["bestPath"] = std::move(best);
  if (run.final_solution) out["finalSolution"] = *run.final_solution;
  return out;
}

boost::asio::awaitable<std::optional<json::object>> run_board::view(std::string task_id) {
  if (const auto found = runs_.find(task_id); found != runs_.end()) co_return view_json(*found->second);
  auto durable = co_await read_durable_run(logs_, task_id);
  if (!durable) co_return std::nullopt;
  run_view run;
  run.task_id = durable->task_id;
  run.root_dialog = durable->root_dialogs.empty() ? std::string() : durable->root_dialogs.back();
  run.status = durable->status;
  run.nodes = std::move(durable->nodes);
  run.best_path = std::move(durable->best_path);
  run.final_solution = std::move(durable->final_solution);
  co_return view_json(run);
}

boost::asio::awaitable<std::optional<json::object>> run_board::view_of_root(std::string root_dialog) {
  auto task = task_of_root_.find(root_dialog);
  if (task == task_of_root_.end()) {
    // A run this board did not start and that began after it indexed the folders (the
    // tree_of_thoughts tool's): the folders are indexed again.
    for (auto& [root, id] : index_run_roots(logs_)) task_of_root_.insert_or_assign(root, std::move(id));
    task = task_of_root_.find(root_dialog);
    if (task == task_of_root_.end()) co_return std::nullopt;
  }
  co_return co_await view(task->second);
}

}  // namespace parley::tot
