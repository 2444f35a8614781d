// parley-bench eval: `parley eval` at scale — N cases against the scripted model, each a root tree
// of two dialogs (the lead calculates, asks the researcher in a sessionless Tellask, then answers),
// with four checks each, K at a time, in a SQLite store (or the in-memory one). Reports cases per
// second and the process's peak RSS; the last line is JSON.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>

#include "bench_verbs.hpp"
#include "parley/eval/runner.hpp"

namespace parley::bench {
namespace {

namespace fs = std::filesystem;

void write_eval_bench_team(const fs::path& dir) {
  fs::create_directories(dir / "workspace");
  std::ofstream(dir / "team.yaml") << R"(version: 1
default_member: lead
workspace: workspace
providers:
  offline: {kind: scripted, script: script.yaml}
members:
  lead: {persona: You lead., provider: offline, model: scripted, toolsets: [basic]}
  researcher: {persona: You check facts., provider: offline, model: scripted}
)";
  std::ofstream(dir / "script.yaml") << R"(chunk_size: 0
members:
  lead:
    - when: {last_tool: "Checked"}
      emit: [{saying: "3 sprints of 12 days are 864 hours."}]
    - when: {last_tool: "864"}
      emit: [{tool_call: {name: tellaskSessionless, arguments: {targetAgentId: researcher, tellaskContent: "Is it 864?"}}}]
    - when: {round: 1}
      emit: [{tool_call: {name: calculate, arguments: {expression: "3 * 12 * 24"}}}]
  researcher:
    - emit: [{saying: "Checked: 864 is right."}]
)";
}

eval::eval_suite eval_bench_suite(const fs::path& dir, int cases) {
  eval::eval_suite suite;
  suite.file = dir / "suite.yaml";
  for (int i = 0; i < cases; ++i) {
    eval::eval_case one;
    one.name = "case-" + std::to_string(i);
    one.team = dir / "team.yaml";
    one.message = "How many hours are 3 sprints? (" + std::to_string(i) + ")";
    eval::check_spec contains;
    contains.kind = eval::check_kind::contains;
    contains.text = "864 hours";
    eval::check_spec tool = contains;
    tool.kind = eval::check_kind::tool_called;
    tool.text = "calculate";
    eval::check_spec asked;
    asked.kind = eval::check_kind::asked;
    asked.members = {"researcher"};
    eval::check_spec rounds;
    rounds.kind = eval::check_kind::max_rounds;
    rounds.limit = 10;
    one.checks = {contains, tool, asked, rounds};
    suite.cases.push_back(std::move(one));
  }
  return suite;
}

double eval_bench_peak_rss_mb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // KiB on Linux
}

}  // namespace

int run_eval_bench(const bench_args& args) {
  const int cases = args.int_or("cases", 1000);
  const int concurrency = args.int_or("concurrency", 8);
  const std::string store_name = args.string_or("store", "sqlite");
  if (cases < 1 || concurrency < 1 || concurrency > eval::kMaxConcurrency ||
      (store_name != "sqlite" && store_name != "memory")) {
    std::fprintf(stderr, "parley-bench eval: --cases ≥ 1, --concurrency 1..%d, --store sqlite|memory\n",
                 eval::kMaxConcurrency);
    return 2;
  }
  std::random_device device;
  const fs::path dir = fs::temp_directory_path() / ("parley-bench-eval-" + std::to_string(device()));
  write_eval_bench_team(dir / "team");
  auto log = store_name == "memory" ? result<std::unique_ptr<store>>(make_memory_store())
                                    : open_sqlite_store((dir / "data").string());
  if (!log) {
    std::fprintf(stderr, "parley-bench eval: %s\n", log.err().message.c_str());
    return 1;
  }
  const auto suite = eval_bench_suite(dir / "team", cases);
  eval::run_options options;
  options.concurrency = concurrency;
  options.protected_dirs = {dir / "data"};
  const auto started = std::chrono::steady_clock::now();
  const auto run = eval::run_suite(suite, **log, options);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::int64_t passed = 0;
  for (const auto& one : run.cases) passed += one.passed();
  log->reset();
  fs::remove_all(dir);
  std::printf("eval: %d cases (%lld passed), concurrency %d, %s store: %.2f s, %.1f cases/s, peak RSS %.1f MB\n", cases,
              static_cast<long long>(passed), concurrency, store_name.c_str(), seconds, cases / seconds,
              eval_bench_peak_rss_mb());
  print_json_line({{"bench", "eval"},
                   {"cases", cases},
                   {"passed", passed},
                   {"concurrency", concurrency},
                   {"store", store_name},
                   {"seconds", seconds},
                   {"cases_per_second", cases / seconds},
                   {"peak_rss_mb", eval_bench_peak_rss_mb()}});
  return passed == cases ? 0 : 1;
}

}  // namespace parley::bench
