#include "parley/eval/runner.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <map>

#include "parley/core/ids.hpp"
#include "parley/core/time.hpp"
#include "parley/eval/team_engines.hpp"

namespace parley::eval {
namespace {

namespace asio = boost::asio;

// The work of one run: which attempt comes next, shared by the `concurrency` workers (all on one
// thread, so no lock).
struct runner_queue {
  const eval_suite& suite;
  team_engines& engines;
  store& log;
  int repeat = 1;
  std::size_t next = 0;  // case index × repeat + attempt index
  std::vector<case_report>& reports;
};

asio::awaitable<void> runner_worker(runner_queue& queue) {
  const std::size_t total = queue.suite.cases.size() * static_cast<std::size_t>(queue.repeat);
  while (queue.next < total) {
    const std::size_t index = queue.next++;
    const std::size_t case_index = index / static_cast<std::size_t>(queue.repeat);
    const int attempt = static_cast<int>(index % static_cast<std::size_t>(queue.repeat)) + 1;
    const eval_case& one = queue.suite.cases[case_index];
    auto result = co_await run_attempt(queue.engines, queue.log, one, attempt);
    queue.reports[case_index].attempts[static_cast<std::size_t>(attempt - 1)] = std::move(result);
  }
}

}  // namespace

std::int64_t case_report::passed() const {
  std::int64_t count = 0;
  for (const auto& attempt : attempts) count += attempt.outcome == verdict::pass ? 1 : 0;
  return count;
}

double case_report::pass_rate() const {
  return attempts.empty() ? 0.0 : static_cast<double>(passed()) / static_cast<double>(attempts.size());
}

verdict case_report::outcome() const {
  bool failed = false;
  for (const auto& attempt : attempts) {
    if (attempt.outcome == verdict::error) return verdict::error;
    failed = failed || attempt.outcome == verdict::fail;
  }
  return failed ? verdict::fail : verdict::pass;
}

double eval_run::pass_rate() const {
  std::int64_t passed = 0;
  std::int64_t all = 0;
  for (const auto& one : cases) {
    passed += one.passed();
    all += static_cast<std::int64_t>(one.attempts.size());
  }
  return all == 0 ? 0.0 : static_cast<double>(passed) / static_cast<double>(all);
}

eval_run run_suite(const eval_suite& suite, store& log, const run_options& options) {
  eval_run run;
  run.id = "run-" + new_uuid();
  run.suite = suite.file.string();
  run.started_ms = now_ms();
  run.repeat = std::max(1, options.repeat);
  run.owner = options.owner;
  for (const auto& one : suite.cases) {
    case_report report{one.name, one.where, {}};
    report.attempts.resize(static_cast<std::size_t>(run.repeat));
    run.cases.push_back(std::move(report));
  }
  asio::io_context io;
  {
    team_engines engines(io.get_executor(), log, options.protected_dirs, options.owner);
    runner_queue queue{suite, engines, log, run.repeat, 0, run.cases};
    const int workers = std::clamp(options.concurrency, 1, kMaxConcurrency);
    for (int i = 0; i < workers; ++i) {
      auto work = runner_worker(queue);
      asio::co_spawn(io, std::move(work), asio::detached);
    }
    io.run();
    engines.stop();
    io.restart();
    io.run();  // what stopping the MCP servers left to do
  }
  run.finished_ms = now_ms();
  return run;
}

}  // namespace parley::eval
