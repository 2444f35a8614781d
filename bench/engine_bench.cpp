// parley-bench engine: N root dialogs of K model rounds each through the scripted provider with
// no delays, 1 and 64 dialogs in flight, on the stores --store lists (default the in-memory store
// and the durable SQLite store; PostgreSQL on request).
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <random>

#include "bench_stores.hpp"
#include "bench_team.hpp"
#include "bench_verbs.hpp"
#include "fanout3_common.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/engine.hpp"

namespace parley::bench {
namespace {

namespace asio = boost::asio;
namespace fs = std::filesystem;

struct run_figures {
  double seconds = 0;
  std::int64_t rounds = 0;
  std::int64_t failures = 0;
  double cpu_s = 0;                    // this process, every thread (getrusage): Parley's CPU
  std::optional<double> server_cpu_s;  // the PostgreSQL server's processes, apart, when readable
  double rounds_per_second() const { return seconds > 0 ? static_cast<double>(rounds) / seconds : 0; }
  double cpu_us_per_round(double cpu) const { return rounds > 0 ? cpu * 1e6 / static_cast<double>(rounds) : 0; }
};

asio::awaitable<void> drive_dialogs(engine::engine& eng, int& next, int total, run_figures& figures) {
  while (next < total) {
    ++next;
    engine::new_dialog spec{"worker", "", ""};
    auto id = co_await eng.create_root_dialog(std::move(spec));
    if (!id) {
      ++figures.failures;
      continue;
    }
    auto posted = co_await eng.post_user_message(*id, "work");
    if (!posted) ++figures.failures;
    co_await eng.runs().wait_until_idle(*id);
    const auto* dialog = eng.find(*id);
    if (dialog == nullptr || !dialog->row().last_error.empty()) ++figures.failures;
  }
}

double process_cpu_s() {
  const auto sample = fanout3::sample_cpu();
  return sample.user_s + sample.sys_s;
}

result<run_figures> run_once(const config::team_config& team, store& log, int dialogs, int rounds, int in_flight,
                             const fanout3::server_cpu_fn& server_cpu) {
  auto providers = engine::build_providers(team);
  if (!providers) return std::move(providers).err();
  asio::io_context io(1);
  auto eng = engine::engine::create(io.get_executor(), log, team, std::move(*providers), engine::build_builtin_tools());
  if (!eng) return std::move(eng).err();
  run_figures figures;
  int next = 0;
  const double cpu_before = process_cpu_s();
  const std::optional<double> server_before = server_cpu ? server_cpu() : std::nullopt;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < in_flight; ++i) asio::co_spawn(io, drive_dialogs(**eng, next, dialogs, figures), asio::detached);
  io.run();
  log.flush();
  figures.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  figures.cpu_s = process_cpu_s() - cpu_before;
  if (const std::optional<double> server_after = server_cpu ? server_cpu() : std::nullopt;
      server_before && server_after)
    figures.server_cpu_s = *server_after - *server_before;
  figures.rounds = static_cast<std::int64_t>(dialogs) * rounds;
  return figures;
}

// The bench's temp dir (team, script, SQLite stores), removed on every way out.
class scratch_dir {
 public:
  scratch_dir() {
    std::random_device device;
    path_ = fs::temp_directory_path() / ("parley-bench-" + std::to_string(device()));
    fs::create_directories(path_);
  }
  scratch_dir(const scratch_dir&) = delete;
  scratch_dir& operator=(const scratch_dir&) = delete;
  ~scratch_dir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const fs::path& path() const noexcept { return path_; }

 private:
  fs::path path_;
};

struct engine_workload {
  const config::team_config& team;
  int dialogs = 0;
  int rounds = 0;
  fs::path dir;
  pg_server* server = nullptr;
};

// One store at one in-flight count: its line on stdout, its keys in `out`; the rounds per second.
result<double> run_variant(const engine_workload& work, const store_choice& choice, int in_flight,
                           boost::json::object& out, std::int64_t& failures) {
  const bool postgres = choice.kind == store_kind::postgresql;
  auto opened = open_bench_store(choice, work.dir / ("data-" + std::to_string(in_flight)), sqlite_options{},
                                 postgres ? work.server : nullptr);
  if (!opened) return std::move(opened).err();
  fanout3::server_cpu_fn server_cpu;
  if (postgres) server_cpu = [server = work.server] { return server->cpu_seconds(); };
  auto figures = run_once(work.team, *opened->log, work.dialogs, work.rounds, in_flight, server_cpu);
  if (!figures) return std::move(figures).err();
  const auto stats = opened->log->stats();
  const std::string name = std::string(store_name(choice.kind)) + "_c" + std::to_string(in_flight);
  const double rate = figures->rounds_per_second();
  std::printf(
      "%-14s %8.0f model rounds/s  %6.1f us CPU/round  (%lld rounds in %.3f s, %lld events in %lld transactions)\n",
      name.c_str(), rate, figures->cpu_us_per_round(figures->cpu_s), static_cast<long long>(figures->rounds),
      figures->seconds, static_cast<long long>(stats.events), static_cast<long long>(stats.transactions));
  out[name + "_rounds_per_s"] = rate;
  out[name + "_cpu_us_per_round"] = figures->cpu_us_per_round(figures->cpu_s);
  if (figures->server_cpu_s) out[name + "_server_cpu_us_per_round"] = figures->cpu_us_per_round(*figures->server_cpu_s);
  if (choice.kind != store_kind::memory)
    out[name + "_events_per_commit"] = stats.transactions > 0 ? double(stats.events) / double(stats.transactions) : 0.0;
  failures += figures->failures;
  return rate;
}

// Store over store at the same in-flight count, for every pair this run measured.
void add_ratios(boost::json::object& out, int in_flight) {
  const std::string suffix = "_c" + std::to_string(in_flight);
  const auto figure = [&](const char* store, const char* key) {
    const auto* value = out.if_contains(std::string(store) + suffix + key);
    return value == nullptr ? 0.0 : value->to_number<double>();
  };
  const auto ratio = [](double over, double under) { return under > 0 && over > 0 ? over / under : 0.0; };
  // The key runs before this bench took --store: SQLite over memory at 64 in flight.
  if (in_flight == 64 && figure("sqlite", "_rounds_per_s") > 0 && figure("memory", "_rounds_per_s") > 0)
    out["durable_to_memory_ratio_c64"] = ratio(figure("sqlite", "_rounds_per_s"), figure("memory", "_rounds_per_s"));
  for (const char* base : {"sqlite", "memory"}) {
    const double rate = ratio(figure("postgresql", "_rounds_per_s"), figure(base, "_rounds_per_s"));
    if (rate > 0) out["postgresql_to_" + std::string(base) + "_ratio" + suffix] = rate;
    const double cpu = ratio(figure("postgresql", "_cpu_us_per_round"), figure(base, "_cpu_us_per_round"));
    if (cpu > 0) out["postgresql_to_" + std::string(base) + "_cpu_ratio" + suffix] = cpu;
  }
}

boost::json::object head(int dialogs, int rounds, const std::vector<store_choice>& stores, const pg_server* server) {
  std::string names;
  for (const auto& choice : stores) names += std::string(names.empty() ? "" : ",") + store_name(choice.kind);
  boost::json::object out{{"bench", "engine"}, {"dialogs", dialogs}, {"rounds_per_dialog", rounds}, {"stores", names}};
  if (server != nullptr) {
    for (const auto& [key, value] : server->settings()) out[key] = value;
    out["postgresql_server_cpu_source"] = server->cpu_source();
  }
  return out;
}

}  // namespace

int run_engine_bench(const bench_args& args) {
  const int dialogs = args.int_or("dialogs", 2000);
  const int rounds = args.int_or("rounds", 8);
  auto stores = parse_store_list(args.string_or("store", "memory,sqlite"),
                                 {store_kind::memory, store_kind::sqlite, store_kind::postgresql});
  if (!stores) {
    std::fprintf(stderr, "parley-bench: %s\n", stores.err().message.c_str());
    return 2;
  }
  // A cluster the bench started is stopped when `server` goes: on every return below.
  auto server = server_for(*stores);
  if (!server) {
    std::fprintf(stderr, "parley-bench engine: %s\n", server.err().message.c_str());
    return 1;
  }
  const scratch_dir dir;
  write_engine_team(dir.path(), rounds);
  auto team = config::load_team_file(dir.path() / "team.yaml");
  if (!team) {
    std::fprintf(stderr, "parley-bench: %s\n", team.err().message.c_str());
    return 1;
  }
  pg_server* postgres = server->has_value() ? &**server : nullptr;
  const engine_workload work{*team, dialogs, rounds, dir.path(), postgres};
  boost::json::object out = head(dialogs, rounds, *stores, postgres);
  std::int64_t failures = 0;
  for (const int in_flight : {1, 64}) {
    for (const store_choice& choice : *stores) {
      auto rate = run_variant(work, choice, in_flight, out, failures);
      if (!rate) {
        std::fprintf(stderr, "parley-bench engine: %s\n", rate.err().message.c_str());
        return 1;
      }
    }
    add_ratios(out, in_flight);
  }
  out["failed_dialogs"] = failures;
  print_json_line(out);
  return failures == 0 ? 0 : 1;
}

}  // namespace parley::bench
