// parley-bench fork (issue 41): the cost of forking a tree at the middle of its history, at
// several history lengths. Each size builds a SQLite store (durable) holding one tree — a root
// that asked three subdialogs at its start and then ran rounds of a message, a generation with a
// tool call, its result and a final generation — of about N events, then forks it at the root's
// middle round boundary several times and reports the median time of one fork (plan + durable
// append; and of the plan alone) and the bytes it added to the log — the dialog_forked events'
// payload text, and the same as the SQLite log stores it (compressed with its dictionary,
// store/sqlite/payload_codec.hpp) — and to the files. The last line is one JSON object with
// every size's figures.
#include <boost/json/array.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_verbs.hpp"
#include "parley/core/time.hpp"
#include "parley/model/event_codec.hpp"
#include "parley/store/fork_plan.hpp"
#include "parley/store/sqlite/payload_codec.hpp"
#include "parley/store/store.hpp"

namespace parley::bench {
namespace {

namespace fs = std::filesystem;
namespace ev_t = events;
using fork_clock = std::chrono::steady_clock;

constexpr int kForkSubdialogs = 3;
constexpr int kForkRepeats = 7;

class fork_tree_writer {
 public:
  explicit fork_tree_writer(store& log) : log_(log) {}

  event next(const std::string& dialog, ev_t::event_payload payload) {
    event ev;
    ev.dialog_id = dialog;
    ev.root_id = "r";
    ev.seq = ++seqs_[dialog];
    ev.ts_ms = ++ts_;
    ev.payload = std::move(payload);
    return ev;
  }
  void add(const std::string& dialog, ev_t::event_payload payload) {
    batch_.push_back(next(dialog, std::move(payload)));
    ++events_;
    if (batch_.size() >= 512) flush();
  }
  void flush() {
    if (batch_.empty()) return;
    log_.append(std::move(batch_), [](result<void> done) {
      if (!done) std::fprintf(stderr, "fork bench: an append failed: %s\n", done.err().message.c_str());
    });
    batch_.clear();
  }
  std::int64_t events() const { return events_; }
  std::int64_t seq_of(const std::string& dialog) { return seqs_[dialog]; }

 private:
  store& log_;
  std::map<std::string, std::int64_t> seqs_;
  std::vector<event> batch_;
  std::int64_t ts_ = 1'750'000'000'000;
  std::int64_t events_ = 0;
};

ev_t::user_message fork_bench_user(std::string content, std::int64_t n) {
  ev_t::user_message msg;
  msg.course = 1;
  msg.content = std::move(content);
  msg.msg_id = "m" + std::to_string(n);
  msg.origin = ev_t::message_origin::user;
  return msg;
}

ev_t::generation_finished fork_bench_answer(std::int64_t genseq, std::vector<ev_t::tool_call_record> calls) {
  ev_t::generation_finished done;
  done.course = 1;
  done.genseq = genseq;
  done.saying = calls.empty() ? "done with round " + std::to_string(genseq) : "let me look";
  done.tool_calls = std::move(calls);
  done.finish_reason = done.tool_calls.empty() ? "stop" : "tool_calls";
  done.usage.input_tokens = 1000;
  done.usage.output_tokens = 50;
  return done;
}

// The root asks three subdialogs, each answers once; the round boundaries (valid fork points) are
// collected in `rest_points`.
void write_fork_bench_start(fork_tree_writer& tree) {
  ev_t::dialog_created root;
  root.member_id = "lead";
  root.title = "fork bench";
  tree.add("r", root);
  tree.add("r", fork_bench_user("split the work in three", 0));
  tree.add("r", ev_t::generation_started{1, 1, 1});
  std::vector<ev_t::tool_call_record> calls;
  for (int i = 0; i < kForkSubdialogs; ++i) {
    calls.push_back({"t" + std::to_string(i), "tellask", R"({"targetAgentId":"worker"})"});
  }
  tree.add("r", fork_bench_answer(1, calls));
  for (int i = 0; i < kForkSubdialogs; ++i) {
    const std::string sub = "s" + std::to_string(i);
    ev_t::tellask_called called;
    called.course = 1;
    called.genseq = 1;
    called.call_id = "t" + std::to_string(i);
    called.subdialog_id = sub;
    called.target_agent_id = "worker";
    called.tellask_content = "part " + std::to_string(i);
    tree.add("r", called);
    ev_t::dialog_created created;
    created.member_id = "worker";
    created.kind = ev_t::dialog_kind::sub;
    created.parent_id = "r";
    created.depth = 1;
    created.call = ev_t::call_kind::tellask;
    tree.add(sub, created);
    ev_t::user_message asked = fork_bench_user(called.tellask_content, 100 + i);
    asked.origin = ev_t::message_origin::tellask;
    asked.assigned =
        ev_t::assignment{"r", "lead", called.call_id, ev_t::call_kind::tellask, "", called.tellask_content};
    tree.add(sub, asked);
    tree.add(sub, ev_t::generation_started{1, 1, 1});
    tree.add(sub, fork_bench_answer(1, {}));
    ev_t::reply_received reply;
    reply.course = 1;
    reply.call_id = called.call_id;
    reply.awaited = true;
    reply.from_dialog_id = sub;
    reply.from_member_id = "worker";
    reply.content = "part " + std::to_string(i) + " done";
    tree.add("r", reply);
  }
}

// Rounds of six root events until the tree holds `events`; the root's seq at each round's end.
std::vector<std::int64_t> write_fork_bench_rounds(fork_tree_writer& tree, std::int64_t events) {
  std::vector<std::int64_t> rest_points;
  std::int64_t genseq = 1;
  for (std::int64_t round = 1; tree.events() + 6 <= events; ++round) {
    tree.add("r", fork_bench_user("round " + std::to_string(round) + ": check the numbers again", round));
    tree.add("r", ev_t::generation_started{1, ++genseq, 1});
    const std::string call = "c" + std::to_string(round);
    tree.add("r", fork_bench_answer(genseq, {{call, "read_file", R"({"path":"numbers.csv"})"}}));
    ev_t::tool_result result;
    result.course = 1;
    result.genseq = genseq;
    result.call_id = call;
    result.name = "read_file";
    result.content = "a,b,c\n1,2,3\n4,5,6\n";
    tree.add("r", result);
    tree.add("r", ev_t::generation_started{1, ++genseq, 2});
    tree.add("r", fork_bench_answer(genseq, {}));
    rest_points.push_back(tree.seq_of("r"));
  }
  tree.flush();
  return rest_points;
}

std::int64_t fork_bench_files_bytes(const fs::path& dir) {
  std::int64_t total = 0;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.is_regular_file(ec)) total += static_cast<std::int64_t>(entry.file_size(ec));
  }
  return total;
}

struct fork_figures {
  std::int64_t events = 0;
  std::int64_t cut = 0;
  double median_ms = 0;
  double plan_median_ms = 0;  // plan_fork alone; the rest is the durable append (an fsync)
  std::int64_t log_bytes = 0;
  std::int64_t stored_bytes = 0;
  std::int64_t file_bytes = 0;
};

// A payload's bytes as the SQLite log keeps it: a compressed blob, or its text when that is shorter.
std::int64_t fork_bench_stored_bytes(const std::string& json) {
  std::string blob;
  auto compressed = sqlite::encode_payload_blob(json, blob);
  return static_cast<std::int64_t>(compressed && *compressed ? blob.size() : json.size());
}

result<fork_figures> measure_fork(std::int64_t events) {
  const fs::path dir = fs::temp_directory_path() / ("parley-fork-bench-" + std::to_string(std::random_device{}()));
  fs::create_directories(dir);
  struct cleanup {
    fs::path dir;
    ~cleanup() {
      std::error_code ec;
      fs::remove_all(dir, ec);
    }
  } remove_after{dir};
  sqlite_options options;
  auto opened = open_sqlite_store(dir.string(), options);
  if (!opened) return std::move(opened).err();
  store& log = **opened;
  fork_tree_writer tree(log);
  write_fork_bench_start(tree);
  const auto rest_points = write_fork_bench_rounds(tree, events);
  log.flush();
  fork_figures figures;
  figures.events = tree.events();
  figures.cut = rest_points.at(rest_points.size() / 2);
  std::vector<double> times;
  std::vector<double> plan_times;
  for (int repeat = 0; repeat < kForkRepeats; ++repeat) {
    const std::int64_t files_before = fork_bench_files_bytes(dir);
    const auto start = fork_clock::now();
    auto plan = plan_fork(log, "r", fork_point{figures.cut, std::nullopt}, now_ms());
    if (!plan) return std::move(plan).err();
    plan_times.push_back(std::chrono::duration<double, std::milli>(fork_clock::now() - start).count());
    std::int64_t log_bytes = 0;
    std::int64_t stored_bytes = 0;
    for (const auto& ev : plan->batch) {
      const std::string json = serialize(encode_payload(ev.payload));
      log_bytes += static_cast<std::int64_t>(json.size());
      stored_bytes += fork_bench_stored_bytes(json);
    }
    std::optional<result<void>> outcome;
    log.append(std::move(plan->batch), [&outcome](result<void> done) { outcome = std::move(done); });
    log.flush();
    times.push_back(std::chrono::duration<double, std::milli>(fork_clock::now() - start).count());
    if (!outcome || !*outcome) return make_error(errc::internal, "the fork's append failed");
    figures.log_bytes = log_bytes;
    figures.stored_bytes = stored_bytes;
    figures.file_bytes = fork_bench_files_bytes(dir) - files_before;
  }
  std::sort(times.begin(), times.end());
  std::sort(plan_times.begin(), plan_times.end());
  figures.median_ms = times[times.size() / 2];
  figures.plan_median_ms = plan_times[plan_times.size() / 2];
  return figures;
}

std::vector<std::int64_t> fork_bench_sizes(const std::string& text) {
  std::vector<std::int64_t> sizes;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos) {
      throw std::invalid_argument("--events needs whole numbers separated by commas, got '" + text + "'");
    }
    sizes.push_back(std::stoll(item));
  }
  return sizes;
}

}  // namespace

int run_fork_bench(const bench_args& args) {
  const auto sizes = fork_bench_sizes(args.string_or("events", "1000,10000,100000"));
  boost::json::array runs;
  for (const std::int64_t size : sizes) {
    auto figures = measure_fork(std::max<std::int64_t>(size, 40));
    if (!figures) {
      std::fprintf(stderr, "fork bench: %s\n", figures.err().message.c_str());
      return 1;
    }
    std::printf(
        "%7lld events: fork at root event %lld in %.2f ms (median of %d; the plan %.2f ms), %lld bytes of log (%lld "
        "as stored), %lld bytes of files\n",
        static_cast<long long>(figures->events), static_cast<long long>(figures->cut), figures->median_ms, kForkRepeats,
        figures->plan_median_ms, static_cast<long long>(figures->log_bytes),
        static_cast<long long>(figures->stored_bytes), static_cast<long long>(figures->file_bytes));
    runs.push_back(boost::json::object{{"events", figures->events},
                                       {"cut", figures->cut},
                                       {"median_ms", figures->median_ms},
                                       {"plan_median_ms", figures->plan_median_ms},
                                       {"log_bytes", figures->log_bytes},
                                       {"stored_bytes", figures->stored_bytes},
                                       {"file_bytes", figures->file_bytes}});
  }
  print_json_line(boost::json::object{{"bench", "fork"}, {"runs", std::move(runs)}});
  return 0;
}

}  // namespace parley::bench
