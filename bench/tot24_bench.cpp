// parley-bench tot24: Game of 24 (data/game24.csv, ranks 901–1000 by default) solved by Parley's
// ToT explorer and by the paper's BFS implemented beside it (paper_bfs.hpp), with the same model
// and the same seeds in one run:
//   - the symbolic generator and evaluator (Parley's search alone; must solve all),
//   - the noisy scripted model at two error settings,
//   - a real OpenAI-compatible model when --real 1 and OPENAI_API_KEY / OPENAI_BASE_URL are set.
// Figures: games solved, model calls and tokens per game and per solved game, and the ratio of
// Parley's calls per solved game to the baseline's. The last line is one JSON object.
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench_verbs.hpp"
#include "parley/llm/openai/openai_provider.hpp"
#include "parley/tot/explorer.hpp"
#include "parley/tot/game24/game24_task.hpp"
#include "parley/tot/game24/noisy_model.hpp"
#include "parley/tot/game24/paper_bfs.hpp"
#include "parley/tot/game24/puzzles.hpp"
#include "parley/tot/model_agents.hpp"
#include "parley/tot/task_defaults.hpp"

namespace parley::bench {
namespace {

namespace asio = boost::asio;
using namespace parley::tot;

struct tally {
  int games = 0;
  int solved = 0;
  std::int64_t calls = 0;
  std::int64_t prompts = 0;  // the paper's count (value samples of one prompt count once)
  std::int64_t tokens = 0;
  std::int64_t input_tokens = 0;
  std::int64_t output_tokens = 0;
  void count_tokens(const call_meter& used) {
    input_tokens = used.input_tokens;
    output_tokens = used.output_tokens;
    tokens = input_tokens + output_tokens;
  }
  // What the tokens cost at the given prices per 1,000 input and output tokens.
  double cost(double input_price, double output_price) const {
    return static_cast<double>(input_tokens) / 1000 * input_price +
           static_cast<double>(output_tokens) / 1000 * output_price;
  }
  double per_game(std::int64_t v) const { return games == 0 ? 0 : static_cast<double>(v) / games; }
  double per_solved(std::int64_t v) const { return solved == 0 ? 0 : static_cast<double>(v) / solved; }
};

explorer_options parley_options(std::size_t parallel) {
  const auto& d = defaults_for(task_type::math_reasoning);
  explorer_options o;
  o.config = d.config;
  o.generation = d.generation;
  o.evaluation = d.evaluation;
  o.num_candidates = d.num_candidates;
  o.max_parallel = parallel;
  return o;
}

// One game's verdicts: the answer as the search's path writes it (the bench before seed 003's
// synthesizer was asked) and the synthesizer's answer checked by the verifier (after).
struct game_verdicts {
  bool written_in_code = false;
  bool synthesized = false;
};

asio::awaitable<game_verdicts> parley_game(const std::string& puzzle, thought_generator& generator,
                                           thought_evaluator& evaluator, std::size_t parallel,
                                           model_channel* synthesizer, std::int64_t& synthesizer_calls) {
  game24::game24_task task;
  explorer search(task, generator, evaluator, parley_options(parallel));
  auto outcome = co_await search.run("bench", puzzle, task_type::math_reasoning);
  game_verdicts verdicts;
  const auto answer = task.synthesize(puzzle, outcome.complete.best_path);
  verdicts.written_in_code = outcome.solved && answer && answer->verification.is_valid;
  if (!outcome.solved || synthesizer == nullptr) {
    verdicts.synthesized = verdicts.written_in_code;
    co_return verdicts;
  }
  // Seed 003's last step, as `parley tot` takes it: synthesize_solution → final_solution, checked.
  const message asked{agent_role::explorer, "synthesizer",
                      synthesize_solution{outcome.complete.best_path, puzzle, task_type::math_reasoning}, "bench",
                      std::nullopt};
  const model_agent_options options;
  auto written =
      co_await exchange<final_solution>(*synthesizer, options, agent_role::synthesizer, asked, synthesizer_calls);
  if (const auto* solution = std::get_if<final_solution>(&written)) {
    const auto checked = task.check_answer(puzzle, solution->answer);
    verdicts.synthesized = checked && checked->is_valid;
  }
  co_return verdicts;
}

// Parley with the synthesizer asked (after) and with the answer written in code (before), from
// the same searches: the two differ only by the synthesizer's call of each solved game.
struct parley_tallies {
  tally after;
  tally before;
};

asio::awaitable<parley_tallies> run_parley(const std::vector<game24::puzzle>& puzzles,
                                           std::shared_ptr<llm::provider> model, const std::string& model_name,
                                           std::size_t parallel) {
  parley_tallies t;
  provider_channel channel(std::move(model), model_name);
  std::int64_t calls = 0;
  std::int64_t synthesizer_calls = 0;
  for (const auto& p : puzzles) {
    model_generator generator(channel, {});
    model_evaluator evaluator(channel, {});
    const auto verdicts = co_await parley_game(p.numbers, generator, evaluator, parallel, &channel, synthesizer_calls);
    t.after.solved += verdicts.synthesized ? 1 : 0;
    t.before.solved += verdicts.written_in_code ? 1 : 0;
    ++t.after.games;
    ++t.before.games;
    calls += generator.model_calls() + evaluator.model_calls();
  }
  t.before.calls = t.before.prompts = calls;
  t.after.calls = t.after.prompts = calls + synthesizer_calls;
  t.after.count_tokens(channel.meter());
  t.before.count_tokens(channel.meter());  // the synthesizer's few tokens included: not told apart
  co_return t;
}

asio::awaitable<tally> run_baseline(const std::vector<game24::puzzle>& puzzles, std::shared_ptr<llm::provider> model,
                                    const std::string& model_name) {
  tally t;
  provider_channel channel(std::move(model), model_name);
  for (const auto& p : puzzles) {
    game24::paper_bfs search(channel);
    auto result = co_await search.solve(p.numbers);
    t.solved += result.solved ? 1 : 0;
    ++t.games;
    t.calls += result.model_calls;
    t.prompts += result.prompts;
  }
  t.count_tokens(channel.meter());
  co_return t;
}

asio::awaitable<tally> run_symbolic(const std::vector<game24::puzzle>& puzzles) {
  tally t;
  for (const auto& p : puzzles) {
    game24::symbolic_generator generator;
    game24::symbolic_evaluator evaluator;
    std::int64_t no_calls = 0;
    const auto verdicts = co_await parley_game(p.numbers, generator, evaluator, 4, nullptr, no_calls);
    t.solved += verdicts.written_in_code ? 1 : 0;
    ++t.games;
  }
  co_return t;
}

template <class T>
T run(asio::io_context& io, asio::awaitable<T> work) {
  auto future = asio::co_spawn(io, std::move(work), asio::use_future);
  io.restart();
  io.run();
  return future.get();
}

void print_row(const char* setting, const char* method, const tally& t) {
  std::printf(
      "%-10s %-14s %3d/%-3d %6.1f%%  calls/game %7.1f  calls/solved %7.1f  prompts/game %6.1f  tokens/game %8.0f  "
      "tokens/solved %8.0f\n",
      setting, method, t.solved, t.games, 100.0 * t.solved / std::max(1, t.games), t.per_game(t.calls),
      t.per_solved(t.calls), t.per_game(t.prompts), t.per_game(t.tokens), t.per_solved(t.tokens));
}

boost::json::object figures(const tally& t) {
  return {{"solved", t.solved},
          {"games", t.games},
          {"success_rate", t.games == 0 ? 0.0 : static_cast<double>(t.solved) / t.games},
          {"model_calls", t.calls},
          {"paper_prompts", t.prompts},
          {"tokens", t.tokens},
          {"calls_per_game", t.per_game(t.calls)},
          {"calls_per_solved", t.per_solved(t.calls)},
          {"prompts_per_game", t.per_game(t.prompts)},
          {"tokens_per_game", t.per_game(t.tokens)},
          {"tokens_per_solved", t.per_solved(t.tokens)}};
}

// Parley's calls per solved game over the baseline's (the target is ≤ 0.5), on both counts.
boost::json::object comparison(const tally& parley, const tally& paper) {
  const auto ratio = [](double a, double b) { return b == 0 ? 0.0 : a / b; };
  return {{"parley", figures(parley)},
          {"paper_bfs", figures(paper)},
          {"solved_at_least_as_many", parley.solved >= paper.solved},
          {"calls_per_solved_ratio", ratio(parley.per_solved(parley.calls), paper.per_solved(paper.calls))},
          {"calls_per_solved_ratio_vs_paper_prompts",
           ratio(parley.per_solved(parley.calls), paper.per_solved(paper.prompts))}};
}

}  // namespace

int run_tot24_bench(const bench_args& args) {
  const int first = args.int_or("first", 901);
  const int last = args.int_or("last", 1000);
  const auto seed = static_cast<std::uint64_t>(args.int_or("seed", 1));
  const auto parallel = static_cast<std::size_t>(std::max(1, args.int_or("parallel", 4)));
  const std::string csv = args.string_or("data", PARLEY_SOURCE_DIR "/data/game24.csv");
  auto puzzles = tot::game24::load_puzzles(csv, first, last);
  if (!puzzles || puzzles->empty()) {
    std::fprintf(stderr, "parley-bench tot24: %s\n",
                 puzzles ? "no puzzles in that rank range" : puzzles.err().message.c_str());
    return 2;
  }
  asio::io_context io;
  boost::json::object out{{"benchmark", "tot24"}, {"first_rank", first}, {"last_rank", last}, {"seed", seed}};

  const tally symbolic = run(io, run_symbolic(*puzzles));
  print_row("symbolic", "parley", symbolic);
  out["symbolic"] = figures(symbolic);

  struct setting {
    const char* name;
    tot::game24::noise_settings noise;
  };
  const setting settings[] = {
      {"low", {seed, 0.05, 0.25, 0.10, 0.0, 8, 0}},
      {"high", {seed, 0.15, 0.45, 0.25, 0.0, 8, 0}},
  };
  boost::json::object noisy;
  for (const auto& s : settings) {
    const parley_tallies both =
        run(io, run_parley(*puzzles, std::make_shared<tot::game24::noisy_model>(s.noise), "noisy24", parallel));
    const tally& parley = both.after;
    const tally paper = run(io, run_baseline(*puzzles, std::make_shared<tot::game24::noisy_model>(s.noise), "noisy24"));
    print_row(s.name, "parley", parley);
    print_row(s.name, "parley-no-syn", both.before);
    print_row(s.name, "paper-bfs", paper);
    auto entry = comparison(parley, paper);
    entry["parley_answer_in_code"] = figures(both.before);
    entry["noise"] = {{"arithmetic_error_rate", s.noise.arithmetic_error_rate},
                      {"missed_move_rate", s.noise.missed_move_rate},
                      {"misvalue_rate", s.noise.misvalue_rate}};
    noisy[s.name] = std::move(entry);
  }
  out["noisy"] = std::move(noisy);

  const char* key = std::getenv("OPENAI_API_KEY");
  const char* base = std::getenv("OPENAI_BASE_URL");
  if (args.int_or("real", 0) == 1 && (key != nullptr || base != nullptr)) {
    llm::openai_options options;
    options.api_key = key != nullptr ? key : "";
    options.base_url = base != nullptr ? base : "";
    options.streaming = false;
    const std::string model = args.string_or("model", "gpt-4o-mini");
    const double in_price = std::atof(args.string_or("price-in-per-1k", "0").c_str());
    const double out_price = std::atof(args.string_or("price-out-per-1k", "0").c_str());
    const tally parley = run(io, run_parley(*puzzles, llm::make_openai_provider(options), model, parallel)).after;
    const tally paper = run(io, run_baseline(*puzzles, llm::make_openai_provider(options), model));
    print_row("real", "parley", parley);
    print_row("real", "paper-bfs", paper);
    auto entry = comparison(parley, paper);
    entry["model"] = model;
    entry["cost_note"] = "input tokens × --price-in-per-1k + output tokens × --price-out-per-1k";
    const auto priced = [&](const char* method, const tally& t) {
      const double cost = t.cost(in_price, out_price);
      std::printf("%-10s %-14s cost %.4f: per game %.4f, per solved game %.4f\n", "real", method, cost,
                  t.games == 0 ? 0.0 : cost / t.games, t.solved == 0 ? 0.0 : cost / t.solved);
      return boost::json::object{{"total", cost},
                                 {"per_game", t.games == 0 ? 0.0 : cost / t.games},
                                 {"per_solved", t.solved == 0 ? 0.0 : cost / t.solved},
                                 {"input_tokens", t.input_tokens},
                                 {"output_tokens", t.output_tokens}};
    };
    entry["parley_cost"] = priced("parley", parley);
    entry["paper_bfs_cost"] = priced("paper-bfs", paper);
    out["real"] = std::move(entry);
  }
  print_json_line(out);
  return 0;
}

}  // namespace parley::bench
