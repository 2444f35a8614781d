// parley-bench mcp: what a tool call of an MCP server costs Parley, beside a built-in tool's, in one
// run. Three scripted members each make (rounds - 1) tool calls a dialog and then answer: `builtin`
// calls `calculate` (basic), `stdio` the echo tool of `parley-bench mcp-echo-server` over stdio,
// `http` the same server's over streamable HTTP (a child process). Dialogs run one at a time on the
// in-memory store, the variants in turn, `--repeats` times, summed. CPU is this process's alone
// (getrusage RUSAGE_SELF): the servers, the stdio supervisor and the HTTP server are other
// processes and not counted — the figure is Parley's cost, not the server's.
//
// Then the tool alone, without the engine: its arguments checked and its invoke awaited, --invokes
// times per tool, as the drive loop does it for one call.
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json/serialize.hpp>

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "bench_verbs.hpp"
#include "mcp_floor.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/engine.hpp"
#include "parley/store/store.hpp"
#include "parley/tools/json_schema.hpp"

extern char** environ;

namespace parley::bench {
namespace {

namespace asio = boost::asio;
namespace fs = std::filesystem;
using steady_clock = std::chrono::steady_clock;

double mcp_bench_cpu_s() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

// One of the three ways to call a tool: the member that calls it, the tool and its arguments.
struct mcp_bench_variant {
  const char* name;
  const char* tool;
  const char* arguments;  // JSON, which is YAML too: the script's and the direct invoke's
  const char* server;     // "" for the built-in tool
  double wall_s = 0;
  double cpu_s = 0;
  std::int64_t calls = 0;
  std::int64_t failures = 0;
  double invoke_wall_s = 0;
  double invoke_cpu_s = 0;
  std::int64_t invokes = 0;
};

// The stdio floor's totals (mcp_floor.hpp): CPU of bare pipe round trips to the same server.
struct mcp_floor_figures {
  double cpu_s = 0;
  std::int64_t round_trips = 0;
  std::int64_t failures = 0;
};

// The HTTP echo server: a child that prints its port first; killed (and reaped) on every way out.
class echo_http_child {
 public:
  echo_http_child(const fs::path& exe, const std::string& tool) {
    int out[2];
    if (::pipe2(out, O_CLOEXEC) != 0) return;
    posix_spawn_file_actions_t actions;
    ::posix_spawn_file_actions_init(&actions);
    ::posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    std::string exe_text = exe.string();
    std::vector<std::string> words{exe_text, "mcp-echo-server", "--tool", tool, "--http", "0"};
    std::vector<char*> argv;
    for (auto& word : words) argv.push_back(word.data());
    argv.push_back(nullptr);
    if (::posix_spawn(&pid_, exe_text.c_str(), &actions, nullptr, argv.data(), environ) != 0) pid_ = -1;
    ::posix_spawn_file_actions_destroy(&actions);
    ::close(out[1]);
    std::string line;
    char c = 0;
    while (pid_ > 0 && ::read(out[0], &c, 1) == 1 && c != '\n') line += c;
    ::close(out[0]);
    port_ = std::atoi(line.c_str());
  }
  echo_http_child(const echo_http_child&) = delete;
  echo_http_child& operator=(const echo_http_child&) = delete;
  ~echo_http_child() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGTERM);
    int status = 0;
    ::waitpid(pid_, &status, 0);
  }
  int port() const noexcept { return port_; }

 private:
  pid_t pid_ = -1;
  int port_ = 0;
};

std::string member_yaml(const char* id, const char* toolset, int rounds) {
  return std::string("  ") + id + ": {persona: \"You work.\", provider: offline, model: scripted, toolsets: [" +
         toolset + "], max_tool_rounds: " + std::to_string(rounds + 1) + "}\n";
}

void write_mcp_bench_team(const fs::path& dir, const fs::path& exe, int port, int rounds,
                          const std::vector<mcp_bench_variant>& variants) {
  fs::create_directories(dir / "workspace");
  std::ofstream(dir / "team.yaml") << "version: 1\nworkspace: workspace\n"
                                      "providers:\n  offline: {kind: scripted, script: script.yaml}\n"
                                      "mcp:\n  servers:\n"
                                      "    echo_stdio:\n      transport: stdio\n      command: '"
                                   << exe.string()
                                   << "'\n      args: [mcp-echo-server, --tool, stdio_echo]\n"
                                      "    echo_http:\n      transport: streamable_http\n"
                                      "      url: 'http://127.0.0.1:"
                                   << port << "/mcp'\nmembers:\n"
                                   << member_yaml("builtin", "basic", rounds)
                                   << member_yaml("stdio", "echo_stdio", rounds)
                                   << member_yaml("http", "echo_http", rounds);
  std::ofstream script(dir / "script.yaml");
  script << "chunk_size: 0\nmembers:\n";
  for (const auto& variant : variants) {
    script << "  " << variant.name << ":\n    - when: {round: " << rounds
           << "}\n      emit: [{saying: \"done\"}]\n    - emit:\n        - tool_call: {name: " << variant.tool
           << ", arguments: " << variant.arguments << "}\n";
  }
}

asio::awaitable<void> run_one_dialog(engine::engine& eng, mcp_bench_variant& variant) {
  engine::new_dialog spec{variant.name, "", ""};
  auto id = co_await eng.create_root_dialog(std::move(spec));
  if (!id) {
    ++variant.failures;
    co_return;
  }
  auto posted = co_await eng.post_user_message(*id, "work");
  if (!posted) ++variant.failures;
  co_await eng.runs().wait_until_idle(*id);
  const auto* dialog = eng.find(*id);
  if (dialog == nullptr || !dialog->row().last_error.empty()) ++variant.failures;
}

// The tool alone: arguments checked against its schema, then invoke awaited, `count` times.
asio::awaitable<void> invoke_tool(tools::tool& tool, mcp_bench_variant& variant, int count) {
  tools::tool_context ctx;
  ctx.member_id = variant.name;
  const double cpu_before = mcp_bench_cpu_s();
  const auto start = steady_clock::now();
  for (int i = 0; i < count; ++i) {
    auto args = tools::parse_tool_arguments(variant.arguments, tool.spec().parameters);
    if (!args) {
      ++variant.failures;
      continue;
    }
    const tools::tool_outcome outcome = co_await tool.invoke(*args, ctx);
    if (!outcome.ok) ++variant.failures;
  }
  variant.invoke_wall_s += std::chrono::duration<double>(steady_clock::now() - start).count();
  variant.invoke_cpu_s += mcp_bench_cpu_s() - cpu_before;
  variant.invokes += count;
}

struct mcp_bench_plan {
  int dialogs = 0;  // per variant and repeat
  int repeats = 0;
  int invokes = 0;  // per variant and repeat
};

// One repeat: every variant's dialogs, then every variant's tool alone; variants in turn so that
// the machine's drift hits them alike.
void measure_stdio_floor(stdio_floor& floor, int count, mcp_floor_figures& figures) {
  const double cpu_before = mcp_bench_cpu_s();
  if (!floor.round_trips(count)) ++figures.failures;
  figures.cpu_s += mcp_bench_cpu_s() - cpu_before;
  figures.round_trips += count;
}

asio::awaitable<void> run_mcp_repeat(engine::engine& eng, tools::tool_registry& builtin,
                                     std::vector<mcp_bench_variant>& variants, const mcp_bench_plan& plan, int rounds,
                                     stdio_floor& floor, mcp_floor_figures& floor_figures) {
  for (auto& variant : variants) {
    const double cpu_before = mcp_bench_cpu_s();
    const auto start = steady_clock::now();
    for (int i = 0; i < plan.dialogs; ++i) co_await run_one_dialog(eng, variant);
    variant.wall_s += std::chrono::duration<double>(steady_clock::now() - start).count();
    variant.cpu_s += mcp_bench_cpu_s() - cpu_before;
    variant.calls += static_cast<std::int64_t>(plan.dialogs) * (rounds - 1);
  }
  for (auto& variant : variants) {
    std::shared_ptr<tools::tool> mcp_tool;
    tools::tool* tool = nullptr;
    if (variant.server[0] == '\0') {
      tool = builtin.find(variant.tool);
    } else {
      mcp_tool = eng.mcp().find_tool({variant.server}, variant.tool);
      tool = mcp_tool.get();
    }
    if (tool == nullptr) {
      ++variant.failures;
      continue;
    }
    co_await invoke_tool(*tool, variant, plan.invokes);
    if (std::string_view(variant.name) == "stdio") measure_stdio_floor(floor, plan.invokes, floor_figures);
  }
}

asio::awaitable<void> run_mcp_bench_loop(engine::engine& eng, std::vector<mcp_bench_variant>& variants,
                                         const mcp_bench_plan& plan, int rounds, stdio_floor& floor,
                                         mcp_floor_figures& floor_figures) {
  tools::tool_registry builtin = engine::build_builtin_tools();
  // Warm-up, not counted: each member's first dialog starts its server and lists its tools.
  std::vector<mcp_bench_variant> warm = variants;
  for (auto& variant : warm) co_await run_one_dialog(eng, variant);
  for (std::size_t i = 0; i < variants.size(); ++i) variants[i].failures += warm[i].failures;
  for (int repeat = 0; repeat < plan.repeats; ++repeat)
    co_await run_mcp_repeat(eng, builtin, variants, plan, rounds, floor, floor_figures);
  eng.stop_mcp();  // the servers' streams keep the loop running otherwise
}

double per_call_us(double seconds, std::int64_t calls) { return calls > 0 ? seconds * 1e6 / double(calls) : 0; }
double over(double a, double b) { return b > 0 ? a / b : 0; }

// The floor and Parley's share of a stdio call: the call less the floor, to the built-in call.
void add_stdio_floor_figures(boost::json::object& out, const std::vector<mcp_bench_variant>& variants,
                             const mcp_floor_figures& floor) {
  const auto stdio = std::find_if(variants.begin(), variants.end(),
                                  [](const mcp_bench_variant& v) { return std::string_view(v.name) == "stdio"; });
  if (stdio == variants.end() || floor.round_trips == 0) return;
  const double floor_us = per_call_us(floor.cpu_s, floor.round_trips);
  std::printf("floor    bare pipe round trip to the same server: %7.1f us CPU/call\n", floor_us);
  out["stdio_floor_cpu_us_per_round_trip"] = floor_us;
  if (std::string_view(variants[0].name) != "builtin") return;
  const double builtin_us = per_call_us(variants[0].cpu_s, variants[0].calls);
  out["stdio_less_floor_to_builtin_cpu_ratio"] = over(per_call_us(stdio->cpu_s, stdio->calls) - floor_us, builtin_us);
}

boost::json::object mcp_bench_figures(const std::vector<mcp_bench_variant>& variants, const mcp_bench_plan& plan,
                                      int rounds, const mcp_floor_figures& floor) {
  boost::json::object out{{"bench", "mcp"},
                          {"dialogs", plan.dialogs},
                          {"rounds_per_dialog", rounds},
                          {"repeats", plan.repeats},
                          {"invokes", plan.invokes},
                          {"store", "memory"},
                          {"http_server", "parley-bench mcp-echo-server --http (child process)"},
                          {"stdio_server", "parley-bench mcp-echo-server (child process)"}};
  std::int64_t failures = 0;
  for (const auto& v : variants) {
    const std::string name = v.name;
    const double cpu_us = per_call_us(v.cpu_s, v.calls);
    const double invoke_cpu_us = per_call_us(v.invoke_cpu_s, v.invokes);
    std::printf("%-8s %8.0f calls/s %7.1f us CPU/call (loop) | tool alone: %8.0f calls/s %7.1f us CPU/call\n", v.name,
                over(double(v.calls), v.wall_s), cpu_us, over(double(v.invokes), v.invoke_wall_s), invoke_cpu_us);
    out[name + "_calls"] = v.calls;
    out[name + "_calls_per_s"] = over(double(v.calls), v.wall_s);
    out[name + "_cpu_us_per_call"] = cpu_us;
    out[name + "_invoke_calls_per_s"] = over(double(v.invokes), v.invoke_wall_s);
    out[name + "_invoke_cpu_us_per_call"] = invoke_cpu_us;
    failures += v.failures;
  }
  const auto& builtin = variants[0];
  for (std::size_t i = std::string_view(builtin.name) == "builtin" ? 1 : variants.size(); i < variants.size(); ++i) {
    const auto& v = variants[i];
    const std::string name = v.name;
    out[name + "_to_builtin_cpu_ratio"] =
        over(per_call_us(v.cpu_s, v.calls), per_call_us(builtin.cpu_s, builtin.calls));
    out[name + "_to_builtin_invoke_cpu_ratio"] =
        over(per_call_us(v.invoke_cpu_s, v.invokes), per_call_us(builtin.invoke_cpu_s, builtin.invokes));
  }
  add_stdio_floor_figures(out, variants, floor);
  out["failures"] = failures + floor.failures;
  return out;
}

// `--cpu N` keeps this process, and so the servers it starts, on one CPU. On a VM a call that wakes
// a process sleeping on the other vCPU pays an inter-processor interrupt through the hypervisor on
// each side (about 10 us of this process's CPU per round trip on the 2-core VM, bench/README.md
// "MCP calls"); on one CPU every wake-up is a local switch, so what is left is Parley's own work.
// Both variants are measured in the same placement, so the ratio compares like with like.
bool pin_to_cpu(int cpu) {
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  return ::sched_setaffinity(0, sizeof one, &one) == 0;
}

}  // namespace

int run_mcp_bench(const bench_args& args) {
  const int cpu = args.int_or("cpu", -1);
  if (cpu >= CPU_SETSIZE || (cpu >= 0 && !pin_to_cpu(cpu))) {
    std::fprintf(stderr, "parley-bench mcp: --cpu %d: not a CPU this process may run on\n", cpu);
    return 2;
  }
  const mcp_bench_plan plan{args.int_or("dialogs", 100), args.int_or("repeats", 3), args.int_or("invokes", 2000)};
  const int rounds = args.int_or("rounds", 11);
  if (plan.dialogs < 1 || plan.repeats < 1 || plan.invokes < 1 || rounds < 2) {
    std::fprintf(stderr, "parley-bench mcp: --dialogs, --repeats and --invokes need at least 1, --rounds 2\n");
    return 2;
  }
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  const echo_http_child http_server(exe, "http_echo");
  if (ec || http_server.port() <= 0) {
    std::fprintf(stderr, "parley-bench mcp: the HTTP echo server did not start\n");
    return 1;
  }
  std::vector<mcp_bench_variant> variants{{"builtin", "calculate", R"({"expression": "1 + 1"})", ""},
                                          {"stdio", "stdio_echo", R"({"text": "1 + 1"})", "echo_stdio"},
                                          {"http", "http_echo", R"({"text": "1 + 1"})", "echo_http"}};
  const fs::path dir = fs::temp_directory_path() / ("parley-bench-mcp-" + std::to_string(::getpid()));
  write_mcp_bench_team(dir, exe, http_server.port(), rounds, variants);
  // --only NAME: one variant (for a profiler); the ratios need the built-in one.
  const std::string only = args.string_or("only", "");
  std::erase_if(variants, [&](const mcp_bench_variant& v) { return !only.empty() && only != v.name; });
  if (variants.empty()) {
    std::fprintf(stderr, "parley-bench mcp: --only takes builtin, stdio or http\n");
    return 2;
  }
  auto team = config::load_team_file(dir / "team.yaml");
  if (!team) {
    std::fprintf(stderr, "parley-bench mcp: %s\n", team.err().message.c_str());
    fs::remove_all(dir, ec);
    return 1;
  }
  auto log = make_memory_store();
  asio::io_context io(1);
  auto providers = engine::build_providers(*team);
  auto eng = providers ? engine::engine::create(io.get_executor(), *log, *team, std::move(*providers),
                                                engine::build_builtin_tools())
                       : std::move(providers).err();
  if (!eng) {
    std::fprintf(stderr, "parley-bench mcp: %s\n", eng.err().message.c_str());
    fs::remove_all(dir, ec);
    return 1;
  }
  stdio_floor floor(exe, "stdio_echo");
  mcp_floor_figures floor_figures;
  if (!floor.ok()) ++floor_figures.failures;
  asio::co_spawn(io, run_mcp_bench_loop(**eng, variants, plan, rounds, floor, floor_figures), asio::detached);
  io.run();
  fs::remove_all(dir, ec);
  boost::json::object out = mcp_bench_figures(variants, plan, rounds, floor_figures);
  out["cpu_placement"] = cpu >= 0 ? "one cpu (--cpu " + std::to_string(cpu) + ")" : "any";
  print_json_line(out);
  return out.at("failures").as_int64() == 0 ? 0 : 1;
}

}  // namespace parley::bench
