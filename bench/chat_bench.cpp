// parley-bench chat: the OpenAI-compatible endpoint against the REST API it is built on (issue 40).
// Starts the real `parley serve` in a child process on a throwaway team (a scripted member whose
// answer streams in a few chunks; durable store in a temp dir), then N client threads, each on its
// own keep-alive connection, ask R questions each:
// - `openai_json`: POST /v1/chat/completions, the answer in the response;
// - `openai_sse`: the same with "stream": true, read to `data: [DONE]`;
// - `rest`: POST /api/dialogs, then GET /api/dialogs/{id} (the summary: the cheapest read that tells
//   whether the tree is at rest — no drive running or queued, no subdialog awaited) right away and
//   every millisecond after until it is, then one GET …/transcript for the answer (what a REST
//   client without a WebSocket does; see chat_client.hpp).
// Every answer is checked against the script's. The variants run `--repeats` times, interleaved
// (the order rotates each round) after one warm-up round; medians are kept of requests/s, p50/p99
// latency per request (at the client) and the server's CPU per request: utime + stime of the child
// from /proc/PID/stat before and after each run (its trailing work included: 300 ms after the last
// answer), so the clients' CPU is not counted.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <latch>
#include <mutex>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bench_verbs.hpp"
#include "chat_client.hpp"
#include "cli_loop.hpp"
#include "percentile.hpp"
#include "spawn_serve.hpp"

extern char** environ;

namespace parley::bench {
// A named namespace, not an anonymous one: the bench's files are compiled in unity batches, where
// file-local names must differ (cmake/unity_build.cmake).
namespace chat_detail {

namespace fs = std::filesystem;
using steady = std::chrono::steady_clock;

constexpr const char* kToken = "chat-bench-token-0123456789abcdef";
constexpr const char* kAnswer = "Forty-two: the answer, streamed to you in a few small chunks.";
constexpr int kChunkChars = 12;  // six chunks of the answer
constexpr std::chrono::milliseconds kSettle{300};

struct chat_options {
  int clients = 8;
  int requests = 200;
  int repeats = 3;
  std::vector<std::string> variants;  // openai_json, openai_sse, rest
  fs::path parley;
};

struct run_figures {
  double rps = 0;
  double p50_us = 0;
  double p99_us = 0;
  double cpu_us_per_request = 0;
  double polls_per_request = 0;
  int failed = 0;
};

void write_chat_team(const fs::path& dir) {
  fs::create_directories(dir / "workspace");
  std::ofstream(dir / "team.yaml")
      << "version: 1\n"
         "default_member: lead\n"
         "workspace: workspace\n"
         "providers:\n  offline: {kind: scripted, script: script.yaml}\n"
         "members:\n"
         "  lead: {name: Lead, persona: \"You lead.\", provider: offline, model: scripted}\n"
         "  clerk: {name: Clerk, persona: \"You file.\", provider: offline, model: scripted}\n";
  std::ofstream(dir / "script.yaml") << "chunk_size: " << kChunkChars
                                     << "\nmembers:\n  \"*\":\n    - emit: [{saying: \"" << kAnswer << "\"}]\n";
}

unsigned short free_port() {
  boost::asio::io_context io;
  boost::asio::ip::tcp::acceptor acceptor(io, {boost::asio::ip::make_address("127.0.0.1"), 0});
  return acceptor.local_endpoint().port();
}

// utime + stime of a process, in clock ticks (fields 14 and 15 of /proc/PID/stat).
long long cpu_ticks(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  const std::string line((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const auto close = line.rfind(')');
  if (close == std::string::npos) return 0;
  std::istringstream fields(line.substr(close + 2));  // from field 3, the state
  std::string skipped;
  for (int i = 3; i < 14; ++i) fields >> skipped;
  long long utime = 0;
  long long stime = 0;
  fields >> utime >> stime;
  return utime + stime;
}

pid_t start_server(const fs::path& parley, const fs::path& dir, unsigned short port) {
  return spawn_serve(parley,
                     {"--team", (dir / "team.yaml").string(), "--data", (dir / "data").string(), "--port",
                      std::to_string(port), "--token", kToken},
                     dir / "serve.log");
}

// Until one chat completion is answered as the script says (at most 20 s).
bool wait_until_ready(const chat_server& server, std::string& error) {
  for (int tries = 0; tries < 2000; ++tries) {
    try {
      chat_client probe(server);
      return probe.ask_openai(false, "are you there?", error);
    } catch (const std::exception& e) {
      error = e.what();
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  return false;
}

struct client_outcome {
  std::vector<double> latencies_us;
  long long polls = 0;
  int failed = 0;
};

void drive_client(const chat_server& server, const std::string& variant, int index, int requests, std::latch& start,
                  client_outcome& out, std::string& first_error, std::mutex& error_mutex) {
  std::unique_ptr<chat_client> client;
  std::string error;
  try {
    client = std::make_unique<chat_client>(server);
  } catch (const std::exception& e) {
    error = e.what();
  }
  start.arrive_and_wait();
  for (int i = 0; i < requests && client; ++i) {
    const std::string question = "question " + std::to_string(index) + "." + std::to_string(i);
    const auto begun = steady::now();
    bool ok = false;
    try {
      int polls = 0;
      ok = variant == "rest" ? client->ask_rest(question, polls, error)
                             : client->ask_openai(variant == "openai_sse", question, error);
      out.polls += polls;
    } catch (const std::exception& e) {
      error = e.what();
      client.reset();  // the connection is gone: this client's other requests count as failed
    }
    out.latencies_us.push_back(std::chrono::duration<double, std::micro>(steady::now() - begun).count());
    if (!ok) ++out.failed;
  }
  out.failed += requests - static_cast<int>(out.latencies_us.size());
  if (out.failed > 0) {
    const std::lock_guard lock(error_mutex);
    if (first_error.empty()) first_error = variant + ": " + error;
  }
}

run_figures run_variant(const chat_server& server, pid_t pid, const std::string& variant, int clients, int requests) {
  std::vector<client_outcome> outcomes(static_cast<std::size_t>(clients));
  std::latch start(clients + 1);
  std::string first_error;
  std::mutex error_mutex;
  std::vector<std::thread> threads;
  for (int c = 0; c < clients; ++c) {
    threads.emplace_back(drive_client, std::cref(server), std::cref(variant), c, requests, std::ref(start),
                         std::ref(outcomes[static_cast<std::size_t>(c)]), std::ref(first_error), std::ref(error_mutex));
  }
  const long long ticks_before = cpu_ticks(pid);
  start.arrive_and_wait();
  const auto begun = steady::now();
  for (auto& t : threads) t.join();
  const double seconds = std::chrono::duration<double>(steady::now() - begun).count();
  std::this_thread::sleep_for(kSettle);  // the server's trailing work (the store's writer) is this run's
  const long long ticks = cpu_ticks(pid) - ticks_before;
  run_figures out;
  std::vector<double> all;
  long long polls = 0;
  for (const auto& o : outcomes) {
    all.insert(all.end(), o.latencies_us.begin(), o.latencies_us.end());
    polls += o.polls;
    out.failed += o.failed;
  }
  const double total = static_cast<double>(clients) * requests;
  out.rps = total / seconds;
  out.p50_us = percentile(all, 0.5);
  out.p99_us = percentile(all, 0.99);
  out.cpu_us_per_request = static_cast<double>(ticks) * 1e6 / static_cast<double>(sysconf(_SC_CLK_TCK)) / total;
  out.polls_per_request = static_cast<double>(polls) / total;
  if (!first_error.empty()) std::fprintf(stderr, "chat: %s\n", first_error.c_str());
  return out;
}

// Validated flags; false (after saying which flag is wrong) on a bad one.
bool parse_options(const bench_args& args, chat_options& opts) {
  static const std::set<std::string> known{"clients", "requests", "stream", "repeats", "parley"};
  for (const auto& [key, value] : args.values) {
    if (!known.contains(key)) {
      std::fprintf(stderr,
                   "parley-bench chat: unknown flag --%s (known: --clients --requests --stream --repeats "
                   "--parley)\n",
                   key.c_str());
      return false;
    }
  }
  opts.clients = args.int_or("clients", opts.clients);
  opts.requests = args.int_or("requests", opts.requests);
  opts.repeats = args.int_or("repeats", opts.repeats);
  for (const auto& [key, value] :
       {std::pair{"clients", opts.clients}, std::pair{"requests", opts.requests}, std::pair{"repeats", opts.repeats}}) {
    if (value < 1) {
      std::fprintf(stderr, "parley-bench chat: --%s needs a positive integer, got %d\n", key, value);
      return false;
    }
  }
  const std::string stream = args.string_or("stream", "both");
  if (stream != "0" && stream != "1" && stream != "both") {
    std::fprintf(stderr, "parley-bench chat: --stream expects 0 or 1, got '%s'\n", stream.c_str());
    return false;
  }
  if (stream != "1") opts.variants.emplace_back("openai_json");
  if (stream != "0") opts.variants.emplace_back("openai_sse");
  opts.variants.emplace_back("rest");
  opts.parley = args.values.contains("parley") ? fs::path(args.values.at("parley")) : parley_beside_bench();
  if (!fs::exists(opts.parley)) {
    std::fprintf(stderr, "parley-bench chat: --parley: no parley binary at '%s'\n", opts.parley.c_str());
    return false;
  }
  return true;
}

double median(std::vector<double> values) { return percentile(std::move(values), 0.5); }

run_figures medians(const std::vector<run_figures>& runs) {
  run_figures out;
  const auto of = [&runs](double run_figures::*member) {
    std::vector<double> values;
    for (const auto& r : runs) values.push_back(r.*member);
    return median(values);
  };
  out.rps = of(&run_figures::rps);
  out.p50_us = of(&run_figures::p50_us);
  out.p99_us = of(&run_figures::p99_us);
  out.cpu_us_per_request = of(&run_figures::cpu_us_per_request);
  out.polls_per_request = of(&run_figures::polls_per_request);
  for (const auto& r : runs) out.failed += r.failed;
  return out;
}

// Every variant `repeats` times, the order rotating each round, after one unmeasured warm-up round.
std::vector<std::vector<run_figures>> run_rounds(const chat_server& server, pid_t pid, const chat_options& opts,
                                                 int& warmup_failed) {
  for (const auto& variant : opts.variants) {
    warmup_failed += run_variant(server, pid, variant, opts.clients, std::min(opts.requests, 20)).failed;
  }
  std::vector<std::vector<run_figures>> runs(opts.variants.size());
  for (int round = 0; round < opts.repeats; ++round) {
    for (std::size_t k = 0; k < opts.variants.size(); ++k) {
      const std::size_t v = (k + static_cast<std::size_t>(round)) % opts.variants.size();
      const auto figures = run_variant(server, pid, opts.variants[v], opts.clients, opts.requests);
      std::printf("chat: round %d %-11s %8.0f req/s  p50 %8.0f µs  p99 %8.0f µs  server CPU %6.0f µs/req%s\n",
                  round + 1, opts.variants[v].c_str(), figures.rps, figures.p50_us, figures.p99_us,
                  figures.cpu_us_per_request, figures.failed > 0 ? "  (failures)" : "");
      std::fflush(stdout);
      runs[v].push_back(figures);
    }
  }
  return runs;
}

boost::json::object report(const chat_options& opts, const std::vector<std::vector<run_figures>>& runs) {
  boost::json::object out{
      {"bench", "chat"},
      {"clients", opts.clients},
      {"requests_per_client", opts.requests},
      {"repeats", opts.repeats},
      {"answer_chunks", (static_cast<int>(std::string_view(kAnswer).size()) + kChunkChars - 1) / kChunkChars}};
  std::vector<run_figures> kept;
  int failed = 0;
  for (std::size_t v = 0; v < opts.variants.size(); ++v) {
    const auto m = medians(runs[v]);
    kept.push_back(m);
    const std::string& key = opts.variants[v];
    std::printf("chat: %-11s (medians of %d) %8.0f req/s  p50 %8.0f µs  p99 %8.0f µs  server CPU %6.0f µs/req\n",
                key.c_str(), opts.repeats, m.rps, m.p50_us, m.p99_us, m.cpu_us_per_request);
    out[key + "_rps"] = m.rps;
    out[key + "_p50_us"] = m.p50_us;
    out[key + "_p99_us"] = m.p99_us;
    out[key + "_server_cpu_us_per_request"] = m.cpu_us_per_request;
    failed += m.failed;
  }
  const run_figures& rest = kept.back();
  std::printf("chat: rest polls of the summary per request: %.1f (every %lld µs)\n", rest.polls_per_request,
              static_cast<long long>(kRestPollInterval.count()));
  out["rest_polls_per_request"] = rest.polls_per_request;
  out["rest_poll_interval_us"] = kRestPollInterval.count();
  for (std::size_t v = 0; v + 1 < opts.variants.size(); ++v) {
    const std::string& key = opts.variants[v];
    const double ratio = rest.p50_us > 0 ? kept[v].p50_us / rest.p50_us : 0.0;
    const double cpu_ratio = rest.cpu_us_per_request > 0 ? kept[v].cpu_us_per_request / rest.cpu_us_per_request : 0.0;
    std::printf("chat: %s against rest: p50 %+.0f µs (x%.2f), server CPU per request x%.2f\n", key.c_str(),
                kept[v].p50_us - rest.p50_us, ratio, cpu_ratio);
    out[key + "_added_p50_us"] = kept[v].p50_us - rest.p50_us;
    out[key + "_p50_ratio_to_rest"] = ratio;
    out[key + "_server_cpu_ratio_to_rest"] = cpu_ratio;
  }
  out["failed_requests"] = failed;
  return out;
}

int run(const bench_args& args) {
  chat_options opts;
  if (!parse_options(args, opts)) return 2;
  std::random_device device;
  const fs::path dir = fs::temp_directory_path() / ("parley-chat-bench-" + std::to_string(device()));
  write_chat_team(dir);
  const chat_server server{free_port(), kToken, "lead", kAnswer};
  const pid_t pid = start_server(opts.parley, dir, server.port);
  if (pid == 0) {
    std::fprintf(stderr, "parley-bench chat: cannot start %s\n", opts.parley.c_str());
    return 1;
  }
  std::string error;
  const bool ready = wait_until_ready(server, error);
  std::vector<std::vector<run_figures>> runs;
  int warmup_failed = 0;
  if (ready) {
    std::printf("chat: parley serve (pid %d) on port %u, %d clients x %d requests, %d repeats\n", static_cast<int>(pid),
                server.port, opts.clients, opts.requests, opts.repeats);
    runs = run_rounds(server, pid, opts, warmup_failed);
  }
  ::kill(pid, SIGTERM);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (!ready) {
    std::fprintf(stderr, "parley-bench chat: the server did not answer (%s); its log: %s\n", error.c_str(),
                 (dir / "serve.log").c_str());
    return 1;
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
  auto out = report(opts, runs);
  out["failed_requests"] = out.at("failed_requests").as_int64() + warmup_failed;
  print_json_line(out);
  return out.at("failed_requests").as_int64() == 0 ? 0 : 1;
}

}  // namespace chat_detail

int run_chat_bench(const bench_args& args) { return chat_detail::run(args); }

}  // namespace parley::bench
