// parley-bench failover (issue 38): N `parley serve` nodes on one PostgreSQL store, a scripted team
// whose trees (a root, a worker's subdialog, sometimes a question for the human) keep rounds going,
// and nodes taken away under them.
//
// 1. Throughput with 1, 2, then N nodes: `--dialogs` roots (no questions) created round robin on
//    the nodes running, completed roots per second from the first create to the last answer. In the
//    N-node round, a WebSocket on node i+1 subscribes to each root created on node i: the delay from
//    an event's commit to its packet on the other node (cross_node_*).
// 2. `--cycles` cycles: `--dialogs` roots (every tenth asks the human first; the bench answers), then
//    one node (in turn) is SIGKILLed at once and started again — or, every other cycle, SIGSTOPped
//    for `--pause-seconds` (default 7: past two 3 s leases) and continued — and every root must
//    finish on the nodes left. Failover time: from the kill (on the database's clock, read after the
//    process is reaped) to the first append committed after it on each tree the node held then.
// 3. With `--vacuum-hold-seconds S`: completed roots per second for S seconds, then for S seconds
//    while another connection holds a transaction with an xid open (vacuum cannot remove what it
//    might see), and their ratio.
// The log is then audited (failover_audit.hpp): seqs 1..n per dialog, appends by a writer that
// did not hold the tree, model rounds answered twice, acknowledged roots missing.
#include <signal.h>

#include <boost/json/parse.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "bench_verbs.hpp"
#include "failover_audit.hpp"
#include "failover_nodes.hpp"
#include "failover_pg.hpp"
#include "failover_ws.hpp"
#include "parley/store/store.hpp"
#include "percentile.hpp"
#include "pg_bench_server.hpp"

namespace parley::bench {
// Named, not anonymous: the bench's files are compiled in unity batches.
namespace failover_detail {

namespace fs = std::filesystem;
namespace json = boost::json;
using steady = std::chrono::steady_clock;

constexpr const char* kToken = "failover-bench-token-0123456789abcdef";
constexpr const char* kFinal = "All done: the worker reported back.";
constexpr auto kFinishTimeout = std::chrono::minutes(8);

struct created_root {
  std::string id;
  int node = 0;
};

struct disruption {
  bool kill = true;
  pid_t node_pid = 0;
  double at_ms = 0;  // database clock
  std::vector<std::string> held;
};

struct run_state {
  node_set& nodes;
  pg_link& db;
  writer_map writers;
  std::vector<std::string> acknowledged;        // roots whose create answered 201
  std::vector<std::string> answered_questions;  // question ids whose answer answered 202
  long long create_failures = 0;
  int next_task = 0;
};

std::vector<created_root> create_roots(run_state& state, int count, bool with_questions) {
  std::vector<created_root> out;
  const auto serving = state.nodes.serving();
  for (int i = 0; i < count && !serving.empty(); ++i) {
    const int node = serving[static_cast<std::size_t>(i) % serving.size()];
    const int task = state.next_task++;
    std::string content = "task " + std::to_string(task);
    if (with_questions && task % 10 == 0) content += " (check with the human first)";
    const auto reply = state.nodes.port(node) == 0 ? http_reply{}
                                                   : http_call(state.nodes.port(node), kToken, "POST", "/api/dialogs",
                                                               json::serialize(json::object{{"content", content}}));
    json::error_code error;
    const auto body = json::parse(reply.body, error);
    if (reply.status != 201 || error || !body.is_object()) {
      ++state.create_failures;
      continue;
    }
    std::string id(body.at("dialog").at("id").as_string());
    state.acknowledged.push_back(id);
    out.push_back({std::move(id), node});
  }
  return out;
}

void answer_questions(run_state& state) {
  for (const int node : state.nodes.serving()) {
    const auto listed = http_call(state.nodes.port(node), kToken, "GET", "/api/questions");
    json::error_code error;
    const auto body = json::parse(listed.body, error);
    if (listed.status != 200 || error || !body.is_object()) continue;
    for (const auto& q : body.at("questions").as_array()) {
      const std::string dialog(q.at("dialog").at("selfId").as_string());
      const std::string id(q.at("id").as_string());
      const auto reply = http_call(state.nodes.port(node), kToken, "POST", "/api/dialogs/" + dialog + "/answer",
                                   json::serialize(json::object{{"questionId", id}, {"content", "go ahead"}}));
      if (reply.status == 202) state.answered_questions.push_back(id);
    }
  }
}

// The roots of `roots` whose lead has given its final answer.
std::set<std::string> finished_roots(pg_link& db, const std::vector<std::string>& roots) {
  std::set<std::string> out;
  if (roots.empty()) return out;
  for (const auto& row : db.rows("SELECT DISTINCT dialog_id FROM events WHERE dialog_id = ANY(" +
                                 sql_text_array(roots) + ") AND payload LIKE '%" + kFinal + "%'"))
    out.insert(row[0]);
  return out;
}

// Answers questions as they come until every root is finished; how many are not.
std::size_t wait_all_finished(run_state& state, const std::vector<std::string>& roots) {
  std::vector<std::string> left = roots;
  const auto deadline = steady::now() + kFinishTimeout;
  while (!left.empty() && steady::now() < deadline) {
    answer_questions(state);
    state.writers.snapshot(state.db, state.nodes);
    const auto done = finished_roots(state.db, left);
    std::erase_if(left, [&](const std::string& id) { return done.count(id) != 0; });
    if (!left.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return left.size();
}

std::vector<std::string> ids_of(const std::vector<created_root>& roots) {
  std::vector<std::string> out;
  for (const auto& r : roots) out.push_back(r.id);
  return out;
}

double seconds_since(steady::time_point start) { return std::chrono::duration<double>(steady::now() - start).count(); }

json::value rounded(double value, double scale) { return std::round(value * scale) / scale; }

// Completed roots per second over `dialogs` roots on the nodes serving now. `watchers`, when
// given, subscribe on node i+1 to each root created on node i.
double throughput_round(run_state& state, int dialogs, std::vector<std::unique_ptr<cross_node_watch>>* watchers,
                        std::vector<std::string>* watched, std::size_t& unfinished) {
  const auto start = steady::now();
  const auto roots = create_roots(state, dialogs, false);
  if (watchers != nullptr) {
    for (const auto& root : roots) {
      (*watchers)[static_cast<std::size_t>(root.node + 1) % watchers->size()]->subscribe(root.id);
      watched->push_back(root.id);
    }
  }
  unfinished += wait_all_finished(state, ids_of(roots));
  return static_cast<double>(roots.size()) / seconds_since(start);
}

// Completed roots per second for at least `seconds`, in batches of `dialogs`.
double throughput_window(run_state& state, int dialogs, int seconds, std::size_t& unfinished) {
  const auto start = steady::now();
  std::size_t done = 0;
  while (seconds_since(start) < seconds) {
    const auto roots = create_roots(state, dialogs, false);
    const auto left = wait_all_finished(state, ids_of(roots));
    unfinished += left;
    done += roots.size() - left;
  }
  return static_cast<double>(done) / seconds_since(start);
}

long long dead_tuples_of_dialogs(pg_link& db) {
  return std::stoll(db.value(
      "SELECT n_dead_tup FROM pg_stat_user_tables WHERE relname = 'dialogs' AND schemaname = current_schema()", "-1"));
}

// Model rounds answered more than once into the log (as tests/cluster/failover_test.cpp counts).
long long duplicate_rounds(const std::string& url, std::string& error) {
  postgres_options options;
  options.node_id = "failover-bench-reader";
  options.application_name = "parley-bench failover";
  auto opened = open_postgres_store(url, options);
  if (!opened) {
    error = opened.err().message;
    return -1;
  }
  auto all = (*opened)->read_all_events();
  if (!all) {
    error = all.err().message;
    return -1;
  }
  std::map<std::pair<std::string, std::int64_t>, int> answered;
  for (const auto& ev : *all) {
    if (const auto* done = ev.as<events::generation_finished>(); done != nullptr && !done->interrupted)
      ++answered[{ev.dialog_id, done->genseq}];
  }
  long long twice = 0;
  for (const auto& [round, count] : answered) twice += count - 1;
  return twice;
}

long long lost_acknowledged(pg_link& db, const run_state& state) {
  if (state.acknowledged.empty()) return 0;
  return std::stoll(db.value("SELECT count(*) FROM unnest(" + sql_text_array(state.acknowledged) +
                                 ") AS acked(id) WHERE NOT EXISTS (SELECT 1 FROM dialogs d WHERE d.id = acked.id)",
                             "-1"));
}

json::value p99_or_null(const std::vector<double>& samples, double scale) {
  return samples.empty() ? json::value(nullptr) : rounded(percentile(samples, 0.99), scale);
}

struct options {
  int nodes = 3;
  int dialogs = 300;
  int cycles = 3;
  int pause_seconds = 7;
  int hold_seconds = 0;
  std::string store_url;  // empty: a throwaway cluster
  fs::path parley;
  bool keep = false;
};

int run(const options& opt) {
  // Line by line: scripts/failover_loop.sh prints the running counts as each cycle ends.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  // Commit timestamps, where the bench starts the server: the cross-node delay is then measured
  // from the commit itself (scripts/pg_test_cluster.sh passes these on).
  if (opt.store_url.empty()) ::setenv("PARLEY_PG_EXTRA_OPTIONS", "-c track_commit_timestamp=on", 1);
  auto server = pg_server::open(opt.store_url);
  if (!server) {
    std::fprintf(stderr, "parley-bench failover: %s\n", server.err().message.c_str());
    return 1;
  }
  auto schema = server->fresh_schema();
  if (!schema) {
    std::fprintf(stderr, "parley-bench failover: %s\n", schema.err().message.c_str());
    return 1;
  }
  if (opt.keep) schema->keep();
  const std::string url = schema->store_url();
  if (auto migrated = migrate_postgres_store(url); !migrated) {
    std::fprintf(stderr, "parley-bench failover: %s\n", migrated.err().message.c_str());
    return 1;
  }
  pg_link db(url);
  install_audit(db);

  std::string pattern = (fs::temp_directory_path() / "parley-bench-failover-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) return 1;
  const fs::path dir = pattern;
  node_set nodes({opt.parley, fs::path(PARLEY_SOURCE_DIR) / "bench/failover_team/team.yaml", dir, url, kToken},
                 opt.nodes);
  run_state state{nodes, db, {}, {}, {}};
  std::printf("failover: %d nodes, schema %s on %s, node logs in %s\n", opt.nodes, schema->name().c_str(),
              server->redacted_url().c_str(), dir.c_str());

  // 1. Throughput by nodes, and the cross-node delay with all of them.
  json::object by_nodes;
  std::size_t unfinished = 0;
  std::vector<std::string> watched;
  std::vector<ws_arrival> arrivals;
  long long ws_resyncs = 0, ws_errors = 0, ws_others = 0;
  int ws_connected = 0;
  for (int k = 1; k <= opt.nodes; ++k) {
    if (!nodes.start(k - 1)) {
      std::fprintf(stderr, "parley-bench failover: node %d did not start (%s)\n", k - 1, nodes.log_of(k - 1).c_str());
      return 1;
    }
    std::vector<std::unique_ptr<cross_node_watch>> watchers;
    if (k == opt.nodes && k > 1) {
      for (int i = 0; i < k; ++i) {
        watchers.push_back(std::make_unique<cross_node_watch>(nodes.port(i), kToken));
        ws_connected += watchers.back()->connected() ? 1 : 0;
      }
    }
    const double tps =
        throughput_round(state, opt.dialogs, watchers.empty() ? nullptr : &watchers, &watched, unfinished);
    by_nodes[std::to_string(k)] = rounded(tps, 100);
    std::printf("throughput: %d node(s): %.2f roots/s\n", k, tps);
    for (auto& watcher : watchers) {
      auto got = watcher->finish();
      arrivals.insert(arrivals.end(), got.begin(), got.end());
      ws_resyncs += watcher->resyncs();
      ws_errors += watcher->errors();
      ws_others += watcher->other_packets();
    }
  }

  // 2. Kill and pause cycles.
  std::vector<disruption> disruptions;
  for (int cycle = 0; cycle < opt.cycles; ++cycle) {
    const auto roots = create_roots(state, opt.dialogs, true);
    const int victim = cycle % opt.nodes;
    disruption d;
    d.kill = cycle % 2 == 0;
    d.node_pid = nodes.pid(victim);
    state.writers.snapshot(db, nodes);
    d.held = trees_held_by(db, d.node_pid);
    if (d.kill) {
      nodes.kill_hard(victim);
      d.at_ms = db.now_ms();  // after the reap: nothing of the node runs any more
      if (!nodes.start(victim))
        std::fprintf(stderr, "parley-bench failover: node %d did not restart (%s)\n", victim,
                     nodes.log_of(victim).c_str());
    } else {
      nodes.pause(victim);
      d.at_ms = db.now_ms();
      std::this_thread::sleep_for(std::chrono::seconds(opt.pause_seconds));
      nodes.resume(victim);
    }
    const auto left = wait_all_finished(state, ids_of(roots));
    unfinished += left;
    disruptions.push_back(d);
    const auto sound = read_soundness(db, state.writers);
    std::printf(
        "cycle %d: %s node %d (pid %d) holding %zu trees; %zu of %zu roots unfinished; running counts: "
        "stale_appends=%lld duplicate_seqs=%lld seq_gaps=%lld\n",
        cycle, d.kill ? "SIGKILL" : "SIGSTOP", victim, static_cast<int>(d.node_pid), d.held.size(), left, roots.size(),
        sound.stale_appends, sound.duplicate_seqs, sound.seq_gaps);
    std::fflush(stdout);
  }

  // 3. Throughput under a long transaction.
  json::value hold_ratio = nullptr;
  json::object hold_figures;
  if (opt.hold_seconds > 0) {
    const double free_tps = throughput_window(state, opt.dialogs, opt.hold_seconds, unfinished);
    const long long dead_free = dead_tuples_of_dialogs(db);
    pg_link holder(url);
    holder.run("BEGIN");
    const std::string xid = holder.value("SELECT txid_current()");
    const double held_tps = throughput_window(state, opt.dialogs, opt.hold_seconds, unfinished);
    const long long dead_held = dead_tuples_of_dialogs(db);
    holder.run("COMMIT");
    hold_ratio = rounded(held_tps / free_tps, 1000);
    hold_figures = {{"tasks_per_s_free", rounded(free_tps, 100)},
                    {"tasks_per_s_held_xmin", rounded(held_tps, 100)},
                    {"dialogs_dead_tuples_after_free", dead_free},
                    {"dialogs_dead_tuples_after_held", dead_held},
                    {"held_xid", xid}};
    std::printf("vacuum: %.2f roots/s, %.2f with xid %s held open %d s\n", free_tps, held_tps, xid.c_str(),
                opt.hold_seconds);
  }

  // The audit.
  std::vector<double> failover_s, pause_s;
  std::size_t not_resumed = 0;
  for (const auto& d : disruptions) {
    const auto firsts = first_append_after(db, d.held, d.at_ms, std::to_string(d.node_pid));
    (d.kill ? failover_s : pause_s).insert((d.kill ? failover_s : pause_s).end(), firsts.begin(), firsts.end());
    if (d.kill) not_resumed += d.held.size() - firsts.size();
  }
  const auto sound = read_soundness(db, state.writers);
  std::string rounds_error;
  const long long twice = duplicate_rounds(url, rounds_error);
  std::string commit_source;
  const auto committed = commit_times(db, watched, commit_source);
  std::vector<double> cross_ms;
  std::set<std::pair<std::string, long long>> seen;
  for (const auto& a : arrivals) {
    const auto key = std::make_pair(a.dialog, a.log_seq);
    const auto found = committed.find(key);
    if (found != committed.end() && seen.insert(key).second) cross_ms.push_back(a.at_ms - found->second);
  }

  json::object out{
      {"bench", "failover"},
      {"nodes", opt.nodes},
      {"dialogs", opt.dialogs},
      {"cycles", opt.cycles},
      {"pause_seconds", opt.pause_seconds},
      {"failover_p50_s", failover_s.empty() ? json::value(nullptr) : rounded(percentile(failover_s, 0.5), 1000)},
      {"failover_p99_s", p99_or_null(failover_s, 1000)},
      {"failover_samples", failover_s.size()},
      {"failover_trees_not_resumed", not_resumed},
      {"pause_takeover_p99_s", p99_or_null(pause_s, 1000)},
      {"pause_takeover_samples", pause_s.size()},
      {"stale_appends", sound.stale_appends},
      {"duplicate_seqs", sound.duplicate_seqs},
      {"seq_gaps", sound.seq_gaps},
      {"duplicate_rounds", twice},
      {"lost_acknowledged", lost_acknowledged(db, state)},
      {"unfinished_roots", unfinished},
      {"create_failures", state.create_failures},
      {"questions_answered", state.answered_questions.size()},
      {"events", sound.events},
      {"audit_attributed_appends", sound.attributed},
      {"audit_unleased_appends", sound.unleased},
      {"cross_node_p50_ms", cross_ms.empty() ? json::value(nullptr) : rounded(percentile(cross_ms, 0.5), 100)},
      {"cross_node_p99_ms", p99_or_null(cross_ms, 100)},
      {"cross_node_samples", cross_ms.size()},
      {"cross_node_commit_time", commit_source},
      {"tasks_per_s_by_nodes", by_nodes},
      {"throughput_ratio_under_held_xmin", hold_ratio}};
  if (!hold_figures.empty()) out["vacuum_hold"] = hold_figures;
  if (twice < 0) out["duplicate_rounds_error"] = rounds_error;
  if (cross_ms.empty()) {
    out["cross_node_note"] =
        "no log event packet for a dialog driven by another node arrived on the subscribing node (" +
        std::to_string(watched.size()) + " roots watched over " + std::to_string(ws_connected) +
        " WebSockets; resync answers " + std::to_string(ws_resyncs) + ", errors " + std::to_string(ws_errors) +
        ", other packets " + std::to_string(ws_others) + "): live events across nodes are not delivered by this build";
  }
  for (const auto& [key, value] : server->settings()) out[key] = value;
  print_json_line(out);
  return 0;
}

}  // namespace failover_detail

int run_failover_bench(const bench_args& args) {
  failover_detail::options opt;
  opt.nodes = args.int_or("nodes", 3);
  opt.dialogs = args.int_or("dialogs", 300);
  opt.cycles = args.int_or("cycles", 3);
  opt.pause_seconds = args.int_or("pause-seconds", 7);
  opt.hold_seconds = args.int_or("vacuum-hold-seconds", 0);
  opt.keep = args.int_or("keep", 0) != 0;
  const std::string store = args.string_or("store", "postgresql");
  if (store != "postgresql" && !is_postgres_url(store)) {
    std::fprintf(stderr, "parley-bench failover: --store takes postgresql or a postgresql:// URL\n");
    return 2;
  }
  if (store != "postgresql") opt.store_url = store;
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  opt.parley = args.string_or("parley", (self.parent_path().parent_path() / "apps" / "parley" / "parley").string());
  if (opt.nodes < 1 || opt.dialogs < 1 || opt.cycles < 0) {
    std::fprintf(stderr, "parley-bench failover: --nodes and --dialogs must be positive\n");
    return 2;
  }
  try {
    return failover_detail::run(opt);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "parley-bench failover: %s\n", e.what());
    return 1;
  }
}

}  // namespace parley::bench
