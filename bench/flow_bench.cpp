// parley-bench flow: N article flows (examples/flows/article_creation: ask, outline sub-thread with
// a nested review, article) on the scripted model and the durable SQLite store, against the
// engine's plain dialog rounds (member `worker`, calculate tool rounds) in the same run and the
// same number in flight. A "step" is one model call: 4 per flow, `rounds` per dialog. The ratio of
// CPU per step says what the flow layer costs on top of a model round (target ≤ 1.5).
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <random>

#include "bench_team.hpp"
#include "bench_verbs.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/engine.hpp"
#include "parley/flow/flow_runner.hpp"
#include "parley/flow/yaml_agent.hpp"
#include "parley/llm/scripted/scripted_provider.hpp"

namespace parley::bench {
namespace {

namespace asio = boost::asio;
namespace fs = std::filesystem;

constexpr int kStepsPerFlow = 4;

double thread_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

double cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

struct figures {
  double wall = 0;
  double cpu = 0;
  double loop_cpu = 0;  // of the thread running the flows or dialogs; the rest is the store's writer
  std::int64_t steps = 0;
  std::int64_t failures = 0;
  std::int64_t events = 0;
  std::int64_t commits = 0;
};

asio::awaitable<void> run_flows(flow::flow_runner& runner, int& next, int total, figures& out) {
  while (next < total) {
    ++next;
    auto first = co_await runner.start("Write me an article");
    if (!first) {
      ++out.failures;
      continue;
    }
    auto done = co_await runner.say(first->id, "Tea, for beginners");
    if (!done || done->messages.size() != 5) ++out.failures;
  }
}

result<figures> flow_run(const fs::path& agent_dir, const fs::path& script, const fs::path& data, int flows,
                         int in_flight) {
  auto agent = flow::yaml_flow::load(agent_dir);
  if (!agent) return std::move(agent).err();
  auto loaded = llm::load_scripted_script(script);
  if (!loaded) return std::move(loaded).err();
  auto log = open_sqlite_store(data.string());
  if (!log) return std::move(log).err();
  asio::io_context io(1);
  flow::thread_repository repository(**log, io.get_executor());
  flow::ai_adapter ai(std::make_shared<llm::scripted_provider>(*loaded), "article_writer", "scripted");
  flow::flow_runner runner(repository, ai, agent->factory("article_writer"), "article_writer");
  figures out;
  int next = 0;
  const auto wall = std::chrono::steady_clock::now();
  const double cpu = cpu_seconds();
  const double loop_cpu = thread_cpu_seconds();
  for (int i = 0; i < in_flight; ++i) asio::co_spawn(io, run_flows(runner, next, flows, out), asio::detached);
  io.run();
  out.loop_cpu = thread_cpu_seconds() - loop_cpu;
  (*log)->flush();
  out.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count();
  out.cpu = cpu_seconds() - cpu;
  out.steps = ai.calls();
  out.events = (*log)->stats().events;
  out.commits = (*log)->stats().transactions;
  return out;
}

asio::awaitable<void> run_dialogs(engine::engine& eng, int& next, int total, figures& out) {
  while (next < total) {
    ++next;
    engine::new_dialog spec{"worker", "", ""};
    spec.first_message = "work";
    auto id = co_await eng.create_root_dialog(std::move(spec));
    if (!id) {
      ++out.failures;
      continue;
    }
    co_await eng.runs().wait_until_idle(*id);
    const auto* dialog = eng.find(*id);
    if (dialog == nullptr || !dialog->row().last_error.empty()) ++out.failures;
  }
}

result<figures> engine_run(const fs::path& team_dir, const fs::path& data, int dialogs, int rounds, int in_flight) {
  auto team = config::load_team_file(team_dir / "team.yaml");
  if (!team) return std::move(team).err();
  auto providers = engine::build_providers(*team);
  if (!providers) return std::move(providers).err();
  auto log = open_sqlite_store(data.string());
  if (!log) return std::move(log).err();
  asio::io_context io(1);
  auto eng =
      engine::engine::create(io.get_executor(), **log, *team, std::move(*providers), engine::build_builtin_tools());
  if (!eng) return std::move(eng).err();
  figures out;
  int next = 0;
  const auto wall = std::chrono::steady_clock::now();
  const double cpu = cpu_seconds();
  const double loop_cpu = thread_cpu_seconds();
  for (int i = 0; i < in_flight; ++i) asio::co_spawn(io, run_dialogs(**eng, next, dialogs, out), asio::detached);
  io.run();
  out.loop_cpu = thread_cpu_seconds() - loop_cpu;
  (*log)->flush();
  out.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count();
  out.cpu = cpu_seconds() - cpu;
  out.steps = static_cast<std::int64_t>(dialogs) * rounds;
  out.events = (*log)->stats().events;
  out.commits = (*log)->stats().transactions;
  return out;
}

void print_line(const char* name, const figures& f) {
  const double steps = f.steps > 0 ? static_cast<double>(f.steps) : 1.0;
  std::printf(
      "%-7s %7.0f steps/s  %6.1f us CPU/step, %6.1f of it on the loop  (%lld steps in %.3f s, %lld events in "
      "%lld commits)\n",
      name, f.wall > 0 ? static_cast<double>(f.steps) / f.wall : 0.0, f.cpu * 1e6 / steps, f.loop_cpu * 1e6 / steps,
      static_cast<long long>(f.steps), f.wall, static_cast<long long>(f.events), static_cast<long long>(f.commits));
}

}  // namespace

int run_flow_bench(const bench_args& args) {
  const int flows = args.int_or("flows", 300);
  const int in_flight = args.int_or("in-flight", 16);
  const bool keep = args.int_or("keep", 0) != 0;  // --keep 1 leaves both stores behind, to read their events
  std::random_device device;
  const fs::path dir = fs::temp_directory_path() / ("parley-bench-flow-" + std::to_string(device()));
  fs::create_directories(dir);
  const fs::path agent_dir = fs::path(PARLEY_SOURCE_DIR) / "examples/flows/article_creation";
  // The example's answers without chunking, as the engine's team has them.
  std::ofstream(dir / "script.yaml") << "chunk_size: 0\n"
                                        "members:\n  \"*\":\n"
                                        "    - when: {system: \"Ask, in one short message\"}\n"
                                        "      emit: [{saying: \"Which topic and audience?\"}]\n"
                                        "    - when: {system: \"You draft article outlines\"}\n"
                                        "      emit: [{saying: \"1. Why 2. How 3. Next\"}]\n"
                                        "    - when: {system: \"You review article outlines\"}\n"
                                        "      emit: [{saying: \"- Missing: a summary\"}]\n"
                                        "    - when: {system: \"You write the article\"}\n"
                                        "      emit: [{saying: \"The article.\"}]\n";
  write_engine_team(dir / "engine", kStepsPerFlow);

  auto engine = engine_run(dir / "engine", dir / "engine-data", flows, kStepsPerFlow, in_flight);
  if (!engine) {
    std::fprintf(stderr, "parley-bench: %s\n", engine.err().message.c_str());
    return 1;
  }
  auto flow = flow_run(agent_dir, dir / "script.yaml", dir / "flow-data", flows, in_flight);
  if (!flow) {
    std::fprintf(stderr, "parley-bench: %s\n", flow.err().message.c_str());
    return 1;
  }
  print_line("engine", *engine);
  print_line("flow", *flow);
  const auto per_step = [](const figures& f) { return f.steps > 0 ? f.cpu / static_cast<double>(f.steps) : 0.0; };
  const double ratio = per_step(*engine) > 0 ? per_step(*flow) / per_step(*engine) : 0.0;
  std::printf("flow CPU per step / engine CPU per round: %.2f (target <= 1.5)\n", ratio);
  boost::json::object out{
      {"bench", "flow"},
      {"flows", flows},
      {"in_flight", in_flight},
      {"flows_per_s", flow->wall > 0 ? flows / flow->wall : 0.0},
      {"flow_steps_per_s", flow->wall > 0 ? static_cast<double>(flow->steps) / flow->wall : 0.0},
      {"engine_rounds_per_s", engine->wall > 0 ? static_cast<double>(engine->steps) / engine->wall : 0.0},
      {"flow_cpu_us_per_step", per_step(*flow) * 1e6},
      {"engine_cpu_us_per_round", per_step(*engine) * 1e6},
      {"flow_to_engine_cpu_per_step_ratio", ratio},
      {"flow_events_per_flow", flows > 0 ? static_cast<double>(flow->events) / flows : 0.0},
      {"flow_commits_per_flow", flows > 0 ? static_cast<double>(flow->commits) / flows : 0.0},
      {"failed", flow->failures + engine->failures}};
  std::error_code ignored;
  if (keep) {
    std::printf("kept: %s\n", dir.string().c_str());
  } else {
    fs::remove_all(dir, ignored);
  }
  print_json_line(out);
  return flow->failures + engine->failures == 0 ? 0 : 1;
}

}  // namespace parley::bench
