#include "parley/tot/run_board.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/this_coro.hpp>

#include "parley/engine/async_signal.hpp"
#include "parley/tot/engine_channel.hpp"
#include "parley/tot/protocol_json.hpp"

namespace parley::tot {

namespace {
constexpr std::size_t kKeptRuns = 64;
}

struct run_board::run_view {
  std::string task_id;
  std::string root_dialog;
  std::string status = "running";
  std::map<std::string, thought_node> nodes;
  std::vector<std::string> best_path;
  std::optional<json::value> final_solution;
  std::optional<error> failed_to_start;
  bool started = false;
  engine::async_signal started_signal;
};

class run_board::tracker final : public tot_progress {
 public:
  explicit tracker(std::shared_ptr<run_view> view) : view_(std::move(view)) {}
  void on_started(const std::string& task_id, const std::string& root) override {
    view_->task_id = task_id;
    view_->root_dialog = root;
    view_->started = true;
    view_->started_signal.notify_all();
  }
  void on_node(const thought_node& node) override { view_->nodes[node.id] = node; }

 private:
  std::shared_ptr<run_view> view_;
};

run_board::run_board(engine::engine& engine, std::filesystem::path data_dir)
    : engine_(engine), data_dir_(std::move(data_dir)) {}

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
        tracker progress(view);
        tot_runner runner(engine_, data_dir_, &progress);
        auto outcome = co_await runner.run(request);
        if (!outcome) {
          view->status = "failed";
          if (!view->started) {
            view->failed_to_start = outcome.err();
            view->started_signal.notify_all();
          }
          co_return;
        }
        view->status = outcome->solved ? "solved" : "failed";
        view->best_path = outcome->best_path;
        const message final_message{agent_role::orchestrator, "caller", outcome->solution, outcome->task_id,
                                    std::nullopt};
        view->final_solution = to_json(final_message).at("payload");
      },
      boost::asio::detached);
  while (!view->started && !view->failed_to_start) co_await view->started_signal.wait();
  if (view->failed_to_start) co_return *view->failed_to_start;
  runs_[view->task_id] = view;
  order_.push_back(view->task_id);
  while (order_.size() > kKeptRuns) {
    const auto oldest = runs_.find(order_.front());
    if (oldest != runs_.end() && oldest->second->status != "running") runs_.erase(oldest);
    if (oldest == runs_.end() || !runs_.contains(order_.front()))
      order_.pop_front();
    else
      break;  // the oldest still runs: keep it, and the board grows by one until it ends
  }
  co_return started{view->task_id, view->root_dialog};
}

std::optional<std::string> run_board::root_of(std::string_view task_id) const {
  const auto found = runs_.find(task_id);
  if (found == runs_.end()) return std::nullopt;
  return found->second->root_dialog;
}

std::optional<std::string> run_board::task_of_root(std::string_view root_dialog) const {
  for (const auto& [id, run] : runs_) {
    if (run->root_dialog == root_dialog) return id;
  }
  return std::nullopt;
}

std::optional<json::object> run_board::view(std::string_view task_id) const {
  const auto found = runs_.find(task_id);
  if (found == runs_.end()) return std::nullopt;
  const auto& run = *found->second;
  json::array nodes;
  for (const auto& [id, node] : run.nodes) nodes.push_back(to_json(node));
  json::object out{
      {"taskId", run.task_id}, {"rootDialog", run.root_dialog}, {"status", run.status}, {"nodes", std::move(nodes)}};
  json::array best;
  for (const auto& id : run.best_path) best.emplace_back(id);
  out["bestPath"] = std::move(best);
  if (run.final_solution) out["finalSolution"] = *run.final_solution;
  return out;
}

}  // namespace parley::tot
