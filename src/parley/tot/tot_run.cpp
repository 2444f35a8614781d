#include "parley/tot/tot_run.hpp"

#include <cstdio>
#include <memory>

#include "parley/core/time.hpp"
#include "parley/tot/engine_channel.hpp"
#include "parley/tot/game24/game24_task.hpp"
#include "parley/tot/game24/state.hpp"
#include "parley/tot/logged_channel.hpp"
#include "parley/tot/model_agents.hpp"
#include "parley/tot/protocol_json.hpp"
#include "parley/tot/protocol_names.hpp"
#include "parley/tot/run_log.hpp"
#include "parley/tot/task_defaults.hpp"
#include "parley/tot/text_task.hpp"

namespace parley::tot {
namespace {

std::string range_error(std::string_view field, const std::string& shown, std::string_view range) {
  return std::string(field) + ": " + shown + " is outside " + std::string(range);
}

// Writes the explorer's steps into its buffer and passes them on.
class explorer_log final : public search_observer {
 public:
  explorer_log(log_buffer& buffer, tot_progress* progress) : buffer_(buffer), progress_(progress) {}
  void on_log(std::string_view level, std::string msg, json::object data) override {
    if (progress_ != nullptr) progress_->on_log(level, msg);
    buffer_.add(level, std::move(msg), std::move(data));
  }
  void on_node(const thought_node& node) override {
    if (progress_ != nullptr) progress_->on_node(node);
  }

 private:
  log_buffer& buffer_;
  tot_progress* progress_;
};

json::object task_info(const std::string& task_id, const checked_request& request, std::int64_t start_ms) {
  return {{"task_id", task_id},
          {"problem", request.problem},
          {"task_type", name_of(request.type)},
          {"start_time", format_iso8601_ms(start_ms)},
          {"status", to_name(task_status::running)},
          {"search_config", to_json(request.options.config)}};
}

std::string number_text(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

final_solution failed_solution(const std::string& what) {
  final_solution out;
  out.verification.is_valid = false;
  out.verification.validation_errors.push_back(what);
  return out;
}

// A resumed run keeps its first start time and the roots it had; the caller adds this run's root.
json::array note_resume(const run_folder& folder, json::object& info, std::int64_t start_ms) {
  json::array roots;
  if (auto earlier = folder.read_task_info()) {
    // request_of_task_info read this file strictly before the resume came here.
    if (auto fields = read_task_info_fields(*earlier)) info["start_time"] = fields->start_time;
    if (const auto* known = earlier->if_contains("root_dialogs"); known != nullptr && known->is_array())
      roots = known->get_array();
  }
  info["resumed_at"] = format_iso8601_ms(start_ms);
  info["root_dialogs"] = roots;
  return roots;
}

void log_task_header(log_buffer& orchestrator, const checked_request& request, const std::string& root) {
  orchestrator.add("info", "📋 问题类型: " + std::string(name_of(request.type)));
  const auto& config = request.options.config;
  orchestrator.add("info",
                   "🔍 配置: " + std::string(name_of(config.strategy)) +
                       ", 分支=" + std::to_string(config.branching_factor) +
                       ", 深度=" + std::to_string(config.max_depth) + ", 阈值=" + number_text(config.pruning_threshold),
                   {{"root_dialog", root}});
}

void log_final_answer(log_buffer& orchestrator, const tot_outcome& outcome) {
  orchestrator.add(outcome.solved ? "info" : "warning",
                   outcome.solved ? "🎯 最终答案: " + outcome.solution.answer : "⚠️ 未得到有效答案",
                   {{"final_solution", to_json(message{agent_role::synthesizer, "orchestrator", outcome.solution,
                                                       outcome.task_id, std::nullopt})
                                           .at("payload")}});
}

void note_run_end(json::object& info, const tot_outcome& outcome, const std::optional<search_outcome>& searched,
                  std::int64_t start_ms) {
  const std::int64_t end_ms = now_ms();
  info["end_time"] = format_iso8601_ms(end_ms);
  const auto started = parse_iso8601_ms(info.at("start_time").as_string());  // task_info() wrote it
  info["duration_ms"] = end_ms - started.value_or(start_ms);
  info["status"] = to_name(outcome.solved ? task_status::completed : task_status::failed);
  info["final_stats"] = {{"total_nodes", outcome.stats.total_nodes},
                         {"llm_calls", outcome.stats.llm_calls},
                         {"best_score", searched ? searched->best_score : 0.0}};
}

// What the steps after the decomposition share.
struct run_steps {
  const checked_request& request;
  run_folder& folder;
  logged_channel& channel;
  model_agent_options agent_options;
  std::int64_t other_calls;
  tot_progress* progress;
};

// A Game of 24 puzzle is checked and answered by its own rules; any other task is text.
std::unique_ptr<task_plugin> task_plugin_for(const checked_request& request) {
  const bool puzzle = request.type == task_type::math_reasoning && game24::state::from_puzzle(request.problem);
  if (puzzle) return std::make_unique<game24::game24_task>();
  return std::make_unique<text_task>();
}

// The explorer's search, its steps written to its own log file.
boost::asio::awaitable<search_outcome> explore_from_the_decomposition(run_steps& steps, task_plugin& task) {
  model_generator generator(steps.channel, steps.agent_options);
  model_evaluator evaluator(steps.channel, steps.agent_options);
  const std::string explorer_file = steps.folder.reserve(agent_role::explorer);
  log_buffer explorer_buffer;
  explorer_log observer(explorer_buffer, steps.progress);
  explorer search(task, generator, evaluator, steps.request.options, &observer);
  search_outcome searched = co_await search.run(steps.folder.task_id(), steps.request.problem, steps.request.type);
  (void)steps.folder.write(explorer_file, explorer_buffer);
  co_return searched;
}

// The answer: the task writes it itself where it can, else the synthesizer does from the best path.
boost::asio::awaitable<final_solution> synthesize_answer(run_steps& steps, task_plugin& task,
                                                         const search_outcome& searched) {
  const checked_request& request = steps.request;
  std::optional<final_solution> answer = task.synthesize(request.problem, searched.complete.best_path);
  if (!answer && searched.solved) {
    const message synthesize{agent_role::explorer, "synthesizer",
                             synthesize_solution{searched.complete.best_path, request.problem, request.type},
                             steps.folder.task_id(), std::nullopt};
    auto written = co_await exchange<final_solution>(steps.channel, steps.agent_options, agent_role::synthesizer,
                                                     synthesize, steps.other_calls);
    if (auto* ok = std::get_if<final_solution>(&written)) {
      answer = std::move(*ok);
    } else {
      const auto& refused = std::get<protocol_error>(written);
      answer = failed_solution(std::string(name_of(refused.code)) + ": " + refused.message);
    }
  }
  final_solution solution = answer ? std::move(*answer) : failed_solution("no answer was written");
  if (searched.failure && !searched.solved) {
    solution.verification.is_valid = false;
    solution.verification.validation_errors.insert(
        solution.verification.validation_errors.begin(),
        std::string(name_of(searched.failure->code)) + ": " + searched.failure->message);
  }
  co_return solution;
}

}  // namespace

result<checked_request> check_request(const tot_request& request) {
  PARLEY_TRY(check_problem(request.problem, "problem"));
  auto type = parse_task_type(request.task_type, "task_type");
  if (!type) return std::move(type).err();
  checked_request out;
  out.problem = request.problem;
  out.type = *type;
  const auto& d = defaults_for(*type);
  out.options.config = d.config;
  out.options.generation = d.generation;
  out.options.evaluation = d.evaluation;
  out.options.num_candidates = d.num_candidates;
  out.options.max_parallel = std::clamp<std::size_t>(request.max_parallel, 1, 16);
  out.options.max_model_calls = request.max_model_calls;
  out.call_timeout = request.call_timeout;
  if (request.strategy) {
    auto strategy = parse_search_strategy(*request.strategy, "strategy");
    if (!strategy) return std::move(strategy).err();
    out.options.config.strategy = *strategy;
  }
  if (request.depth) {
    if (*request.depth < 1 || *request.depth > kMaxSearchDepth) {
      return make_error(errc::invalid_argument, range_error("depth", std::to_string(*request.depth), "1–10"));
    }
    out.options.config.max_depth = *request.depth;
  }
  if (request.breadth) {
    if (*request.breadth < 1 || *request.breadth > kMaxBranchingFactor) {
      return make_error(errc::invalid_argument, range_error("breadth", std::to_string(*request.breadth), "1–20"));
    }
    out.options.config.branching_factor = *request.breadth;
  }
  if (request.threshold) {
    if (!(*request.threshold >= 0 && *request.threshold <= kMaxScore)) {
      return make_error(errc::invalid_argument, "threshold: must be a number 0–10");
    }
    out.options.config.pruning_threshold = *request.threshold;
  }
  if (request.max_model_calls < 1 || request.max_model_calls > 10000) {
    return make_error(errc::invalid_argument, "max_model_calls: must be 1–10000");
  }
  return out;
}

result<checked_request> request_of_task_info(const json::object& info, tot_request limits) {
  auto fields = read_task_info_fields(info);
  if (!fields) return std::move(fields).err();
  limits.problem = fields->problem;
  limits.task_type = fields->task_type;
  if (const auto* config = info.if_contains("search_config")) {
    auto read = read_search_config(*config, "search_config");
    if (!read) return std::move(read).err();
    limits.strategy = std::string(name_of(read->strategy));
    limits.depth = read->max_depth;
    limits.breadth = read->branching_factor;
    limits.threshold = read->pruning_threshold;
  }
  return check_request(limits);
}

tot_runner::tot_runner(engine::engine& engine, std::filesystem::path data_dir, tot_progress* progress)
    : engine_(engine), data_dir_(std::move(data_dir)), progress_(progress) {}

boost::asio::awaitable<result<tot_outcome>> tot_runner::run(tot_request request) {
  auto checked = check_request(request);
  if (!checked) co_return std::move(checked).err();
  co_return co_await run_checked(std::move(*checked), std::nullopt);
}

boost::asio::awaitable<result<tot_outcome>> tot_runner::resume(std::string task_id, tot_request limits) {
  auto folder = run_folder::open(data_dir_, task_id);
  if (!folder) co_return std::move(folder).err();
  auto info = folder->read_task_info();
  if (!info) co_return std::move(info).err();
  auto checked = request_of_task_info(*info, std::move(limits));
  if (!checked) co_return std::move(checked).err();
  co_return co_await run_checked(std::move(*checked), task_id);
}

boost::asio::awaitable<result<tot_outcome>> tot_runner::run_checked(checked_request request,
                                                                    std::optional<std::string> resume_id) {
  const std::int64_t start_ms = now_ms();
  auto opened = resume_id ? run_folder::open(data_dir_, *resume_id) : run_folder::create(data_dir_, start_ms);
  if (!opened) co_return std::move(opened).err();
  run_folder folder = std::move(*opened);
  json::object info = task_info(folder.task_id(), request, start_ms);
  json::array roots = resume_id ? note_resume(folder, info, start_ms) : json::array{};
  PARLEY_CO_TRY(folder.write_task_info(info));

  engine::new_dialog root_spec;
  root_spec.member_id = member_id_of(agent_role::orchestrator);
  root_spec.title = "ToT " + folder.task_id() + ": " + request.problem.substr(0, 80);
  auto root = co_await engine_.create_root_dialog(std::move(root_spec));
  if (!root) co_return std::move(root).err();
  // The folder names its roots from the start, so a server that restarts finds the run from its
  // root even when the run never ended (docs/tot.md, "After a restart").
  roots.emplace_back(*root);
  info["root_dialog"] = *root;
  info["root_dialogs"] = std::move(roots);
  PARLEY_CO_TRY(folder.write_task_info(info));
  if (progress_ != nullptr) progress_->on_started(folder.task_id(), *root);

  tot_outcome outcome;
  outcome.task_id = folder.task_id();
  outcome.root_dialog = *root;
  outcome.log_dir = folder.dir();
  const std::string orchestrator_file = folder.reserve(agent_role::orchestrator);
  log_buffer orchestrator;
  log_task_header(orchestrator, request, *root);

  engine_channel live(engine_, *root, request.call_timeout);
  logged_channel channel(live, folder);
  if (resume_id) PARLEY_CO_TRY(channel.load_replays());
  run_steps steps{request, folder, channel, model_agent_options{}, 0, progress_};
  steps.agent_options.type = request.type;

  // The decomposer: its result goes to the explorer as the seed's initialize_search carries it.
  const message decompose{agent_role::orchestrator, "decomposer", decompose_task{request.problem, request.type},
                          folder.task_id(), std::nullopt};
  auto decomposition = co_await exchange<decomposition_result>(channel, steps.agent_options, agent_role::decomposer,
                                                               decompose, steps.other_calls);
  std::optional<search_outcome> searched;
  if (auto* failed = std::get_if<protocol_error>(&decomposition)) {
    orchestrator.add("error", "❌ [Decomposer] " + std::string(name_of(failed->code)) + ": " + failed->message);
    outcome.solution = failed_solution(std::string(name_of(failed->code)) + ": " + failed->message);
  } else {
    orchestrator.add("progress", "✅ 分解完成",
                     {{"thought_granularity", std::get<decomposition_result>(decomposition).thought_granularity},
                      {"depth_estimate", std::get<decomposition_result>(decomposition).depth_estimate}});
    const std::unique_ptr<task_plugin> task = task_plugin_for(request);
    searched = co_await explore_from_the_decomposition(steps, *task);
    outcome.stats = searched->complete.stats;
    outcome.best_path = searched->complete.tree.search_state.best_path;
    outcome.nodes = searched->complete.tree.nodes;
    outcome.solved = searched->solved;
    outcome.solution = co_await synthesize_answer(steps, *task, *searched);
    outcome.solved = outcome.solved && outcome.solution.verification.is_valid;
  }
  outcome.stats.llm_calls = live.meter().calls;
  outcome.replayed_calls = channel.replayed();
  log_final_answer(orchestrator, outcome);
  (void)folder.write(orchestrator_file, orchestrator);

  note_run_end(info, outcome, searched, start_ms);
  PARLEY_CO_TRY(folder.write_task_info(info));
  PARLEY_CO_TRY(folder.merge_timeline(outcome.stats.llm_calls));
  co_return outcome;
}

}  // namespace parley::tot
