// parley-bench VERB [--key value ...]
#include <boost/json/serialize.hpp>

#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

#include "bench_verbs.hpp"

namespace parley::bench {

void print_json_line(const boost::json::object& figures) {
  std::printf("%s\n", boost::json::serialize(figures).c_str());
}

}  // namespace parley::bench

namespace {

constexpr const char* kUsage =
    "usage: parley-bench engine [--dialogs N] [--rounds K] [--store LIST]\n"
    "                           (LIST: memory, sqlite, postgresql, postgresql://URL, comma-separated; default\n"
    "                           memory,sqlite; postgresql alone starts a throwaway cluster, a URL comes last)\n"
    "       parley-bench tree [--roots N] [--in-flight K]\n"
    "       parley-bench fanout3 [--n N] [--concurrency C] [--stream 0|1] [--warmup W] [--sync full|normal|memory]\n"
    "                            [--dialog-tools used|all]  (all: every member offered every dialog tool)\n"
    "                            [--keep 1]  (leave the team and its store in the temp dir)\n"
    "                            [--projection-lag-ms L]  (the SQLite store's projection lag, default 50)\n"
    "                            [--mock URL]   (no --concurrency/--stream: the matrix c=1,32 x JSON,SSE)\n"
    "                            [--store LIST]  (as engine's, default sqlite: e.g. sqlite,postgresql)\n"
    "       parley-bench floor-cpp [--n N] [--concurrency C] [--stream 0|1] [--warmup W] [--mock URL]\n"
    "       parley-bench sse [--mb M] [--rounds R]\n"
    "       parley-bench ws [--subscribers N] [--dialogs D] [--chunks C]\n"
    "       parley-bench records [--messages M] [--dialogues D] [--queries Q]\n"
    "       parley-bench tot24 [--first 901] [--last 1000] [--seed S] [--parallel P] [--real 1 --model M]\n"
    "       parley-bench flow [--flows N] [--in-flight K]\n"
    "       parley-bench eval [--cases 1000] [--concurrency 8] [--store sqlite|memory]  (parley eval of N cases\n"
    "                         against the scripted model: cases/s, peak RSS)\n"
    "       parley-bench tools [--spawns N] [--patches P] [--lines L]\n"
    "       parley-bench history [--dialogs N] [--queries Q] [--cache DIR] [--parley PATH]\n"
    "                            (the store is built once per N and schema, then reused)\n"
    "       parley-bench fork [--events 1000,10000,100000]  (fork a tree at its middle: time and bytes added)\n"
    "       parley-bench soak [--tasks N] [--concurrency C] [--stream 0|1] [--sample-every S] [--sync full|normal]\n"
    "                         [--loaded-dialogs L] [--keep 1] [--mock URL]  (fanout-3 for N tasks, RSS every S)\n"
    "       parley-bench chat [--clients N] [--requests R] [--stream 0|1] [--repeats K] [--parley PATH]\n"
    "                         (the OpenAI-compatible endpoint against the REST API, on the real parley serve)\n"
    "       parley-bench failover [--nodes 3] [--dialogs 300] [--cycles N] [--store postgresql[://URL]]\n"
    "                             [--pause-seconds 7] [--vacuum-hold-seconds S] [--keep 1] [--parley PATH]\n"
    "                             (nodes on one PostgreSQL killed and paused under load; see bench/README.md)\n"
    "       parley-bench import [--dialogs N] [--cached-dialogs C] [--serving-caches 1]  (parley import of a\n"
    "                           generated Dominds .dialogs folder of N dialogs into a SQLite store opened as\n"
    "                           parley import opens it, caching C dialogs; --serving-caches 1: a server's caches)\n"
    "       parley-bench mcp [--dialogs 100] [--rounds 11] [--repeats 3] [--invokes 2000]\n"
    "                        [--only builtin|stdio|http]\n"
    "                        (an MCP tool over stdio and HTTP beside a built-in tool: calls/s, CPU per call)\n";

int dispatch(const std::string& verb, const parley::bench::bench_args& args) {
  using namespace parley::bench;
  if (verb == "engine") return run_engine_bench(args);
  if (verb == "tree") return run_tree_bench(args);
  if (verb == "fanout3") return run_fanout3_bench(args);
  if (verb == "floor-cpp") return run_floor_cpp_bench(args);
  if (verb == "sse") return run_sse_bench(args);
  if (verb == "ws") return run_ws_bench(args);
  if (verb == "records") return run_records_bench(args);
  if (verb == "tot24") return run_tot24_bench(args);
  if (verb == "flow") return run_flow_bench(args);
  if (verb == "eval") return run_eval_bench(args);
  if (verb == "tools") return run_tools_bench(args);
  if (verb == "history") return run_history_bench(args);
  if (verb == "fork") return run_fork_bench(args);
  if (verb == "soak") return run_soak_bench(args);
  if (verb == "chat") return run_chat_bench(args);
  if (verb == "failover") return run_failover_bench(args);
  if (verb == "import") return run_import_bench(args);
  if (verb == "mcp") return run_mcp_bench(args);
  if (verb == "mcp-echo-server") return run_mcp_echo_server(args);
  std::fprintf(stderr, "parley-bench: unknown benchmark '%s'\n%s", verb.c_str(), kUsage);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  parley::bench::bench_args args;
  for (int i = 2; i < argc; i += 2) {
    if (std::strncmp(argv[i], "--", 2) != 0 || i + 1 >= argc) {
      std::fprintf(stderr, "parley-bench: expected --key value, got '%s'\n", argv[i]);
      return 2;
    }
    args.values[argv[i] + 2] = argv[i + 1];
  }
  try {
    return dispatch(argv[1], args);
  } catch (const std::invalid_argument& bad) {  // a malformed --key value, from bench_args::int_or
    std::fprintf(stderr, "parley-bench: %s\n", bad.what());
    return 2;
  }
}
