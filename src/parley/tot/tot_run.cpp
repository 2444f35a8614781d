#include "parley/tot/tot_run.hpp"

#include <cstdio>
#include <memory>

#include "parley/core/time.hpp"
#include "parley/tot/decomposition_check.hpp"
#include "parley/tot/engine_channel.hpp"
#include "parley/tot/game24/game24_task.hpp"
#include "parley/tot/game24/state.hpp"
#include "parley/tot/log_text.hpp"
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
  explorer_log(log_buffer& buffer, tot_progress* progress, logged_channel& channel)
      : buffer_(buffer), progress_(progress), channel_(channel) {}
  void on_round(std::int64_t /*round*/) override { channel_.start_round(); }
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
  logged_channel& channel_;
};

json::object task_info(const std::string& task_id, const checked_request& request, std::int64_t start_ms) {
  return {{"task_id", task_id},
          {"problem", request.problem},
          {"task_type", name_of(request.type)},
          {"start_time", format_iso8601_ms(start_ms)},
          {"status", to_name(task_status::running)},
          {"search_config", to_json(request.options.config)},
          {"generation_strategy", name_of(request.options.generation)},
          {"evaluation_strategy", name_of(request.options.evaluation)}};
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
  const std::string& lang = request.options.language;
  orchestrator.add("info", text_for(lang, "📋 问题类型: ", "📋 task type: ") + std::string(name_of(request.type)));
  const auto& config = request.options.config;
  const std::string strategy(name_of(config.strategy));
  const std::string breadth = std::to_string(config.branching_factor);
  const std::string depth = std::to_string(config.max_depth);
  const std::string threshold = number_text(config.pruning_threshold);
  orchestrator.add(
      "info",
      text_for(lang, "🔍 配置: " + strategy + ", 分支=" + breadth + ", 深度=" + depth + ", 阈值=" + threshold,
               "🔍 config: " + strategy + ", breadth=" + breadth + ", depth=" + depth + ", threshold=" + threshold),
      {{"root_dialog", root},
       {"generation_strategy", name_of(request.options.generation)},
       {"evaluation_strategy", name_of(request.options.evaluation)}});
}

void log_final_answer(log_buffer& orchestrator, const tot_outcome& outcome, const std::string& lang) {
  if (outcome.error) {
    orchestrator.add("error",
                     text_for(lang, "❌ 运行因错误结束: ", "❌ the run ended on an error: ") +
                         std::string(name_of(outcome.error->code)) + ": " + outcome.error->message,
                     {{"error", to_json(*outcome.error)}});
  }
  orchestrator.add(outcome.solved ? "info" : "warning",
                   outcome.solved ? text_for(lang, "🎯 最终答案: ", "🎯 final answer: ") + outcome.solution.answer
                                  : text_for(lang, "⚠️ 未得到有效答案", "⚠️ no valid answer"),
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
  checked_request& request;  // the decomposition sets its depth and constraints
  run_folder& folder;
  logged_channel& channel;
  log_buffer& orchestrator;
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

std::string role_title(agent_role role) {
  std::string name(name_of(role));
  name[0] = static_cast<char>(name[0] - 'a' + 'A');
  return name;
}

// One exchange with the decomposer or the synthesizer. The seed's `error` a role answers with is
// logged in the orchestrator's file; a recoverable one is asked again, as the explorer does its
// generator and evaluator (explorer_options::retries), a non-recoverable one is the answer.
template <class Reply>
boost::asio::awaitable<agent_answer<Reply>> ask_role(run_steps& steps, agent_role role, const message& request) {
  for (int attempt = 0;; ++attempt) {
    auto answer = co_await exchange<Reply>(steps.channel, steps.agent_options, role, request, steps.other_calls);
    const auto* error = std::get_if<protocol_error>(&answer);
    if (error == nullptr) co_return answer;
    steps.orchestrator.add("error",
                           "❌ [" + role_title(role) + "] " + std::string(name_of(error->code)) + ": " + error->message,
                           {{"error", to_json(*error)}, {"attempt", attempt + 1}});
    if (!error->recoverable || attempt >= steps.request.options.retries) co_return answer;
  }
}

json::object message_json(const message& m) { return to_json(m).as_object(); }

// The explorer's search, from the orchestrator's initialize_search to its search_complete, both
// written to the orchestrator's and the explorer's files as the seed exchanges them.
boost::asio::awaitable<search_outcome> explore_from_the_decomposition(run_steps& steps, task_plugin& task,
                                                                      const decomposition_result& decomposition) {
  const std::string& lang = steps.request.options.language;
  model_agent_options agents = steps.agent_options;
  model_generator generator(steps.channel, agents);
  model_evaluator evaluator(steps.channel, agents);
  const std::string explorer_file = steps.folder.reserve(agent_role::explorer);
  const message init{agent_role::orchestrator, "explorer",
                     initialize_search{steps.request.problem, steps.request.type, steps.request.options.config,
                                       to_json(message_payload(decomposition)).as_object()},
                     steps.folder.task_id(), std::nullopt};
  steps.orchestrator.add(
      "info", text_for(lang, "📤 [Orchestrator → Explorer] 初始化搜索", "📤 [Orchestrator → Explorer] initialize_search"),
      {{"message", message_json(init)}});
  log_buffer explorer_buffer;
  explorer_buffer.add("info",
                      text_for(lang, "📥 [Explorer] 收到 initialize_search", "📥 [Explorer] initialize_search received"),
                      {{"message", message_json(init)}});
  explorer_log observer(explorer_buffer, steps.progress, steps.channel);
  explorer search(task, generator, evaluator, steps.request.options, &observer);
  search_outcome searched = co_await search.run(steps.folder.task_id(), steps.request.problem, steps.request.type);
  const message complete{agent_role::explorer, "orchestrator", searched.complete, steps.folder.task_id(),
                         searched.failure && !searched.solved ? searched.failure : std::nullopt};
  explorer_buffer.add(
      "info", text_for(lang, "📤 [Explorer → Orchestrator] 搜索完成", "📤 [Explorer → Orchestrator] search_complete"),
      {{"message", message_json(complete)}});
  (void)steps.folder.write(explorer_file, explorer_buffer);
  json::array best;
  for (const auto& id : searched.complete.tree.search_state.best_path) best.emplace_back(id);
  const auto& stats = searched.complete.stats;
  steps.orchestrator.add(
      "info", text_for(lang, "📥 [Orchestrator] 收到 search_complete", "📥 [Orchestrator] search_complete received"),
      {{"type", "search_complete"},
       {"best_path", std::move(best)},
       {"stats",
        {{"total_nodes", stats.total_nodes},
         {"total_backtracks", stats.total_backtracks},
         {"llm_calls", stats.llm_calls}}}});
  co_return searched;
}

// The seed's last step: the synthesizer writes the answer from the best path (synthesize_solution
// → final_solution), and a task that can check it does. A wrong answer is reported as the run's
// error, never replaced by one written in code.
boost::asio::awaitable<final_solution> ask_synthesizer(run_steps& steps, task_plugin& task,
                                                       const search_outcome& searched,
                                                       std::optional<protocol_error>& run_error) {
  const checked_request& request = steps.request;
  const message synthesize{agent_role::explorer, "synthesizer",
                           synthesize_solution{searched.complete.best_path, request.problem, request.type},
                           steps.folder.task_id(), std::nullopt};
  auto written = co_await ask_role<final_solution>(steps, agent_role::synthesizer, synthesize);
  if (auto* refused = std::get_if<protocol_error>(&written)) {
    run_error = *refused;
    co_return failed_solution(std::string(name_of(refused->code)) + ": " + refused->message);
  }
  final_solution answer = std::move(std::get<final_solution>(written));
  auto checked = task.check_answer(request.problem, answer.answer);
  if (!checked) co_return answer;
  answer.verification = std::move(*checked);
  if (!answer.verification.is_valid) {
    std::string why = "synthesizer: the answer '" + answer.answer.substr(0, 200) + "' does not check";
    for (const auto& e : answer.verification.validation_errors) why += "; " + e;
    run_error = protocol_error{error_code::generation_failed, why, false};
    answer.verification.validation_errors.insert(answer.verification.validation_errors.begin(), why);
    answer.confidence = 0;
    steps.orchestrator.add("error", "❌ [Synthesizer] " + why, {{"error", to_json(*run_error)}});
  }
  co_return answer;
}

boost::asio::awaitable<final_solution> synthesize_answer(run_steps& steps, task_plugin& task,
                                                         const search_outcome& searched,
                                                         std::optional<protocol_error>& run_error) {
  final_solution solution = failed_solution("no answer was written");
  if (searched.solved) solution = co_await ask_synthesizer(steps, task, searched, run_error);
  if (searched.failure && !searched.solved) {
    run_error = searched.failure;
    solution.verification.is_valid = false;
    solution.verification.validation_errors.insert(
        solution.verification.validation_errors.begin(),
        std::string(name_of(searched.failure->code)) + ": " + searched.failure->message);
  }
  co_return solution;
}

// The decomposer's answer checked and applied to the search (decomposition_check.hpp).
std::optional<protocol_error> take_decomposition(run_steps& steps, const decomposition_result& decomposition,
                                                 json::object& info) {
  const std::string& lang = steps.request.options.language;
  if (auto wrong = check_decomposition(decomposition)) {
    steps.orchestrator.add("error", "❌ [Decomposer] " + std::string(name_of(wrong->code)) + ": " + wrong->message,
                           {{"error", to_json(*wrong)}});
    return wrong;
  }
  apply_decomposition(steps.request.options, decomposition, steps.request.depth_given);
  json::array constraints;
  for (const auto& c : decomposition.constraints) constraints.emplace_back(c);
  steps.orchestrator.add("progress", text_for(lang, "✅ 分解完成", "✅ decomposition done"),
                         {{"thought_granularity", decomposition.thought_granularity},
                          {"depth_estimate", decomposition.depth_estimate},
                          {"max_depth", steps.request.options.config.max_depth},
                          {"constraints", std::move(constraints)}});
  info["search_config"] = to_json(steps.request.options.config);
  return std::nullopt;
}

// Decomposer, explorer, synthesizer: the run's outcome.
boost::asio::awaitable<std::optional<search_outcome>> run_the_agents(run_steps& steps, tot_outcome& outcome,
                                                                     json::object& info) {
  const checked_request& request = steps.request;
  const message decompose{agent_role::orchestrator, "decomposer", decompose_task{request.problem, request.type},
                          steps.folder.task_id(), std::nullopt};
  auto decomposition = co_await ask_role<decomposition_result>(steps, agent_role::decomposer, decompose);
  std::optional<protocol_error> failed;
  if (auto* error = std::get_if<protocol_error>(&decomposition)) {
    failed = *error;
  } else {
    failed = take_decomposition(steps, std::get<decomposition_result>(decomposition), info);
  }
  if (failed) {
    outcome.error = failed;
    outcome.solution = failed_solution(std::string(name_of(failed->code)) + ": " + failed->message);
    co_return std::nullopt;
  }
  (void)steps.folder.write_task_info(info);  // the search_config the decomposition set
  const std::unique_ptr<task_plugin> task = task_plugin_for(request);
  search_outcome searched =
      co_await explore_from_the_decomposition(steps, *task, std::get<decomposition_result>(decomposition));
  outcome.stats = searched.complete.stats;
  outcome.best_path = searched.complete.tree.search_state.best_path;
  outcome.nodes = searched.complete.tree.nodes;
  outcome.tree = searched.complete.tree;
  (void)steps.folder.write_thought_tree(to_json(searched.complete.tree));
  outcome.solution = co_await synthesize_answer(steps, *task, searched, outcome.error);
  outcome.solved = searched.solved && outcome.solution.verification.is_valid;
  co_return searched;
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
    out.depth_given = true;
  }
  // The seed's two generation and two evaluation strategies; absent: the task type's.
  if (request.generation) {
    auto generation = parse_generation_strategy(*request.generation, "generation_strategy");
    if (!generation) return std::move(generation).err();
    out.options.generation = *generation;
  }
  if (request.evaluation) {
    auto evaluation = parse_evaluation_strategy(*request.evaluation, "evaluation_strategy");
    if (!evaluation) return std::move(evaluation).err();
    out.options.evaluation = *evaluation;
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
  // Absent from runs written before they were recorded: the task type's defaults, as then.
  for (const auto& [key, into] :
       {std::pair{"generation_strategy", &limits.generation}, std::pair{"evaluation_strategy", &limits.evaluation}}) {
    const auto* value = info.if_contains(key);
    if (value == nullptr) continue;
    if (!value->is_string())
      return make_error(errc::corrupt, std::string("00-task-info.json: ") + key + ": not a string");
    *into = std::string(value->get_string());
  }
  return check_request(limits);
}

tot_runner::tot_runner(engine::engine& engine, run_logs logs, tot_progress* progress)
    : engine_(engine), logs_(std::move(logs)), progress_(progress) {}

result<run_folder> tot_runner::open_folder(const std::string& task_id) const { return logs_.open(task_id); }

boost::asio::awaitable<result<tot_outcome>> tot_runner::run(tot_request request) {
  auto checked = check_request(request);
  if (!checked) co_return std::move(checked).err();
  co_return co_await run_checked(std::move(*checked), std::nullopt);
}

boost::asio::awaitable<result<tot_outcome>> tot_runner::resume(std::string task_id, tot_request limits) {
  auto folder = open_folder(task_id);
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
  request.options.language = engine_.team().language;
  auto opened = resume_id ? open_folder(*resume_id) : logs_.create(start_ms);
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
  logged_channel channel(live, folder, request.options.language);
  if (resume_id) PARLEY_CO_TRY(channel.load_replays());
  run_steps steps{request, folder, channel, orchestrator, model_agent_options{}, 0, progress_};
  steps.agent_options.type = request.type;
  steps.agent_options.task_id = folder.task_id();
  std::optional<search_outcome> searched = co_await run_the_agents(steps, outcome, info);
  outcome.stats.llm_calls = live.meter().calls;
  outcome.replayed_calls = channel.replayed();
  log_final_answer(orchestrator, outcome, request.options.language);
  (void)folder.write(orchestrator_file, orchestrator);
  PARLEY_CO_TRY(folder.finish_names());

  note_run_end(info, outcome, searched, start_ms);
  PARLEY_CO_TRY(folder.write_task_info(info));
  PARLEY_CO_TRY(folder.merge_timeline(outcome.stats.llm_calls));
  co_return outcome;
}

}  // namespace parley::tot
