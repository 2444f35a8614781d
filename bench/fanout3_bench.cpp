// parley-bench fanout3: the peers' fanout-3 workload (bench/peers) run by a real Parley team against
// the mock LLM, so Parley lands in the same table as LangGraph.js, the OpenAI Agents SDK and Mastra.
// The lead ([[role:lead]]) makes three tellaskSessionless calls in one round; each one is a new
// subdialog of the member `worker` ([[role:worker]]), which calls lookup(key) and replies; the
// lead answers DONE with the three replies. 8 model calls per task through the OpenAI provider,
// the durable SQLite store in a temp dir, every answer checked. One RESULT_JSON line per
// configuration; the last line is one JSON object with all figures.
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json/parse.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>

#include "bench_verbs.hpp"
#include "fanout3_common.hpp"
#include "fanout3_team.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/engine.hpp"
#include "parley/server/metrics_observer.hpp"
#include "parley/server/otlp_exporter.hpp"
#include "parley/server/span_recorder.hpp"
#include "parley/tools/function_tool.hpp"

namespace parley::bench {
namespace {

namespace asio = boost::asio;
namespace fs = std::filesystem;
using fanout3::options;

asio::awaitable<void> drive(asio::io_context& io, engine::engine& eng, store& log, http::client& control,
                            const options& opts, result<fanout3::measured_run>& out) {
  fanout3::task_fn task = [&eng](std::string id) { return fanout3::run_task(eng, std::move(id)); };
  // The store's projections trail its log: what is still waiting at the end is counted too.
  out = co_await fanout3::measure(io.get_executor(), control, opts, task, [&log] { log.flush(); });
  io.stop();  // idle keep-alive connections may still hold work; nothing else is left to do
}

struct config_figures {
  boost::json::object fields;
};

const char* variant_name(const std::string& sync) {
  return sync == "full" ? "sqlite" : sync == "normal" ? "sqlite-normal" : "memory";
}

const char* sync_name(const std::string& sync) {
  return sync == "full" ? "FULL" : sync == "normal" ? "NORMAL" : "none";
}

// What the run counts beside its work, as `parley serve` would.
struct observers {
  bool metrics = false;
  bool traces = false;
  bool export_spans = true;  // `--traces 2`: spans recorded, then dropped (the recorder's own cost)
};

result<config_figures> run_config(const fs::path& dir, const options& opts, const std::string& sync,
                                  std::chrono::milliseconds projection_lag, bool all_dialog_tools, observers observe) {
  fanout3::write_team(dir, opts.mock, opts.stream, all_dialog_tools);
  auto team = config::load_team_file(dir / "team.yaml");
  if (!team) return std::move(team).err();
  auto log = fanout3::open_store(dir, sync, projection_lag);
  if (!log) return std::move(log).err();
  asio::io_context io(1);
  auto providers = engine::build_providers(*team);  // the team's own `mock` provider, as `parley serve` builds it
  if (!providers) return std::move(providers).err();
  auto eng =
      engine::engine::create(io.get_executor(), **log, *team, std::move(*providers), fanout3::tools_with_lookup());
  if (!eng) return std::move(eng).err();
  // `--metrics 1`: what `parley serve` counts for GET /metrics, counted here too (its CPU cost).
  std::optional<server::metrics_observer> metrics;
  if (observe.metrics) (*eng)->add_observer(&metrics.emplace(**eng));
  // `--traces 1`: the spans `parley serve --otlp-endpoint` sends, sent to the mock's trace sink;
  // `--traces 2`: recorded and dropped, to tell the recorder's cost from the export's.
  std::optional<server::otlp_exporter> exporter;
  std::optional<server::span_recorder> spans;
  if (observe.traces) {
    server::otlp_options traces;
    traces.endpoint = opts.mock + "/v1/traces";
    exporter.emplace(io.get_executor(), traces, server::trace_resource{"parley-bench", ""});
    spans.emplace(**eng, server::span_recorder_options{}, [&exporter, &observe](server::trace_span&& span) {
      if (observe.export_spans) exporter->enqueue(std::move(span));
    });
    (*eng)->add_observer(&*spans);
    exporter->start();
  }
  result<fanout3::measured_run> run = make_error(errc::internal, "the run did not finish");
  {
    http::client control;
    auto whole_run = [&]() -> asio::awaitable<void> {
      co_await drive(io, **eng, **log, control, opts, run);
      if (exporter) co_await exporter->stop();  // its batching loop would keep the loop running
    };
    asio::co_spawn(io, whole_run(), asio::detached);
    io.run();
  }
  (*log)->flush();
  if (!run) return std::move(run).err();
  config_figures out;
  out.fields = fanout3::result_fields("parley", variant_name(sync), opts, *run);
  const auto stats = (*log)->stats();
  const double tasks = double(opts.n + opts.warmup_or_default());  // the log holds the warm-up tasks too
  out.fields["sqlite_sync"] = sync_name(sync);
  out.fields["metrics"] = observe.metrics;
  out.fields["traces"] = observe.traces;
  if (exporter) {
    out.fields["spans_exported"] = exporter->exported();
    out.fields["spans_dropped"] = exporter->dropped();
  }
  out.fields["events_per_task"] = double(stats.events) / tasks;
  // Every commit is an fsync: the log's and the projections' catching up alike.
  out.fields["commits_per_task"] = double(stats.transactions + stats.projection_transactions) / tasks;
  out.fields["projection_commits_per_task"] = double(stats.projection_transactions) / tasks;
  return out;
}

}  // namespace

int run_fanout3_bench(const bench_args& args) {
  ::setenv(fanout3::kKeyVariable, "mock-key", 0);
  const auto base = fanout3::read_options(args, 500);
  const std::string sync = args.string_or("sync", "full");
  if (sync != "full" && sync != "normal" && sync != "memory") {
    std::fprintf(stderr, "parley-bench: --sync is full, normal or memory, got '%s'\n", sync.c_str());
    return 2;
  }
  const std::string dialog_tools = args.string_or("dialog-tools", "used");
  if (dialog_tools != "used" && dialog_tools != "all") {
    std::fprintf(stderr, "parley-bench: --dialog-tools is used or all, got '%s'\n", dialog_tools.c_str());
    return 2;
  }
  const bool all_dialog_tools = dialog_tools == "all";
  // Under valgrind a task takes ~20x longer: raise the lag so projection passes stay as large as in a real run.
  const auto projection_lag = std::chrono::milliseconds(args.int_or("projection-lag-ms", 50));
  if (projection_lag.count() < 1) {
    std::fprintf(stderr, "parley-bench: --projection-lag-ms is a positive number of milliseconds\n");
    return 2;
  }
  const int traces = args.int_or("traces", 0);
  if (traces < 0 || traces > 2) {
    std::fprintf(stderr, "parley-bench: --traces is 0 (off), 1 (exported) or 2 (recorded, dropped), got %d\n", traces);
    return 2;
  }
  const observers observe{args.int_or("metrics", 0) != 0, traces != 0, traces != 2};
  std::random_device device;
  // --keep 1 leaves the team and the store behind (their path is printed) to inspect the log.
  const bool keep = args.int_or("keep", 0) != 0;
  const fs::path root = fs::temp_directory_path() / ("parley-bench-fanout3-" + std::to_string(device()));
  boost::json::object summary{{"bench", "fanout3"},
                              {"framework", "parley"},
                              {"n", base.n},
                              {"sqlite_sync", sync_name(sync)},
                              {"dialog_tools", dialog_tools},
                              {"mock", base.mock},
                              {"metrics", observe.metrics},
                              {"traces", observe.traces}};
  int status = 0;
  for (const options& opts : fanout3::configurations(args, base)) {
    const fs::path dir = root / ((opts.stream ? "sse-c" : "json-c") + std::to_string(opts.concurrency));
    auto figures = run_config(dir, opts, sync, projection_lag, all_dialog_tools, observe);
    if (keep) {
      std::printf("kept %s\n", dir.c_str());
    } else {
      fs::remove_all(dir);
    }
    if (!figures) {
      std::fprintf(stderr, "parley-bench fanout3: %s\n", figures.err().message.c_str());
      fs::remove_all(root);
      return 1;
    }
    if (!fanout3::report(summary, figures->fields)) status = 1;
  }
  if (!keep) fs::remove_all(root);
  print_json_line(summary);
  return status;
}

}  // namespace parley::bench
