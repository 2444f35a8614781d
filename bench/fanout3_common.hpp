// What the fanout-3 programs (parley-bench fanout3 and floor-cpp) share with the peers' harness in
// bench/peers/bench/lib.mjs: the prompts and tool schemas, the task ids, the answer check, the
// mock's /stats and /reset, the pool that keeps C tasks in flight, and the RESULT_JSON line whose
// fields run_all.sh and tools/table.py read. Keeping them in one place keeps the C++ rows
// comparable with the Node rows.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bench_verbs.hpp"
#include "parley/core/result.hpp"
#include "parley/http/client.hpp"

namespace parley::bench::fanout3 {

constexpr int kFanout = 3;
constexpr int kCallsPerTask = 1 + kFanout * 2 + 1;

// Word for word the prompts of lib.mjs, so every client sends the same markers and about the same text.
extern const char* const kLeadPrompt;
extern const char* const kWorkerPrompt;
std::string task_input(const std::string& task_id);
std::string lookup_value(const std::string& key);
// lib.mjs verify(): "DONE" first, then RESULT:<id>-k=v_<id>-k for k = 1..3.
bool verify(const std::string& task_id, const std::string& answer);
// Fixed-length ids (same token counts for every client): w000000.. for warm-up, t000000.. measured.
std::string task_id(char prefix, int index);

struct options {
  int n = 500;
  int warmup = -1;  // -1: the harness's default, 2*c (c > 1) or 50
  int concurrency = 1;
  bool stream = false;
  std::string mock = "http://127.0.0.1:18080";
  int warmup_or_default() const { return warmup >= 0 ? warmup : (concurrency > 1 ? 2 * concurrency : 50); }
};
// --n --warmup --concurrency --stream --mock, with MOCK_URL from the environment as run_all.sh sets it.
options read_options(const bench_args& args, int default_n);
// The configurations of one program run: with --concurrency / --stream only that one (as run_all.sh
// calls it), else the matrix c = 1, 32 × JSON, SSE.
std::vector<options> configurations(const bench_args& args, const options& base);

// One root task end to end; the value is the lead's final text.
using task_fn = std::function<boost::asio::awaitable<result<std::string>>(std::string task_id)>;

struct pool_outcome {
  std::vector<double> latency_ms;
  std::int64_t failed = 0;
  std::string first_error;
  std::string bad_sample;
};

// Runs `count` tasks with ids task_id(prefix, first + i), `concurrency` at a time, checking every
// answer; latency_ms[i] is task first + i's.
boost::asio::awaitable<pool_outcome> run_pool(boost::asio::any_io_executor executor, char prefix, int count,
                                              int concurrency, task_fn run_task, int first = 0);

// CPU of this process (all threads, getrusage) and of the whole machine (/proc/stat), for
// cpu_ms_per_task and the foreign-load figure.
struct cpu_sample {
  double user_s = 0;
  double sys_s = 0;
  double machine_busy_s = 0;
};
cpu_sample sample_cpu();
double peak_rss_mb();
// The resident set now (/proc/self/statm), not the peak: what a soak samples.
double current_rss_mb();

// The mock's counters (GET /stats) and their reset (POST /reset).
struct mock_stats {
  std::int64_t requests = 0;
  std::int64_t stream_requests = 0;
  double cpu_s = 0;
};
boost::asio::awaitable<result<mock_stats>> read_mock_stats(http::client& client, const std::string& mock);
boost::asio::awaitable<result<void>> reset_mock(http::client& client, const std::string& mock);

// The measured part of one configuration: warm-up, reset, N tasks, counters. `run_task` is called
// on `executor`.
struct measured_run {
  pool_outcome pool;
  double wall_s = 0;
  cpu_sample cpu_before, cpu_after;
  mock_stats mock_before, mock_after;
  // CPU seconds of a database server the run writes to (PostgreSQL), when it can be read.
  std::optional<double> server_cpu_before, server_cpu_after;
};
// Reads a database server's CPU seconds so far, or nullopt.
using server_cpu_fn = std::function<std::optional<double>()>;
// `settle` runs after the last task and before the CPU clock stops: work a framework defers past a
// task's end (Parley's projections) is counted with the tasks. `server_cpu` is sampled beside this
// process's CPU, so that a server's work is reported apart from Parley's.
boost::asio::awaitable<result<measured_run>> measure(boost::asio::any_io_executor executor, http::client& control,
                                                     const options& opts, task_fn run_task,
                                                     std::function<void()> settle = {}, server_cpu_fn server_cpu = {});

// The RESULT_JSON object with lib.mjs's field names; with a server's CPU, server_cpu_ms_per_task
// too (and foreign_cores without it).
boost::json::object result_fields(const std::string& framework, const std::string& variant, const options& opts,
                                  const measured_run& run);
// Adds the main figures of one configuration to the program's last-line object, prefixed with
// "<json|sse>_c<C>_" (for example sse_c32_cpu_ms_per_task) after `store_prefix` (for example
// "postgresql_"), and sums failed_tasks.
void add_to_summary(boost::json::object& summary, const boost::json::object& fields,
                    const std::string& store_prefix = "");
// Prints "RESULT_JSON {...}": the line run_all.sh collects.
void print_result_line(const boost::json::object& fields);
// Prints the line, adds it to the summary, and says whether the run was sound: no failed task and
// the mock counted kCallsPerTask calls per task.
bool report(boost::json::object& summary, const boost::json::object& fields, const std::string& store_prefix = "");

}  // namespace parley::bench::fanout3
