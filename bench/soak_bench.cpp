// parley-bench soak: does memory stay flat however long Parley runs? The fanout-3 workload (the
// same team, mock and check as `parley-bench fanout3`) for --tasks N in one process on the durable
// store, with the resident set sampled every --sample-every tasks (10,000). A server's memory must
// be bounded by the work in flight, not by history (issue 25 item 1): the last line's
// `rss_ratio_last_to_10pct` is RSS after the last task over RSS after a tenth of them, and should
// stay within 1.10. Each sample also says how many dialogs the engine holds loaded, so a growth that
// is not the engine's LRU shows up as RSS rising while that count stays put.
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json/array.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <system_error>

#include "bench_verbs.hpp"
#include "fanout3_common.hpp"
#include "fanout3_team.hpp"
#include "parley/config/team.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/engine.hpp"

namespace parley::bench {
namespace {

namespace asio = boost::asio;
namespace fs = std::filesystem;
using clock = std::chrono::steady_clock;

struct soak_options {
  fanout3::options run;  // n = the number of tasks
  int sample_every = 10'000;
  std::string sync = "full";
  int loaded_dialogs = 0;  // 0: the engine's default limit
};

struct rss_sample {
  std::int64_t tasks = 0;
  double rss_mb = 0;
  std::size_t loaded_dialogs = 0;
  double seconds = 0;  // since the first task
};

struct soak_outcome {
  std::vector<rss_sample> samples;
  std::int64_t failed = 0;
  std::string first_error;
  double wall_s = 0;
};

double round_to(double value, int digits) {
  const double scale = std::pow(10.0, digits);
  return std::round(value * scale) / scale;
}

std::uintmax_t directory_bytes(const fs::path& dir) {
  std::uintmax_t total = 0;
  std::error_code ec;
  for (const auto& entry : fs::recursive_directory_iterator(dir, ec)) {
    if (entry.is_regular_file(ec)) total += entry.file_size(ec);
  }
  return total;
}

asio::awaitable<void> soak(asio::io_context& io, engine::engine& eng, const soak_options& opts, soak_outcome& out) {
  fanout3::task_fn task = [&eng](std::string id) { return fanout3::run_task(eng, std::move(id)); };
  const auto start = clock::now();
  for (int done = 0; done < opts.run.n;) {
    const int count = std::min(opts.sample_every, opts.run.n - done);
    auto pool = co_await fanout3::run_pool(io.get_executor(), 't', count, opts.run.concurrency, task, done);
    done += count;
    out.failed += pool.failed;
    if (out.first_error.empty()) out.first_error = pool.first_error.empty() ? pool.bad_sample : pool.first_error;
    rss_sample sample;
    sample.tasks = done;
    sample.rss_mb = fanout3::current_rss_mb();
    sample.loaded_dialogs = eng.dialogs().size();
    sample.seconds = std::chrono::duration<double>(clock::now() - start).count();
    out.samples.push_back(sample);
    std::printf("tasks %d  rss %.1f MB  loaded dialogs %zu  %.0f s  failed %lld\n", done, sample.rss_mb,
                sample.loaded_dialogs, sample.seconds, static_cast<long long>(out.failed));
    std::fflush(stdout);
  }
  out.wall_s = std::chrono::duration<double>(clock::now() - start).count();
  io.stop();  // idle keep-alive connections may still hold work; nothing else is left to do
}

result<soak_outcome> run_soak(const fs::path& dir, const soak_options& opts) {
  fanout3::write_team(dir, opts.run.mock, opts.run.stream, false);
  auto team = config::load_team_file(dir / "team.yaml");
  if (!team) return std::move(team).err();
  auto log = fanout3::open_store(dir, opts.sync, std::chrono::milliseconds(50));
  if (!log) return std::move(log).err();
  asio::io_context io(1);
  auto providers = engine::build_providers(*team);
  if (!providers) return std::move(providers).err();
  auto eng =
      engine::engine::create(io.get_executor(), **log, *team, std::move(*providers), fanout3::tools_with_lookup());
  if (!eng) return std::move(eng).err();
  if (opts.loaded_dialogs > 0) (*eng)->dialogs().set_limit(static_cast<std::size_t>(opts.loaded_dialogs));
  soak_outcome out;
  asio::co_spawn(io, soak(io, **eng, opts, out), asio::detached);
  io.run();
  (*log)->flush();
  return out;
}

// The sample at a tenth of the run: the first taken at or after N/10 tasks (warm-up is over by then).
const rss_sample& tenth_sample(const std::vector<rss_sample>& samples, std::int64_t tasks) {
  for (const auto& sample : samples) {
    if (sample.tasks * 10 >= tasks) return sample;
  }
  return samples.back();
}

boost::json::object summary(const soak_options& opts, const soak_outcome& out, std::uintmax_t store_bytes) {
  boost::json::array samples;
  for (const auto& sample : out.samples) {
    samples.push_back(boost::json::object{{"tasks", sample.tasks},
                                          {"rss_mb", round_to(sample.rss_mb, 1)},
                                          {"loaded_dialogs", sample.loaded_dialogs},
                                          {"s", round_to(sample.seconds, 1)}});
  }
  const auto& tenth = tenth_sample(out.samples, opts.run.n);
  const auto& last = out.samples.back();
  return boost::json::object{
      {"bench", "soak"},
      {"tasks", opts.run.n},
      {"concurrency", opts.run.concurrency},
      {"stream", opts.run.stream ? 1 : 0},
      {"sqlite_sync", opts.sync},
      {"sample_every", opts.sample_every},
      {"failed_tasks", out.failed},
      {"wall_s", round_to(out.wall_s, 1)},
      {"tasks_per_s", round_to(double(opts.run.n) / out.wall_s, 1)},
      {"rss_at_10pct_mb", round_to(tenth.rss_mb, 1)},
      {"rss_at_10pct_tasks", tenth.tasks},
      {"rss_last_mb", round_to(last.rss_mb, 1)},
      {"rss_ratio_last_to_10pct", round_to(last.rss_mb / tenth.rss_mb, 3)},
      {"peak_rss_mb", round_to(fanout3::peak_rss_mb(), 1)},
      {"store_bytes", store_bytes},
      {"store_bytes_per_task", round_to(double(store_bytes) / double(opts.run.n), 0)},
      {"samples", std::move(samples)},
  };
}

}  // namespace

int run_soak_bench(const bench_args& args) {
  ::setenv(fanout3::kKeyVariable, "mock-key", 0);
  soak_options opts;
  opts.run = fanout3::read_options(args, 0);
  opts.run.n = args.int_or("tasks", 500'000);
  if (!args.values.count("concurrency")) opts.run.concurrency = 32;
  opts.sample_every = args.int_or("sample-every", 10'000);
  opts.sync = args.string_or("sync", "full");
  opts.loaded_dialogs = args.int_or("loaded-dialogs", 0);
  if (opts.run.n < 1 || opts.sample_every < 1) {
    std::fprintf(stderr, "parley-bench soak: --tasks and --sample-every are positive numbers of tasks\n");
    return 2;
  }
  if (opts.sync != "full" && opts.sync != "normal") {
    std::fprintf(stderr, "parley-bench soak: --sync is full or normal, got '%s'\n", opts.sync.c_str());
    return 2;
  }
  std::random_device device;
  const bool keep = args.int_or("keep", 0) != 0;
  const fs::path dir = fs::temp_directory_path() / ("parley-bench-soak-" + std::to_string(device()));
  std::printf("soak: %d fanout-3 tasks, %d in flight, RSS every %d tasks, store in %s\n", opts.run.n,
              opts.run.concurrency, opts.sample_every, dir.c_str());
  auto out = run_soak(dir, opts);
  const auto store_bytes = directory_bytes(dir / "data");
  if (keep) {
    std::printf("kept %s\n", dir.c_str());
  } else {
    fs::remove_all(dir);
  }
  if (!out) {
    std::fprintf(stderr, "parley-bench soak: %s\n", out.err().message.c_str());
    return 1;
  }
  if (out->failed > 0)
    std::fprintf(stderr, "parley-bench soak: %lld tasks failed: %s\n", static_cast<long long>(out->failed),
                 out->first_error.c_str());
  print_json_line(summary(opts, *out, store_bytes));
  return out->failed == 0 ? 0 : 1;
}

}  // namespace parley::bench
