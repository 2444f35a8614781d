// parley-bench history: a server on a big history. Builds once (cached under the temp dir, keyed by
// its parameters and the schema version) a store of --dialogs N dialogs shaped like fanout-3 tasks
// (a root with a title and a human's message, three Type B subdialogs, each with a Tellask and an
// answer; some roots completed; each root's human one of eight users), then starts the real
// `parley serve` on it and reports:
// - start-up: from exec to the first answered `GET /api/dialogs`, and the server's RSS then;
// - p50/p99 of `GET /api/dialogs` per filter (none, status, member, `q` rare and common), paging
//   deep by cursor and by offset, the records routes and `/api/messages/search`, measured at the
//   client over one keep-alive connection;
// - bytes per task (the store's files over the tasks);
// - the baseline of the same run: the listing as it was answered before schema version 8 (every
//   root read and filtered in C++, `q` reading each root's messages: store/root_listing.hpp's
//   scan_roots), timed in this process on the same store, and the ratio.
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <boost/json/parse.hpp>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "bench_verbs.hpp"
#include "parley/model/event_codec.hpp"
#include "parley/store/sqlite/schema.hpp"
#include "parley/store/store.hpp"
#include "percentile.hpp"
#include "spawn_serve.hpp"

extern char** environ;

namespace parley::bench {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
namespace fs = std::filesystem;
using steady = std::chrono::steady_clock;

constexpr std::int64_t kHistoryStartMs = 1'750'000'000'000;
constexpr int kDialogsPerTask = 4;
constexpr int kUsers = 8;
constexpr const char* kToken = "history-bench-token-0123456789ab";
// A word in one task's title in ten thousand, and one in every title: a selective and a broad `q`.
constexpr const char* kRareWord = "zebrafinch";
constexpr const char* kCommonWord = "quarterly";

struct task_ids {
  std::string root;
  std::int64_t root_seq = 0;
};

event make(const std::string& id, const std::string& root, std::int64_t seq, std::string_view type,
           boost::json::object payload, std::int64_t ts) {
  event ev;
  ev.dialog_id = id;
  ev.root_id = root;
  ev.seq = seq;
  // Written as the wire shape (what a store of this size holds), decoded by the log's own codec.
  auto typed = decode_payload(type, payload);
  if (!typed) {
    std::fprintf(stderr, "history bench: a %s it made does not decode: %s\n", std::string(type).c_str(),
                 typed.err().message.c_str());
    std::abort();
  }
  ev.payload = std::move(*typed);
  ev.ts_ms = ts;
  return ev;
}

boost::json::object answer(std::int64_t genseq, const std::string& saying) {
  return {{"course", 1},
          {"genseq", genseq},
          {"thinking", ""},
          {"saying", saying},
          {"toolCalls", boost::json::array{}},
          {"finishReason", "stop"},
          {"usage", boost::json::object{{"inputTokens", 10}, {"outputTokens", 20}}},
          {"interrupted", false}};
}

// One fanout-3-shaped task: 4 dialogs, 12 events.
std::vector<event> task_events(int task, std::mt19937_64& rng) {
  char id[32];
  std::snprintf(id, sizeof id, "t%09d", task);  // time-ordered, as the engine's ids are
  const std::string root = id;
  const std::int64_t ts = kHistoryStartMs + std::int64_t{task} * 1000;
  std::string title = std::string(kCommonWord) + " task " + std::to_string(task);
  if (task % 10'000 == 7) title += std::string(" ") + kRareWord;
  const std::string human = "u" + std::to_string(task % kUsers);
  std::vector<event> out;
  out.push_back(make(root, root, 1, event_type::dialog_created,
                     {{"memberId", task % 5 == 0 ? "clerk" : "lead"},
                      {"kind", "root"},
                      {"depth", 0},
                      {"title", title},
                      {"humans", boost::json::array{human.c_str()}}},
                     ts));
  out.push_back(make(
      root, root, 2, event_type::user_message,
      {{"course", 1},
       {"content", "please split task " + std::to_string(task) + " into three parts " + std::to_string(rng() % 100000)},
       {"msgId", "m" + root},
       {"origin", "user"},
       {"from", human}},
      ts + 1));
  for (int part = 0; part < 3; ++part) {
    const std::string sub = root + "-s" + std::to_string(part);
    out.push_back(make(sub, root, 1, event_type::dialog_created,
                       {{"memberId", "worker"}, {"kind", "sub"}, {"depth", 1}, {"parentId", root}}, ts + 2));
    out.push_back(
        make(sub, root, 2, event_type::user_message,
             {{"course", 1}, {"content", "part " + std::to_string(part)}, {"msgId", "m" + sub}, {"origin", "tellask"}},
             ts + 3));
    out.push_back(
        make(sub, root, 3, event_type::generation_finished, answer(1, "done " + std::to_string(part)), ts + 4));
  }
  out.push_back(make(root, root, 3, event_type::generation_finished, answer(1, "all three parts done"), ts + 5));
  if (task % 3 == 0) out.push_back(make(root, root, 4, event_type::status_changed, {{"status", "completed"}}, ts + 6));
  return out;
}

result<void> build_store(const fs::path& data, int tasks) {
  sqlite_options fast;
  fast.durable = false;  // a throwaway build; the server opens it durable
  auto opened = open_sqlite_store(data.string(), fast);
  if (!opened) return std::move(opened).err();
  std::mt19937_64 rng(25);
  auto failed = std::make_shared<std::string>();
  std::vector<event> batch;
  for (int task = 0; task < tasks; ++task) {
    auto events = task_events(task, rng);
    std::move(events.begin(), events.end(), std::back_inserter(batch));
    if (batch.size() >= 2000 || task + 1 == tasks) {
      (*opened)->append(std::move(batch), [failed](result<void> done) {
        if (!done && failed->empty()) *failed = done.err().message;
      });
      batch = {};
    }
    if ((task + 1) % 50'000 == 0) std::printf("history: built %d of %d tasks\n", task + 1, tasks);
  }
  (*opened)->flush();
  if (!failed->empty()) return make_error(errc::internal, "building the store: " + *failed);
  return ok();
}

void write_team(const fs::path& dir) {
  fs::create_directories(dir / "workspace");
  std::ofstream(dir / "team.yaml") << "version: 1\nworkspace: workspace\n"
                                      "providers:\n  offline: {kind: scripted, script: script.yaml}\n"
                                      "members:\n"
                                      "  lead: {persona: \"You lead.\", provider: offline, model: scripted}\n"
                                      "  clerk: {persona: \"You file.\", provider: offline, model: scripted}\n"
                                      "  worker: {persona: \"You work.\", provider: offline, model: scripted}\n";
  std::ofstream(dir / "script.yaml") << "members:\n  lead:\n    - emit: [{saying: \"ok\"}]\n";
}

unsigned short free_port() {
  asio::io_context io;
  asio::ip::tcp::acceptor acceptor(io, {asio::ip::make_address("127.0.0.1"), 0});
  return acceptor.local_endpoint().port();
}

std::int64_t rss_kb(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stoll(line.substr(6));
  }
  return 0;
}

class client {
 public:
  explicit client(unsigned short port) : socket_(io_) { socket_.connect({asio::ip::make_address("127.0.0.1"), port}); }
  boost::json::value get(const std::string& target, std::vector<double>* latencies_us, int& failures) {
    bhttp::request<bhttp::empty_body> req{bhttp::verb::get, target, 11};
    req.set(bhttp::field::host, "127.0.0.1");
    req.set(bhttp::field::authorization, std::string("Bearer ") + kToken);
    const auto start = steady::now();
    bhttp::write(socket_, req);
    bhttp::response<bhttp::string_body> res;
    bhttp::read(socket_, buffer_, res);
    if (latencies_us != nullptr) {
      latencies_us->push_back(std::chrono::duration<double, std::micro>(steady::now() - start).count());
    }
    if (res.result_int() != 200) {
      if (failures++ == 0)
        std::fprintf(stderr, "history: %s -> %u %s\n", target.c_str(), res.result_int(), res.body().c_str());
      return nullptr;
    }
    return boost::json::parse(res.body());
  }

 private:
  asio::io_context io_;
  asio::ip::tcp::socket socket_;
  beast::flat_buffer buffer_;
};

struct route {
  std::string key;
  std::vector<double> us;
};

std::vector<double>& route_named(std::vector<route>& routes, const std::string& key) {
  for (auto& r : routes) {
    if (r.key == key) return r.us;
  }
  routes.push_back({key, {}});
  return routes.back().us;
}

std::string string_at(const boost::json::value& v, const char* key) {
  if (!v.is_object()) return {};
  const auto* found = v.as_object().if_contains(key);
  return found != nullptr && found->is_string() ? std::string(found->as_string()) : std::string{};
}

int measure(unsigned short port, int tasks, int queries, std::vector<route>& routes) {
  client http(port);
  int failures = 0;
  std::mt19937_64 rng(3);
  for (int i = 0; i < queries; ++i) {
    http.get("/api/dialogs?limit=50", &route_named(routes, "dialogs_first_page"), failures);
    http.get("/api/dialogs?limit=50&status=completed", &route_named(routes, "dialogs_status"), failures);
    http.get("/api/dialogs?limit=50&member=clerk", &route_named(routes, "dialogs_member"), failures);
    http.get(std::string("/api/dialogs?limit=50&q=") + kRareWord, &route_named(routes, "dialogs_q_rare"), failures);
    http.get(std::string("/api/dialogs?limit=50&q=") + kCommonWord, &route_named(routes, "dialogs_q_common"), failures);
    http.get("/api/dialogs?limit=50&offset=" + std::to_string(tasks * 9 / 10),
             &route_named(routes, "dialogs_offset_deep"), failures);
    const int task = static_cast<int>(rng() % static_cast<std::uint64_t>(tasks));
    char id[32];
    std::snprintf(id, sizeof id, "t%09d", task);
    const auto dialogue =
        http.get(std::string("/api/dialogues/") + id, &route_named(routes, "records_dialogue"), failures);
    const std::string dialogue_id = dialogue.is_object() && dialogue.as_object().contains("dialogue")
                                        ? string_at(dialogue.at("dialogue"), "id")
                                        : std::string{};
    http.get("/api/dialogues/" + dialogue_id + "/sessions", &route_named(routes, "records_sessions"), failures);
    http.get("/api/dialogues/" + dialogue_id + "/unresponded_turns", &route_named(routes, "records_unresponded"),
             failures);
    http.get("/api/messages/search?q=split+task+" + std::to_string(task) + "&limit=20",
             &route_named(routes, "messages_search"), failures);
  }
  // Deep paging by cursor: every page of the first 200 (10,000 roots deep), each timed.
  std::string cursor;
  for (int page = 0; page < 200; ++page) {
    const auto body = http.get("/api/dialogs?limit=50" + (cursor.empty() ? "" : "&cursor=" + cursor),
                               &route_named(routes, "dialogs_cursor_pages"), failures);
    cursor = string_at(body, "nextCursor");
    if (cursor.empty()) break;
  }
  return failures;
}

// The listing as answered before schema version 8, in this process on the same store.
double baseline_ms(store& log, const root_listing& listing, int repeats) {
  std::vector<double> ms;
  for (int i = 0; i < repeats; ++i) {
    const auto start = steady::now();
    (void)scan_roots(log, listing);
    ms.push_back(std::chrono::duration<double, std::milli>(steady::now() - start).count());
  }
  return percentile(ms, 0.5);
}

fs::path parley_binary() {
  std::error_code ec;
  const auto self = fs::read_symlink("/proc/self/exe", ec);
  return self.parent_path().parent_path() / "apps" / "parley" / "parley";
}

}  // namespace

int run_history_bench(const bench_args& args) {
  const int dialogs = args.int_or("dialogs", 100'000);
  const int queries = args.int_or("queries", 100);
  if (dialogs < kDialogsPerTask || queries <= 0) {
    std::fprintf(stderr, "parley-bench history: needs --dialogs >= 4 and --queries > 0\n");
    return 2;
  }
  const int tasks = dialogs / kDialogsPerTask;
  const fs::path dir =
      fs::path(args.string_or("cache", (fs::temp_directory_path() / "parley-bench-history").string())) /
      ("d" + std::to_string(dialogs) + "-schema" + std::to_string(sqlite::latest_schema_version()));
  const fs::path data = dir / "data";
  if (!fs::exists(dir / "built")) {
    std::error_code ec;
    fs::remove_all(dir, ec);
    const auto start = steady::now();
    if (auto built = build_store(data, tasks); !built) {
      std::fprintf(stderr, "parley-bench history: %s\n", built.err().message.c_str());
      return 1;
    }
    write_team(dir);
    std::ofstream(dir / "built") << "ok\n";
    std::printf("history: built %d dialogs in %.1f s (cached in %s)\n", tasks * kDialogsPerTask,
                std::chrono::duration<double>(steady::now() - start).count(), dir.string().c_str());
  } else {
    std::printf("history: reusing the store in %s\n", dir.string().c_str());
  }
  std::int64_t store_bytes = 0;
  for (const auto& entry : fs::directory_iterator(data)) {
    if (entry.is_regular_file() && entry.path().filename().string().rfind("parley.db", 0) == 0) {
      store_bytes += static_cast<std::int64_t>(entry.file_size());
    }
  }

  const unsigned short port = free_port();
  // --parley PATH serves the store with another build (a copy of the store migrated down to its
  // schema), for figures before and after a change on one machine.
  const std::string binary = args.string_or("parley", parley_binary().string());
  const auto spawned_at = steady::now();
  const pid_t pid = spawn_serve(binary, {"--team", (dir / "team.yaml").string(), "--data", data.string(), "--port",
                                         std::to_string(port), "--token", kToken});
  if (pid == 0) {
    std::fprintf(stderr, "parley-bench history: cannot start %s\n", binary.c_str());
    return 1;
  }
  // Start-up: until the first listing is answered (recover_all has run by then).
  std::unique_ptr<client> http;
  int failures = 0;
  for (int tries = 0; tries < 6000 && !http; ++tries) {
    try {
      auto attempt = std::make_unique<client>(port);
      if (!attempt->get("/api/dialogs?limit=50", nullptr, failures).is_null()) http = std::move(attempt);
    } catch (const std::exception&) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  const double startup_ms = std::chrono::duration<double, std::milli>(steady::now() - spawned_at).count();
  const std::int64_t startup_rss_kb = rss_kb(pid);
  std::vector<route> routes;
  if (http) failures += measure(port, tasks, queries, routes);
  const std::int64_t rss_after_kb = rss_kb(pid);
  ::kill(pid, SIGTERM);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (!http) {
    std::fprintf(stderr, "parley-bench history: the server did not answer\n");
    return 1;
  }

  // The baseline, on the same store, with the server stopped.
  auto opened = open_sqlite_store(data.string());
  if (!opened) {
    std::fprintf(stderr, "parley-bench history: %s\n", opened.err().message.c_str());
    return 1;
  }
  const double scan_first_ms = baseline_ms(**opened, {.limit = 50}, 3);
  const double scan_q_ms = baseline_ms(**opened, {.text = kRareWord, .limit = 50}, 1);
  opened->reset();

  std::printf("history: %d dialogs (%d tasks): ready in %.0f ms, RSS %.1f MB after start, %.1f MB after the queries\n",
              tasks * kDialogsPerTask, tasks, startup_ms, startup_rss_kb / 1024.0, rss_after_kb / 1024.0);
  std::printf("history: store %.1f MB, %.0f bytes per task\n", store_bytes / 1048576.0,
              static_cast<double>(store_bytes) / tasks);
  boost::json::object out{{"bench", "history"},
                          {"dialogs", tasks * kDialogsPerTask},
                          {"tasks", tasks},
                          {"queries_per_route", queries},
                          {"startup_ms", startup_ms},
                          {"rss_after_start_mb", startup_rss_kb / 1024.0},
                          {"rss_after_queries_mb", rss_after_kb / 1024.0},
                          {"store_mb", store_bytes / 1048576.0},
                          {"bytes_per_task", static_cast<double>(store_bytes) / tasks},
                          {"failed_requests", failures}};
  double first_p50_ms = 0;
  double q_rare_p50_ms = 0;
  for (const auto& r : routes) {
    const double p50 = percentile(r.us, 0.5) / 1000.0;
    const double p99 = percentile(r.us, 0.99) / 1000.0;
    std::printf("  %-28s p50 %8.2f ms   p99 %8.2f ms\n", r.key.c_str(), p50, p99);
    out[r.key + "_p50_ms"] = p50;
    out[r.key + "_p99_ms"] = p99;
    if (r.key == "dialogs_first_page") first_p50_ms = p50;
    if (r.key == "dialogs_q_rare") q_rare_p50_ms = p50;
  }
  std::printf("  baseline (every root read, filtered in C++): first page %.1f ms, q %.1f ms\n", scan_first_ms,
              scan_q_ms);
  out["baseline_scan_first_page_ms"] = scan_first_ms;
  out["baseline_scan_q_ms"] = scan_q_ms;
  out["first_page_speedup_vs_scan"] = first_p50_ms > 0 ? scan_first_ms / first_p50_ms : 0.0;
  out["q_speedup_vs_scan"] = q_rare_p50_ms > 0 ? scan_q_ms / q_rare_p50_ms : 0.0;
  print_json_line(out);
  return failures == 0 ? 0 : 1;
}

}  // namespace parley::bench
