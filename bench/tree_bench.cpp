// parley-bench tree: the hierarchy's cost. Each root makes three Type B Tellasks in one round; each
// subdialog calls one tool and replies; the root answers — 8 model rounds per root. Run with the
// durable SQLite store and compared, in the same run, with the flat `engine` workload (one dialog
// of 8 rounds) at the same concurrency.
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>

#include "bench_team.hpp"
#include "bench_verbs.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/engine.hpp"

namespace parley::bench {
namespace {

namespace asio = boost::asio;
namespace fs = std::filesystem;

constexpr int kRoundsPerRoot = 8;

void write_tree_team(const fs::path& dir) {
  fs::create_directories(dir / "workspace");
  std::ofstream(dir / "team.yaml") << R"(version: 1
workspace: workspace
providers:
  offline: {kind: scripted, script: script.yaml}
members:
  lead: {persona: "You lead.", provider: offline, model: scripted}
  worker: {persona: "You add.", provider: offline, model: scripted, toolsets: [basic]}
)";
  std::ofstream(dir / "script.yaml") << R"(chunk_size: 0
members:
  lead:
    - when: {last_tool: "done"}
      emit: [{saying: "all three answered"}]
    - emit:
        - tool_call: {name: tellask, arguments: {targetAgentId: worker, sessionSlug: a, tellaskContent: "add a"}}
        - tool_call: {name: tellask, arguments: {targetAgentId: worker, sessionSlug: b, tellaskContent: "add b"}}
        - tool_call: {name: tellask, arguments: {targetAgentId: worker, sessionSlug: c, tellaskContent: "add c"}}
  worker:
    - when: {round: 2}
      emit: [{saying: "done"}]
    - emit: [{tool_call: {name: calculate, arguments: {expression: "1 + 1"}}}]
)";
}

struct tree_figures {
  double seconds = 0;
  std::int64_t failures = 0;
};

asio::awaitable<void> drive_roots(engine::engine& eng, std::string member, int& next, int total, tree_figures& out) {
  while (next < total) {
    ++next;
    engine::new_dialog spec{member, "", ""};
    auto id = co_await eng.create_root_dialog(std::move(spec));
    if (!id) {
      ++out.failures;
      continue;
    }
    auto posted = co_await eng.post_user_message(*id, "work");
    if (!posted) ++out.failures;
    co_await eng.runs().wait_until_settled(*id);
    const auto* root = eng.find(*id);
    if (root == nullptr || !root->row().last_error.empty() || root->messages().empty() ||
        root->messages().back().role != events::message_role::assistant) {
      ++out.failures;
    }
  }
}

result<tree_figures> run_durable(const fs::path& team_file, const fs::path& data, const std::string& member, int roots,
                                 int in_flight) {
  auto team = config::load_team_file(team_file);
  if (!team) return std::move(team).err();
  auto log = open_sqlite_store(data.string());
  if (!log) return std::move(log).err();
  auto providers = engine::build_providers(*team);
  if (!providers) return std::move(providers).err();
  asio::io_context io(1);
  auto eng =
      engine::engine::create(io.get_executor(), **log, *team, std::move(*providers), engine::build_builtin_tools());
  if (!eng) return std::move(eng).err();
  tree_figures out;
  int next = 0;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < in_flight; ++i) asio::co_spawn(io, drive_roots(**eng, member, next, roots, out), asio::detached);
  io.run();
  (*log)->flush();
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace

int run_tree_bench(const bench_args& args) {
  const int roots = args.int_or("roots", 2000);
  const int in_flight = args.int_or("in-flight", 32);
  std::random_device device;
  const fs::path dir = fs::temp_directory_path() / ("parley-bench-tree-" + std::to_string(device()));
  fs::create_directories(dir / "flat");
  write_tree_team(dir);
  write_engine_team(dir / "flat", kRoundsPerRoot);

  auto tree = run_durable(dir / "team.yaml", dir / "data-tree", "lead", roots, in_flight);
  auto flat = run_durable(dir / "flat" / "team.yaml", dir / "data-flat", "worker", roots, in_flight);
  fs::remove_all(dir);
  if (!tree || !flat) {
    std::fprintf(stderr, "parley-bench: %s\n", (!tree ? tree.err() : flat.err()).message.c_str());
    return 1;
  }
  const double rounds = static_cast<double>(roots) * kRoundsPerRoot;
  const double tree_rounds_per_s = rounds / tree->seconds;
  const double flat_rounds_per_s = rounds / flat->seconds;
  std::printf("tree   %8.0f roots/s  %8.0f model rounds/s  (%d roots, %d in flight, durable)\n", roots / tree->seconds,
              tree_rounds_per_s, roots, in_flight);
  std::printf("engine %8.0f dialogs/s %8.0f model rounds/s  (same rounds per dialog, same store and concurrency)\n",
              roots / flat->seconds, flat_rounds_per_s);
  print_json_line(boost::json::object{{"bench", "tree"},
                                      {"roots", roots},
                                      {"in_flight", in_flight},
                                      {"rounds_per_root", kRoundsPerRoot},
                                      {"tree_roots_per_s", roots / tree->seconds},
                                      {"tree_rounds_per_s", tree_rounds_per_s},
                                      {"engine_rounds_per_s", flat_rounds_per_s},
                                      {"tree_to_engine_ratio", tree_rounds_per_s / flat_rounds_per_s},
                                      {"failed_roots", tree->failures + flat->failures}});
  return tree->failures + flat->failures == 0 ? 0 : 1;
}

}  // namespace parley::bench
