// `parley tot "problem"`: one Tree of Thoughts run (seed 003) with the six roles as members of the
// team (--team / --workspace; without one, the offline noisy Game of 24 model plays them), its log
// folder under DATA/logs/, and `--resume RUN` to continue a run from that folder.
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json/serialize.hpp>

#include <cstdio>
#include <optional>

#include "cli_context.hpp"
#include "cli_messages.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/tot/game24/noisy_model.hpp"
#include "parley/tot/protocol_json.hpp"
#include "parley/tot/protocol_names.hpp"
#include "parley/tot/run_log.hpp"
#include "parley/tot/tot_run.hpp"
#include "parley/tot/tot_team.hpp"
#include "parley/tot/tot_tool.hpp"
#include "verb_usage.hpp"
#include "verbs.hpp"

namespace parley::cli {

namespace asio = boost::asio;

namespace {

// --flag N, or `fallback` when absent; what the number means is checked by the run's request.
result<std::int64_t> integer_flag(const parsed_args& args, const std::string& flag, std::int64_t fallback) {
  auto value = args.integer(flag);
  if (!value) return std::move(value).err();
  return value->value_or(fallback);
}

result<tot::tot_request> request_of(const parsed_args& args) {
  tot::tot_request request;
  if (!args.positionals.empty()) request.problem = args.positionals[0];
  request.task_type = args.value("task-type").value_or("math_reasoning");
  request.strategy = args.value("strategy");
  request.generation = args.value("generation-strategy");
  request.evaluation = args.value("evaluation-strategy");
  if (args.value("depth")) {
    auto depth = integer_flag(args, "depth", 0);
    if (!depth) return std::move(depth).err();
    request.depth = *depth;
  }
  if (args.value("breadth")) {
    auto breadth = integer_flag(args, "breadth", 0);
    if (!breadth) return std::move(breadth).err();
    request.breadth = *breadth;
  }
  auto threshold = args.number("threshold");
  if (!threshold) return std::move(threshold).err();
  request.threshold = *threshold;
  auto calls = integer_flag(args, "max-calls", 400);
  if (!calls) return std::move(calls).err();
  request.max_model_calls = *calls;
  auto timeout = integer_flag(args, "timeout-ms", 120000);
  if (!timeout) return std::move(timeout).err();
  if (*timeout < 1 || *timeout > 3600000) return make_error(errc::invalid_argument, "timeout-ms: must be 1–3600000");
  request.call_timeout = std::chrono::milliseconds(*timeout);
  auto parallel = integer_flag(args, "parallel", 4);
  if (!parallel) return std::move(parallel).err();
  if (*parallel < 1 || *parallel > 16) return make_error(errc::invalid_argument, "parallel: must be 1–16");
  request.max_parallel = static_cast<std::size_t>(*parallel);
  return request;
}

result<tot::game24::noise_settings> noise_of(const parsed_args& args) {
  tot::game24::noise_settings noise;
  auto seed = integer_flag(args, "seed", 1);
  if (!seed) return std::move(seed).err();
  noise.seed = static_cast<std::uint64_t>(*seed);
  const std::string level = args.value("noise").value_or("none");
  if (level == "low") {
    noise.arithmetic_error_rate = 0.05;
    noise.missed_move_rate = 0.25;
    noise.misvalue_rate = 0.10;
  } else if (level == "high") {
    noise.arithmetic_error_rate = 0.15;
    noise.missed_move_rate = 0.45;
    noise.misvalue_rate = 0.25;
  } else if (level != "none") {
    return make_error(errc::invalid_argument, "noise: '" + level.substr(0, 40) + "' is not one of none, low, high");
  }
  return noise;
}

// The team the run's members come from: the given one with the ToT members added on its default
// member's model, or an offline team on the noisy Game of 24 model.
result<engine_inputs> tot_inputs(const parsed_args& args, tot::task_type type) {
  if (args.value("team") || args.value("workspace")) {
    auto inputs = prepare_engine_inputs(args);
    if (!inputs) return std::move(inputs).err();
    const auto* lead = inputs->team.find_member(inputs->team.default_member);
    if (lead == nullptr) return make_error(errc::config_error, "the team has no default member to take the model from");
    const std::string provider = lead->provider;
    const std::string model = lead->model;
    tot::add_tot_members(inputs->team, type, provider, model);
    return inputs;
  }
  auto noise = noise_of(args);
  if (!noise) return std::move(noise).err();
  const auto data_dir = data_dir_of(args);
  auto log = open_data_store(data_dir);
  if (!log) return std::move(log).err();
  engine_inputs inputs;
  inputs.team.workspace = std::filesystem::current_path();
  inputs.team.source = "(parley tot: offline noisy Game of 24 model)";
  inputs.providers.emplace("noisy24", std::make_shared<tot::game24::noisy_model>(*noise));
  tot::add_tot_members(inputs.team, type, "noisy24", "noisy24");
  inputs.log = std::move(*log);
  inputs.protected_dirs = {{data_dir, "Parley's data directory"}};
  return inputs;
}

// Where the run's folder goes, or is found for --resume (tot/run_logs.hpp): --logs, else the
// workspace's logs/ — the team's when one is named (read without opening the store, so that a
// resume of a run that is not there opens nothing), else the current folder's, where the built-in
// team works.
result<tot::run_logs> tot_run_logs(const parsed_args& args) {
  config::team_config team;
  team.workspace = std::filesystem::current_path();
  if (const auto file = args.value("team")) {
    PARLEY_TRY_ASSIGN(team, config::load_team_file(*file));
  } else if (const auto workspace = args.value("workspace")) {
    PARLEY_TRY_ASSIGN(team, config::load_dominds_workspace(*workspace));
  }
  return tot_logs_of(args, team, "logs");
}

class terminal_progress final : public tot::tot_progress {
 public:
  explicit terminal_progress(bool quiet) : quiet_(quiet) {}
  void on_started(const std::string& task_id, const std::string& root) override {
    if (!quiet_) {
      std::fprintf(stderr, "parley: %s\n", say_cli(msg::tot_run_started, {{"task", task_id}, {"root", root}}).c_str());
    }
  }
  void on_log(std::string_view, const std::string& msg) override {
    if (!quiet_) std::fprintf(stderr, "  %s\n", msg.c_str());
  }

 private:
  bool quiet_;
};

}  // namespace

int run_verb_tot(const std::vector<std::string>& raw) {
  auto args = parse_args(raw, arg_spec_of("tot"));
  if (!args) return report(args.err());
  if (args->help) return show_verb_help();
  const auto resume = args->value("resume");
  if ((resume && !args->positionals.empty()) || (!resume && args->positionals.size() != 1)) {
    return report(make_error(errc::invalid_argument, usage_of("tot")));
  }
  auto request = request_of(*args);
  if (!request) return report(request.err());
  auto logs = tot_run_logs(*args);
  if (!logs) return report(logs.err());
  std::string type_name = request->task_type;
  if (resume) {
    auto folder = logs->open(*resume);
    if (!folder) return report(folder.err());
    auto info = folder->read_task_info();
    if (!info) return report(info.err());
    type_name = json_string_or(*info, "task_type");
  } else if (auto checked = tot::check_request(*request); !checked) {
    return report(checked.err());  // nothing is opened or written for a refused request
  }
  auto type = tot::parse_task_type(type_name, "task_type");
  if (!type) return report(type.err());
  auto inputs = tot_inputs(*args, *type);
  if (!inputs) return report(inputs.err());

  asio::io_context io;
  // A team whose member may run searches itself (tools: tree_of_thoughts) runs here too, as under
  // `parley serve`.
  auto tools = engine::build_builtin_tools(inputs->team);
  auto tot_binding = std::make_shared<tot::tot_tool_binding>();
  tot_binding->logs = *logs;
  tot::offer_tree_of_thoughts(inputs->team, tools, tot_binding);
  auto created = engine::engine::create(io.get_executor(), *inputs->log, inputs->team, std::move(inputs->providers),
                                        std::move(tools));
  if (!created) return report(created.err());
  auto& eng = **created;
  tot_binding->engine = &eng;
  eng.drives().set_protected_dirs(std::move(inputs->protected_dirs));
  terminal_progress progress(args->has("quiet") || args->has("json"));
  tot::tot_runner runner(eng, *logs, &progress);
  std::optional<result<tot::tot_outcome>> finished;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        // The MCP servers' processes would keep io.run() from returning.
        struct stop_mcp_servers {
          engine::engine& eng;
          ~stop_mcp_servers() { eng.stop_mcp(); }
        } mcp_guard{eng};
        // Not a conditional expression of two co_awaits: GCC 12 miscompiles those.
        if (resume) {
          std::string task_id = *resume;
          finished = co_await runner.resume(std::move(task_id), *request);
        } else {
          finished = co_await runner.run(*request);
        }
      },
      [&](std::exception_ptr thrown) {
        if (thrown)
          finished = result<tot::tot_outcome>(make_error(errc::internal, "the ToT run ended with an exception"));
      });
  io.run();
  if (!finished || !*finished) return report(finished ? finished->err() : make_error(errc::internal, "no outcome"));
  const auto& outcome = finished->value();
  if (args->has("json")) {
    const tot::message final_message{tot::agent_role::orchestrator, "user", outcome.solution, outcome.task_id,
                                     std::nullopt};
    json::object out{{"task_id", outcome.task_id},
                     {"root_dialog", outcome.root_dialog},
                     {"log_dir", outcome.log_dir.string()},
                     {"solved", outcome.solved},
                     {"llm_calls", outcome.stats.llm_calls},
                     {"replayed_calls", outcome.replayed_calls},
                     {"final_solution", tot::to_json(final_message).at("payload")}};
    // The ThoughtTree (nodes, search_state: current depth, frontier, best path), as the folder's
    // 98-thought-tree.json holds it; null when no search ran.
    out["thought_tree"] = outcome.tree ? tot::to_json(*outcome.tree) : json::value(nullptr);
    if (outcome.error) out["error"] = tot::to_json(*outcome.error);
    std::printf("%s\n", json::serialize(out).c_str());
  } else {
    std::printf("task %s\nlog %s\n", outcome.task_id.c_str(), outcome.log_dir.string().c_str());
    std::printf("answer %s\n", outcome.solution.answer.empty() ? "(none)" : outcome.solution.answer.c_str());
    for (const auto& problem : outcome.solution.verification.validation_errors)
      std::printf("failed %s\n", problem.c_str());
    const std::string calls = std::to_string(outcome.stats.llm_calls);
    const std::string nodes = std::to_string(outcome.stats.total_nodes);
    std::printf("%s\n", say_cli(msg::tot_run_stats, {{"calls", calls}, {"nodes", nodes}}).c_str());
  }
  return outcome.solved ? kExitOk : kExitRuntime;
}

}  // namespace parley::cli
