// parley-bench engine: N root dialogs of K model rounds each through the scripted provider with
// no delays, 1 and 64 dialogs in flight, on the in-memory store and on the durable SQLite store.
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>

#include "bench_team.hpp"
#include "bench_verbs.hpp"
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
  double rounds_per_second() const { return seconds > 0 ? static_cast<double>(rounds) / seconds : 0; }
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

result<run_figures> run_once(const config::team_config& team, store& log, int dialogs, int rounds, int in_flight) {
  auto providers = engine::build_providers(team);
  if (!providers) return std::move(providers).err();
  asio::io_context io(1);
  auto eng = engine::engine::create(io.get_executor(), log, team, std::move(*providers), engine::build_builtin_tools());
  if (!eng) return std::move(eng).err();
  run_figures figures;
  int next = 0;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < in_flight; ++i) asio::co_spawn(io, drive_dialogs(**eng, next, dialogs, figures), asio::detached);
  io.run();
  log.flush();
  figures.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  figures.rounds = static_cast<std::int64_t>(dialogs) * rounds;
  return figures;
}

fs::path scratch_dir() {
  std::random_device device;
  auto dir = fs::temp_directory_path() / ("parley-bench-" + std::to_string(device()));
  fs::create_directories(dir);
  return dir;
}

}  // namespace

int run_engine_bench(const bench_args& args) {
  const int dialogs = args.int_or("dialogs", 2000);
  const int rounds = args.int_or("rounds", 8);
  const fs::path dir = scratch_dir();
  write_engine_team(dir, rounds);
  auto team = config::load_team_file(dir / "team.yaml");
  if (!team) {
    std::fprintf(stderr, "parley-bench: %s\n", team.err().message.c_str());
    return 1;
  }
  boost::json::object out{{"bench", "engine"}, {"dialogs", dialogs}, {"rounds_per_dialog", rounds}};
  std::int64_t failures = 0;
  double memory_c64 = 0;
  double sqlite_c64 = 0;
  for (const int in_flight : {1, 64}) {
    for (const bool durable : {false, true}) {
      std::unique_ptr<store> log;
      const fs::path data = dir / ("data-" + std::to_string(in_flight));
      if (durable) {
        auto opened = open_sqlite_store(data.string());
        if (!opened) {
          std::fprintf(stderr, "parley-bench: %s\n", opened.err().message.c_str());
          return 1;
        }
        log = std::move(*opened);
      } else {
        log = make_memory_store();
      }
      auto figures = run_once(*team, *log, dialogs, rounds, in_flight);
      if (!figures) {
        std::fprintf(stderr, "parley-bench: %s\n", figures.err().message.c_str());
        return 1;
      }
      const auto stats = log->stats();
      const std::string name = std::string(durable ? "sqlite" : "memory") + "_c" + std::to_string(in_flight);
      const double rate = figures->rounds_per_second();
      std::printf("%-10s %8.0f model rounds/s  (%lld rounds in %.3f s, %lld events in %lld transactions)\n",
                  name.c_str(), rate, static_cast<long long>(figures->rounds), figures->seconds,
                  static_cast<long long>(stats.events), static_cast<long long>(stats.transactions));
      out[name + "_rounds_per_s"] = rate;
      if (durable)
        out[name + "_events_per_commit"] =
            stats.transactions > 0 ? double(stats.events) / double(stats.transactions) : 0.0;
      failures += figures->failures;
      if (in_flight == 64) (durable ? sqlite_c64 : memory_c64) = rate;
    }
  }
  out["durable_to_memory_ratio_c64"] = memory_c64 > 0 ? sqlite_c64 / memory_c64 : 0.0;
  out["failed_dialogs"] = failures;
  fs::remove_all(dir);
  print_json_line(out);
  return failures == 0 ? 0 : 1;
}

}  // namespace parley::bench
