// parley-bench fanout3: the peers' fanout-3 workload (bench/peers) run by a real Parley team against
// the mock LLM, so Parley lands in the same table as LangGraph.js, the OpenAI Agents SDK and Mastra.
// The lead ([[role:lead]]) makes three tellaskSessionless calls in one round; each one is a new
// subdialog of the member `worker` ([[role:worker]]), which calls lookup(key) and replies; the
// lead answers DONE with the three replies. 8 model calls per task through the OpenAI provider,
// the durable SQLite store in a temp dir (or the stores --store lists: memory, PostgreSQL), every
// answer checked. One RESULT_JSON line per configuration and store; the last line is one JSON
// object with all figures.
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json/parse.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <random>

#include "bench_stores.hpp"
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
                            const options& opts, fanout3::server_cpu_fn server_cpu,
                            result<fanout3::measured_run>& out) {
  fanout3::task_fn task = [&eng](std::string id) { return fanout3::run_task(eng, std::move(id)); };
  // The store's projections trail its log: what is still waiting at the end is counted too.
  out = co_await fanout3::measure(
      io.get_executor(), control, opts, task, [&log] { log.flush(); }, std::move(server_cpu));
  io.stop();  // idle keep-alive connections may still hold work; nothing else is left to do
}

struct config_figures {
  boost::json::object fields;
};

const char* variant_name(const std::string& sync) {
  return sync == "full" ? "sqlite" : sync == "normal" ? "sqlite-normal" : "memory";
}

// The store one configuration runs on, and how.
struct store_setup {
  store_choice choice;
  pg_server* server = nullptr;  // set for PostgreSQL
  std::string sync;             // full or normal: the SQLite store's synchronous setting
  std::chrono::milliseconds projection_lag{50};
  bool keep = false;  // --keep 1: a PostgreSQL schema is left on the server
};

const char* variant_name(const store_setup& setup) {
  if (setup.choice.kind == store_kind::sqlite) return variant_name(setup.sync);
  return store_name(setup.choice.kind);
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

result<bench_store> open_setup_store(const fs::path& dir, const store_setup& setup) {
  sqlite_options sqlite;
  sqlite.durable = setup.sync == "full";
  sqlite.projection_lag = setup.projection_lag;
  auto opened = open_bench_store(setup.choice, dir / "data", sqlite, setup.server);
  if (opened && opened->schema && setup.keep) opened->schema->keep();
  return opened;
}

// What the store did in the run, beside the figures every framework reports.
void add_store_fields(boost::json::object& fields, const store_setup& setup, const store_stats& stats, double tasks) {
  fields["store"] = store_name(setup.choice.kind);
  fields["sqlite_sync"] = setup.choice.kind == store_kind::sqlite ? sync_name(setup.sync) : "none";
  if (setup.server != nullptr) {
    for (const auto& [key, value] : setup.server->settings()) fields[key] = value;
    fields["server_cpu_source"] = setup.server->cpu_source();
  }
  fields["events_per_task"] = double(stats.events) / tasks;
  // Every commit is an fsync: the log's and the projections' catching up alike.
  fields["commits_per_task"] = double(stats.transactions + stats.projection_transactions) / tasks;
  fields["projection_commits_per_task"] = double(stats.projection_transactions) / tasks;
}

result<config_figures> run_config(const fs::path& dir, const options& opts, const store_setup& setup,
                                  bool all_dialog_tools, observers observe) {
  fanout3::write_team(dir, opts.mock, opts.stream, all_dialog_tools);
  auto team = config::load_team_file(dir / "team.yaml");
  if (!team) return std::move(team).err();
  auto opened = open_setup_store(dir, setup);
  if (!opened) return std::move(opened).err();
  store& log = *opened->log;
  fanout3::server_cpu_fn server_cpu;
  if (setup.server != nullptr) server_cpu = [server = setup.server] { return server->cpu_seconds(); };
  asio::io_context io(1);
  auto providers = engine::build_providers(*team);  // the team's own `mock` provider, as `parley serve` builds it
  if (!providers) return std::move(providers).err();
  auto eng = engine::engine::create(io.get_executor(), log, *team, std::move(*providers), fanout3::tools_with_lookup());
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
      co_await drive(io, **eng, log, control, opts, server_cpu, run);
      if (exporter) co_await exporter->stop();  // its batching loop would keep the loop running
    };
    asio::co_spawn(io, whole_run(), asio::detached);
    io.run();
  }
  log.flush();
  if (!run) return std::move(run).err();
  config_figures out;
  out.fields = fanout3::result_fields("parley", variant_name(setup), opts, *run);
  const double tasks = double(opts.n + opts.warmup_or_default());  // the log holds the warm-up tasks too
  add_store_fields(out.fields, setup, log.stats(), tasks);
  out.fields["metrics"] = observe.metrics;
  out.fields["traces"] = observe.traces;
  if (exporter) {
    out.fields["spans_exported"] = exporter->exported();
    out.fields["spans_dropped"] = exporter->dropped();
  }
  return out;
}

// The flags, checked: what every configuration and store of one run shares.
struct fanout3_flags {
  options base;
  std::string sync;  // full, normal or memory (memory: the memory store, as before --store)
  std::vector<store_choice> stores;
  std::string dialog_tools;
  std::chrono::milliseconds projection_lag{50};
  observers observe;
  bool keep = false;  // --keep 1 leaves the team, the SQLite store and a PostgreSQL schema behind
};

result<std::vector<store_choice>> read_stores(const bench_args& args, const std::string& sync) {
  if (args.values.count("store") == 0)
    return std::vector<store_choice>{{sync == "memory" ? store_kind::memory : store_kind::sqlite, ""}};
  if (sync == "memory")
    return make_error(errc::invalid_argument, "--sync memory is the memory store: with --store, list memory there");
  return parse_store_list(args.string_or("store", ""),
                          {store_kind::sqlite, store_kind::memory, store_kind::postgresql});
}

result<fanout3_flags> read_flags(const bench_args& args) {
  fanout3_flags flags;
  flags.base = fanout3::read_options(args, 500);
  flags.sync = args.string_or("sync", "full");
  if (flags.sync != "full" && flags.sync != "normal" && flags.sync != "memory")
    return make_error(errc::invalid_argument, "--sync is full, normal or memory, got '" + flags.sync + "'");
  auto stores = read_stores(args, flags.sync);
  if (!stores) return std::move(stores).err();
  flags.stores = std::move(*stores);
  flags.dialog_tools = args.string_or("dialog-tools", "used");
  if (flags.dialog_tools != "used" && flags.dialog_tools != "all")
    return make_error(errc::invalid_argument, "--dialog-tools is used or all, got '" + flags.dialog_tools + "'");
  // Under valgrind a task takes ~20x longer: raise the lag so projection passes stay as large as in a real run.
  flags.projection_lag = std::chrono::milliseconds(args.int_or("projection-lag-ms", 50));
  if (flags.projection_lag.count() < 1)
    return make_error(errc::invalid_argument, "--projection-lag-ms is a positive number of milliseconds");
  const int traces = args.int_or("traces", 0);
  if (traces < 0 || traces > 2)
    return make_error(errc::invalid_argument,
                      "--traces is 0 (off), 1 (exported) or 2 (recorded, dropped), got " + std::to_string(traces));
  flags.observe = {args.int_or("metrics", 0) != 0, traces != 0, traces != 2};
  flags.keep = args.int_or("keep", 0) != 0;
  return flags;
}

// The last line's key prefix of each store: none for the first SQLite or memory store listed (the
// keys it had before --store), the store's name for the others ("postgresql_json_c32_...").
std::vector<std::string> summary_prefixes(const std::vector<store_choice>& stores) {
  std::vector<std::string> out;
  bool unprefixed_taken = false;
  for (const auto& choice : stores) {
    const bool unprefixed = !unprefixed_taken && choice.kind != store_kind::postgresql;
    unprefixed_taken = unprefixed_taken || unprefixed;
    out.push_back(unprefixed ? "" : std::string(store_name(choice.kind)) + "_");
  }
  return out;
}

boost::json::object summary_head(const fanout3_flags& flags, const pg_server* server) {
  std::string stores;
  for (const auto& choice : flags.stores) stores += std::string(stores.empty() ? "" : ",") + store_name(choice.kind);
  boost::json::object summary{{"bench", "fanout3"},
                              {"framework", "parley"},
                              {"n", flags.base.n},
                              {"stores", stores},
                              {"sqlite_sync", sync_name(flags.sync)},
                              {"dialog_tools", flags.dialog_tools},
                              {"mock", flags.base.mock},
                              {"metrics", flags.observe.metrics},
                              {"traces", flags.observe.traces}};
  if (server != nullptr) {
    for (const auto& [key, value] : server->settings()) summary[key] = value;
    summary["postgresql_server_cpu_source"] = server->cpu_source();
  }
  return summary;
}

std::string config_name(const options& opts) {
  return (opts.stream ? "sse_c" : "json_c") + std::to_string(opts.concurrency);
}

// PostgreSQL over SQLite for one configuration of the same run: the comparison's headline.
void add_ratios(boost::json::object& summary, const options& opts,
                const std::map<store_kind, boost::json::object>& by_store) {
  const auto sqlite = by_store.find(store_kind::sqlite);
  const auto postgres = by_store.find(store_kind::postgresql);
  if (sqlite == by_store.end() || postgres == by_store.end()) return;
  const std::string prefix = "postgresql_to_sqlite_" + config_name(opts) + "_";
  for (const char* key : {"cpu_ms_per_task", "tasks_per_s"}) {
    const double base = sqlite->second.at(key).to_number<double>();
    const double value = postgres->second.at(key).to_number<double>();
    summary[prefix + key + "_ratio"] = base > 0 ? std::round(value / base * 1000.0) / 1000.0 : 0.0;
  }
}

// One configuration on every listed store, one after the other; false when a run was not sound.
result<bool> run_stores(const fs::path& root, const options& opts, const fanout3_flags& flags, pg_server* server,
                        boost::json::object& summary) {
  const auto prefixes = summary_prefixes(flags.stores);
  std::map<store_kind, boost::json::object> by_store;
  bool sound = true;
  for (std::size_t i = 0; i < flags.stores.size(); ++i) {
    const store_choice& choice = flags.stores[i];
    const fs::path dir = root / (config_name(opts) + "-" + store_name(choice.kind));
    const store_setup setup{choice, choice.kind == store_kind::postgresql ? server : nullptr, flags.sync,
                            flags.projection_lag, flags.keep};
    auto figures = run_config(dir, opts, setup, flags.dialog_tools == "all", flags.observe);
    if (flags.keep) {
      std::printf("kept %s\n", dir.c_str());
    } else {
      fs::remove_all(dir);
    }
    if (!figures) return std::move(figures).err();
    if (!fanout3::report(summary, figures->fields, prefixes[i])) sound = false;
    by_store[choice.kind] = std::move(figures->fields);
  }
  add_ratios(summary, opts, by_store);
  return sound;
}

}  // namespace

int run_fanout3_bench(const bench_args& args) {
  ::setenv(fanout3::kKeyVariable, "mock-key", 0);
  auto flags = read_flags(args);
  if (!flags) {
    std::fprintf(stderr, "parley-bench: %s\n", flags.err().message.c_str());
    return 2;
  }
  // A cluster the bench started is stopped when `server` goes: on every return below.
  auto server = server_for(flags->stores);
  if (!server) {
    std::fprintf(stderr, "parley-bench fanout3: %s\n", server.err().message.c_str());
    return 1;
  }
  pg_server* postgres = server->has_value() ? &**server : nullptr;
  std::random_device device;
  const fs::path root = fs::temp_directory_path() / ("parley-bench-fanout3-" + std::to_string(device()));
  boost::json::object summary = summary_head(*flags, postgres);
  int status = 0;
  for (const options& opts : fanout3::configurations(args, flags->base)) {
    auto sound = run_stores(root, opts, *flags, postgres, summary);
    if (!sound) {
      std::fprintf(stderr, "parley-bench fanout3: %s\n", sound.err().message.c_str());
      if (!flags->keep) fs::remove_all(root);
      return 1;
    }
    if (!*sound) status = 1;
  }
  if (!flags->keep) fs::remove_all(root);
  print_json_line(summary);
  return status;
}

}  // namespace parley::bench
