#include "fanout3_common.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <numeric>
#include <sstream>

namespace parley::bench::fanout3 {
namespace {

namespace asio = boost::asio;
using clock = std::chrono::steady_clock;

double ms_since(clock::time_point start) {
  return std::chrono::duration<double, std::milli>(clock::now() - start).count();
}

double round_to(double value, int digits) {
  const double scale = std::pow(10.0, digits);
  return std::round(value * scale) / scale;
}

// lib.mjs pct(): the nearest-rank percentile.
double percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  const auto rank = static_cast<std::ptrdiff_t>(std::ceil(p / 100.0 * static_cast<double>(sorted.size()))) - 1;
  return sorted[static_cast<std::size_t>(std::clamp<std::ptrdiff_t>(rank, 0, std::ptrdiff_t(sorted.size()) - 1))];
}

// Shared by the pool's workers; the last one to finish wakes the caller.
struct pool_state {
  explicit pool_state(asio::any_io_executor executor) : done(executor, clock::time_point::max()) {}
  int next = 0;
  int running = 0;
  pool_outcome outcome;
  asio::steady_timer done;
};

asio::awaitable<void> pool_worker(std::shared_ptr<pool_state> state, char prefix, int count, int first,
                                  task_fn run_task) {
  while (state->next < count) {
    const int index = state->next++;
    const std::string id = task_id(prefix, first + index);
    const auto start = clock::now();
    auto answer = co_await run_task(id);
    if (!answer) {
      ++state->outcome.failed;
      if (state->outcome.first_error.empty()) state->outcome.first_error = answer.err().message;
    } else if (!verify(id, *answer)) {
      ++state->outcome.failed;
      if (state->outcome.bad_sample.empty()) state->outcome.bad_sample = answer->substr(0, 300);
    }
    state->outcome.latency_ms[static_cast<std::size_t>(index)] = ms_since(start);
  }
  if (--state->running == 0) state->done.cancel();
}

}  // namespace

const char* const kLeadPrompt =
    "[[role:lead]] You are the lead agent. Split the task into 3 sub-tasks and delegate each one, one at a time, to a "
    "worker agent with the delegation tool. When all results are back, answer with DONE and the results.";
const char* const kWorkerPrompt =
    "[[role:worker]] You are a worker agent. Use the lookup tool to find the value for the KEY in your task, then "
    "answer RESULT:<key>=<value>.";

std::string task_input(const std::string& task_id) {
  return "TASK=" + task_id + " Collect the three values for this task.";
}
std::string lookup_value(const std::string& key) { return "v_" + key; }

bool verify(const std::string& task_id, const std::string& answer) {
  if (answer.rfind("DONE", 0) != 0) return false;
  for (int i = 1; i <= kFanout; ++i) {
    const std::string key = task_id + "-" + std::to_string(i);
    if (answer.find("RESULT:" + key + "=" + lookup_value(key)) == std::string::npos) return false;
  }
  return true;
}

std::string task_id(char prefix, int index) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%c%06d", prefix, index);
  return buffer;
}

options read_options(const bench_args& args, int default_n) {
  options opts;
  if (const char* env = std::getenv("MOCK_URL"); env != nullptr && *env != '\0') opts.mock = env;
  opts.n = args.int_or("n", default_n);
  opts.warmup = args.int_or("warmup", -1);
  opts.concurrency = std::max(1, args.int_or("concurrency", 1));
  opts.stream = args.int_or("stream", 0) != 0;
  opts.mock = args.string_or("mock", opts.mock);
  while (!opts.mock.empty() && opts.mock.back() == '/') opts.mock.pop_back();
  return opts;
}

std::vector<options> configurations(const bench_args& args, const options& base) {
  std::vector<int> concurrencies = {1, 32};
  std::vector<bool> streams = {false, true};
  if (args.values.count("concurrency")) concurrencies = {base.concurrency};
  if (args.values.count("stream")) streams = {base.stream};
  std::vector<options> out;
  for (const bool stream : streams) {
    for (const int concurrency : concurrencies) {
      options opts = base;
      opts.stream = stream;
      opts.concurrency = concurrency;
      out.push_back(opts);
    }
  }
  return out;
}

asio::awaitable<pool_outcome> run_pool(asio::any_io_executor executor, char prefix, int count, int concurrency,
                                       task_fn run_task, int first) {
  auto state = std::make_shared<pool_state>(executor);
  state->outcome.latency_ms.assign(static_cast<std::size_t>(count), 0.0);
  const int workers = std::min(concurrency, count);
  state->running = workers;
  for (int i = 0; i < workers; ++i)
    asio::co_spawn(executor, pool_worker(state, prefix, count, first, run_task), asio::detached);
  if (workers > 0) {
    auto token = asio::as_tuple(asio::use_awaitable);
    co_await state->done.async_wait(token);  // cancelled by the last worker
  }
  co_return std::move(state->outcome);
}

cpu_sample sample_cpu() {
  cpu_sample out;
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  out.user_s = double(usage.ru_utime.tv_sec) + double(usage.ru_utime.tv_usec) / 1e6;
  out.sys_s = double(usage.ru_stime.tv_sec) + double(usage.ru_stime.tv_usec) / 1e6;
  // The first line of /proc/stat: cpu user nice system idle iowait irq softirq steal ... in USER_HZ.
  std::ifstream stat("/proc/stat");
  std::string line;
  if (std::getline(stat, line)) {
    std::istringstream fields(line.substr(line.find(' ')));
    std::vector<double> ticks;
    for (double tick = 0; fields >> tick;) ticks.push_back(tick);
    if (ticks.size() >= 4) {
      const double total = std::accumulate(ticks.begin(), ticks.end(), 0.0);
      const double idle = ticks[3] + (ticks.size() > 4 ? ticks[4] : 0.0);
      out.machine_busy_s = (total - idle) / 100.0;
    }
  }
  return out;
}

double peak_rss_mb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return double(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

double current_rss_mb() {
  std::ifstream statm("/proc/self/statm");
  long long size_pages = 0;
  long long resident_pages = 0;
  statm >> size_pages >> resident_pages;
  return double(resident_pages) * double(::sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
}

asio::awaitable<result<mock_stats>> read_mock_stats(http::client& client, const std::string& mock) {
  http::request req;
  req.method = "GET";
  req.url = mock + "/stats";
  auto reply = co_await client.send(req);
  if (!reply) co_return std::move(reply).err();
  if (!reply->success())
    co_return make_error(errc::provider_error, "mock /stats: HTTP " + std::to_string(reply->status));
  boost::system::error_code ec;
  const auto parsed = boost::json::parse(reply->body, ec);
  if (ec || !parsed.is_object()) co_return make_error(errc::provider_error, "mock /stats: not a JSON object");
  const auto& stats = parsed.as_object();
  const auto number = [&](const char* key) {
    const auto* value = stats.if_contains(key);
    return value == nullptr ? 0.0 : value->to_number<double>();
  };
  mock_stats out;
  out.requests = static_cast<std::int64_t>(number("requests"));
  out.stream_requests = static_cast<std::int64_t>(number("stream_requests"));
  out.cpu_s = number("cpu_user_s") + number("cpu_sys_s");
  co_return out;
}

asio::awaitable<result<void>> reset_mock(http::client& client, const std::string& mock) {
  http::request req;
  req.url = mock + "/reset";
  req.headers.push_back({"content-type", "application/json"});
  req.body = "{}";
  auto reply = co_await client.send(req);
  if (!reply) co_return std::move(reply).err();
  if (!reply->success())
    co_return make_error(errc::provider_error, "mock /reset: HTTP " + std::to_string(reply->status));
  co_return ok();
}

asio::awaitable<result<measured_run>> measure(asio::any_io_executor executor, http::client& control,
                                              const options& opts, task_fn run_task, std::function<void()> settle,
                                              server_cpu_fn server_cpu) {
  const int warmup = opts.warmup_or_default();
  if (warmup > 0) {
    auto warm = co_await run_pool(executor, 'w', warmup, std::min(opts.concurrency, warmup), run_task);
    if (warm.failed > 0) {
      std::fprintf(stderr, "warm-up: %lld/%d tasks failed: %s%s\n", static_cast<long long>(warm.failed), warmup,
                   warm.first_error.c_str(), warm.bad_sample.c_str());
    }
  }
  PARLEY_CO_TRY(co_await reset_mock(control, opts.mock));
  measured_run run;
  auto before = co_await read_mock_stats(control, opts.mock);
  if (!before) co_return std::move(before).err();
  run.mock_before = *before;
  run.cpu_before = sample_cpu();
  if (server_cpu) run.server_cpu_before = server_cpu();
  const auto start = clock::now();
  run.pool = co_await run_pool(executor, 't', opts.n, opts.concurrency, run_task);
  if (settle) settle();
  run.wall_s = ms_since(start) / 1000.0;
  run.cpu_after = sample_cpu();
  if (server_cpu) run.server_cpu_after = server_cpu();
  auto after = co_await read_mock_stats(control, opts.mock);
  if (!after) co_return std::move(after).err();
  run.mock_after = *after;
  co_return run;
}

boost::json::object result_fields(const std::string& framework, const std::string& variant, const options& opts,
                                  const measured_run& run) {
  const double n = std::max(1, opts.n);
  auto sorted = run.pool.latency_ms;
  std::sort(sorted.begin(), sorted.end());
  const double mean = sorted.empty() ? 0 : std::accumulate(sorted.begin(), sorted.end(), 0.0) / double(sorted.size());
  const double user_s = run.cpu_after.user_s - run.cpu_before.user_s;
  const double sys_s = run.cpu_after.sys_s - run.cpu_before.sys_s;
  const double mock_cpu_s = run.mock_after.cpu_s - run.mock_before.cpu_s;
  const auto calls = run.mock_after.requests;
  const bool server_known = run.server_cpu_before && run.server_cpu_after;
  const double server_cpu_s = server_known ? *run.server_cpu_after - *run.server_cpu_before : 0.0;
  // Cores used during the run by processes other than this one, the mock and a database server
  // whose CPU is read (lib.mjs foreign_cores).
  const double foreign =
      (run.cpu_after.machine_busy_s - run.cpu_before.machine_busy_s - user_s - sys_s - mock_cpu_s - server_cpu_s) /
      run.wall_s;
  boost::json::object out{
      {"framework", framework},
      {"variant", variant},
      {"stream", opts.stream ? 1 : 0},
      {"concurrency", opts.concurrency},
      {"n", opts.n},
      {"warmup", opts.warmup_or_default()},
      {"ok", opts.n - run.pool.failed},
      {"failed", run.pool.failed},
      {"wall_s", round_to(run.wall_s, 3)},
      {"tasks_per_s", round_to(n / run.wall_s, 1)},
      {"mean_ms", round_to(mean, 2)},
      {"p50_ms", round_to(percentile(sorted, 50), 2)},
      {"p99_ms", round_to(percentile(sorted, 99), 2)},
      {"llm_calls", calls},
      {"llm_calls_per_task", round_to(double(calls) / n, 2)},
      {"stream_calls", run.mock_after.stream_requests},
      {"cpu_ms_per_task", round_to((user_s + sys_s) * 1000.0 / n, 3)},
      {"cpu_user_s", round_to(user_s, 3)},
      {"cpu_sys_s", round_to(sys_s, 3)},
      {"mock_cpu_ms_per_task", round_to(mock_cpu_s * 1000.0 / n, 3)},
      {"peak_rss_mb", round_to(peak_rss_mb(), 1)},
      {"foreign_cores", round_to(std::max(0.0, foreign), 2)},
      {"runtime", "c++20 (g++ " __VERSION__ ")"},
  };
  if (server_known) out["server_cpu_ms_per_task"] = round_to(server_cpu_s * 1000.0 / n, 3);
  if (!run.pool.first_error.empty()) out["first_error"] = run.pool.first_error.substr(0, 500);
  if (!run.pool.bad_sample.empty()) out["bad_sample"] = run.pool.bad_sample;
  return out;
}

void add_to_summary(boost::json::object& summary, const boost::json::object& fields, const std::string& store_prefix) {
  const std::string prefix = store_prefix + std::string(fields.at("stream").to_number<int>() != 0 ? "sse" : "json") +
                             "_c" + std::to_string(fields.at("concurrency").to_number<int>()) + "_";
  for (const char* key : {"tasks_per_s", "cpu_ms_per_task", "mean_ms", "p99_ms", "llm_calls_per_task",
                          "mock_cpu_ms_per_task", "foreign_cores", "peak_rss_mb", "server_cpu_ms_per_task"}) {
    if (const auto* value = fields.if_contains(key)) summary[prefix + key] = *value;
  }
  const auto* failed = summary.if_contains("failed_tasks");
  summary["failed_tasks"] =
      (failed == nullptr ? 0 : failed->to_number<std::int64_t>()) + fields.at("failed").to_number<std::int64_t>();
}

void print_result_line(const boost::json::object& fields) {
  std::printf("RESULT_JSON %s\n", boost::json::serialize(fields).c_str());
  std::fflush(stdout);
}

bool report(boost::json::object& summary, const boost::json::object& fields, const std::string& store_prefix) {
  print_result_line(fields);
  add_to_summary(summary, fields, store_prefix);
  return fields.at("failed").to_number<std::int64_t>() == 0 &&
         fields.at("llm_calls").to_number<std::int64_t>() ==
             fields.at("n").to_number<std::int64_t>() * std::int64_t{kCallsPerTask};
}

}  // namespace parley::bench::fanout3
