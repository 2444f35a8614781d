// parley-bench ws: the PubChan under load, in one process. The server stack (engine, in-memory
// store, PubChan, HTTP/WebSocket listener on 127.0.0.1:0) runs on one thread; the WebSocket clients
// run on a second thread with their own io_context. Phase 1: N subscribers (default 1,000) watch
// one dialog stream a long saying in many chunks. Phase 2: D dialogs (default 200) stream at once,
// each to its own subscriber. Latency is from the engine reporting a stream event (an observer
// stamps the wire seq PubChan just gave it) to a client having read the packet. Phase 3: one
// dialog streams on a durable store while clients create dialogs and search the records, with the
// records routes reading on the loop and on the store's read thread (issue 20 item 3). Phase 4:
// the same stream alone and with the `parley` CLI's read-only verbs run over and over on the data
// directory the server holds (issue 36): chunk latency and the server's CPU, with and without.
#include <sys/resource.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include <unistd.h>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "bench_verbs.hpp"
#include "cli_loop.hpp"
#include "parley/core/thread_name.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/engine.hpp"
#include "parley/server/http_server.hpp"
#include "parley/server/pubchan.hpp"
#include "parley/server/server_context.hpp"
#include "parley/server/store_reads.hpp"

namespace parley::bench {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace fs = std::filesystem;
using clock_type = std::chrono::steady_clock;

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(clock_type::now().time_since_epoch()).count();
}

double rss_kb() {
  std::ifstream statm("/proc/self/statm");
  long pages_total = 0;
  long pages_resident = 0;
  statm >> pages_total >> pages_resident;
  return static_cast<double>(pages_resident) * static_cast<double>(::sysconf(_SC_PAGESIZE)) / 1024.0;
}

// A member that streams `chunks` chunks of 16 characters, one per millisecond, and one that answers
// in a word (the records load's dialogs).
void write_ws_team(const fs::path& dir, int chunks) {
  fs::create_directories(dir / "workspace");
  std::ofstream(dir / "team.yaml")
      << "version: 1\nworkspace: workspace\n"
         "providers:\n  offline: {kind: scripted, script: script.yaml}\n"
         "members:\n  streamer: {persona: \"You stream.\", provider: offline, model: scripted}\n"
         "  writer: {persona: \"You note.\", provider: offline, model: scripted}\n";
  std::string saying;
  for (int i = 0; i < chunks; ++i) saying += "chunk of sixteen";
  std::ofstream(dir / "script.yaml") << "chunk_size: 16\ndelay_ms: 1\nmembers:\n  streamer:\n"
                                        "    - emit: [{saying: \""
                                     << saying << "\"}]\n  writer:\n    - emit: [{saying: \"noted\"}]\n";
}

// Stamps the time the engine reported each stream chunk of the watched dialogs, under the wire seq
// PubChan is about to give it: this observer runs before PubChan's (which writes a chunk to an idle
// socket at once), and PubChan gives a chunk the seq after its dialog's last.
class stamp_observer final : public engine::engine_observer {
 public:
  explicit stamp_observer(std::size_t max_seq) : max_seq_(max_seq) {}
  void set_channels(server::pubchan& channels) { channels_ = &channels; }
  // Called on the server thread before any client reads a stamp; returns the dialog's index.
  std::size_t watch(const std::string& dialog_id) {
    index_[dialog_id] = stamps_.size();
    stamps_.push_back(std::make_unique<std::atomic<std::int64_t>[]>(max_seq_));
    return stamps_.size() - 1;
  }
  void on_stream(const engine::stream_event& ev) override {
    const auto it = index_.find(std::string(ev.dialog_id));
    if (it == index_.end() || channels_ == nullptr) return;
    if (ev.kind != engine::stream_kind::saying_chunk) return;  // the chunks are what is measured
    const auto seq = static_cast<std::size_t>(channels_->last_seq(ev.dialog_id) + 1);
    if (seq < max_seq_) stamps_[it->second][seq].store(now_ns(), std::memory_order_release);
  }
  std::int64_t stamp(std::size_t dialog_index, std::int64_t seq) const {
    if (seq < 0 || static_cast<std::size_t>(seq) >= max_seq_) return 0;
    return stamps_[dialog_index][static_cast<std::size_t>(seq)].load(std::memory_order_acquire);
  }

 private:
  server::pubchan* channels_ = nullptr;
  std::size_t max_seq_;
  std::map<std::string, std::size_t> index_;  // filled before the clients start
  std::vector<std::unique_ptr<std::atomic<std::int64_t>[]>> stamps_;
};

struct client_figures {
  std::atomic<int> connected{0};
  std::atomic<int> finished{0};
  std::atomic<int> failed{0};
  std::atomic<std::int64_t> packets{0};
  std::atomic<std::int64_t> last_packet_ns{0};
  std::mutex mutex;
  std::vector<std::int64_t> latencies_ns;
};

std::int64_t field_int(std::string_view text, std::string_view key) {
  const auto at = text.find(key);
  if (at == std::string_view::npos) return -1;
  std::int64_t value = 0;
  for (auto i = at + key.size(); i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i)
    value = value * 10 + (text[i] - '0');
  return value;
}

asio::awaitable<void> run_client(std::uint16_t port, std::string dialog_id, std::size_t dialog_index,
                                 const stamp_observer& stamps, client_figures& figures) {
  constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);
  websocket::stream<beast::tcp_stream> ws(co_await asio::this_coro::executor);
  const asio::ip::tcp::endpoint endpoint(asio::ip::make_address("127.0.0.1"), port);
  auto [connect_error] = co_await beast::get_lowest_layer(ws).async_connect(endpoint, use_tuple);
  if (connect_error) {
    ++figures.failed;
    co_return;
  }
  const auto decorate = [](websocket::request_type& request) {
    request.set(beast::http::field::sec_websocket_protocol, "parley.v1");
  };
  ws.set_option(websocket::stream_base::decorator(decorate));
  const std::string host = "127.0.0.1:" + std::to_string(port);
  auto [handshake_error] = co_await ws.async_handshake(host, "/ws", use_tuple);
  if (handshake_error) {
    ++figures.failed;
    co_return;
  }
  const std::string subscribe = R"({"type":"subscribe","dialog":{"selfId":")" + dialog_id + "\"}}";
  auto [write_error, written] = co_await ws.async_write(asio::buffer(subscribe), use_tuple);
  if (write_error) {
    ++figures.failed;
    co_return;
  }
  beast::flat_buffer buffer;
  std::vector<std::int64_t> latencies;
  bool subscribed = false;
  while (true) {
    auto [read_error, bytes] = co_await ws.async_read(buffer, use_tuple);
    if (read_error) {
      ++figures.failed;
      break;
    }
    const auto received = now_ns();
    const std::string text = beast::buffers_to_string(buffer.data());
    buffer.consume(buffer.size());
    if (!subscribed && text.starts_with(R"({"type":"resync")")) {
      subscribed = true;
      ++figures.connected;
      continue;
    }
    ++figures.packets;
    figures.last_packet_ns.store(received, std::memory_order_relaxed);
    if (text.starts_with(R"({"type":"saying_chunk_evt")")) {
      const auto stamp = stamps.stamp(dialog_index, field_int(text, "\"seq\":"));
      if (stamp > 0) latencies.push_back(received - stamp);
    }
    if (text.starts_with(R"({"type":"generating_finish_evt")")) {
      ++figures.finished;
      break;
    }
  }
  {
    const std::lock_guard lock(figures.mutex);
    figures.latencies_ns.insert(figures.latencies_ns.end(), latencies.begin(), latencies.end());
  }
  beast::get_lowest_layer(ws).socket().close();
}

// The server side: everything on one io_context run by one thread.
struct ws_server_stack {
  asio::io_context io{1};
  std::unique_ptr<store> log = make_memory_store();
  std::unique_ptr<server::store_reads> reads;  // null: the handlers read on the loop
  bool engine_reads_off_loop = true;           // false: the engine reads on the loop (as before it could)
  server::server_options options;
  std::unique_ptr<engine::engine> eng;
  std::unique_ptr<server::pubchan> channels;
  std::unique_ptr<stamp_observer> stamps;
  std::unique_ptr<server::server_context> context;
  std::unique_ptr<server::http_server> listener;
  std::thread thread;
  asio::executor_work_guard<asio::io_context::executor_type> work = asio::make_work_guard(io);

  // Runs `fn` on the server thread and waits for it.
  template <class Fn>
  auto call(Fn fn) {
    std::packaged_task<decltype(fn())()> task(std::move(fn));
    auto done = task.get_future();
    asio::post(io, [&task] { task(); });
    return done.get();
  }
};

asio::awaitable<void> create_dialogs(engine::engine& eng, int count, std::promise<std::vector<std::string>>& out) {
  std::vector<std::string> ids;
  for (int i = 0; i < count; ++i) {
    engine::new_dialog spec{"streamer", "bench", ""};
    auto id = co_await eng.create_root_dialog(std::move(spec));
    if (id) ids.push_back(*id);
  }
  out.set_value(std::move(ids));
}

asio::awaitable<void> post_message(engine::engine& eng, std::string id) {
  (void)co_await eng.post_user_message(id, "go");
}

struct phase_result {
  double events_per_s = 0;
  double p50_us = 0;
  double p99_us = 0;
  double rss_per_connection_kb = 0;
  std::int64_t packets = 0;
  int failed = 0;
  int finished = 0;
};

double percentile_us(std::vector<std::int64_t>& values, double q) {
  if (values.empty()) return 0;
  const auto at = static_cast<std::size_t>(q * static_cast<double>(values.size() - 1));
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(at), values.end());
  return static_cast<double>(values[at]) / 1000.0;
}

// `subscribers` clients spread over `dialogs` dialogs (client i watches dialog i % dialogs).
phase_result run_phase(ws_server_stack& server, int dialogs, int subscribers) {
  std::promise<std::vector<std::string>> created;
  auto ids_future = created.get_future();
  asio::co_spawn(server.io, create_dialogs(*server.eng, dialogs, created), asio::detached);
  const auto ids = ids_future.get();
  if (ids.empty()) return {};
  const auto indices = server.call([&] {
    std::vector<std::size_t> out;
    for (const auto& id : ids) out.push_back(server.stamps->watch(id));
    return out;
  });

  client_figures figures;
  asio::io_context client_io(1);
  const double rss_before = rss_kb();
  const auto port = server.listener->port();
  for (int i = 0; i < subscribers; ++i) {
    const auto d = static_cast<std::size_t>(i) % ids.size();
    asio::co_spawn(client_io, run_client(port, ids[d], indices[d], *server.stamps, figures), asio::detached);
  }
  std::thread client_thread([&] {
    name_this_thread("bench-client");
    client_io.run();
  });
  const auto connect_deadline = clock_type::now() + std::chrono::seconds(60);
  while (figures.connected + figures.failed < subscribers && clock_type::now() < connect_deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  phase_result out;
  out.rss_per_connection_kb = (rss_kb() - rss_before) / std::max(1, figures.connected.load());

  const auto start = now_ns();
  for (const auto& id : ids) asio::co_spawn(server.io, post_message(*server.eng, id), asio::detached);
  const auto deadline = clock_type::now() + std::chrono::seconds(300);
  while (figures.finished + figures.failed < subscribers && clock_type::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  client_thread.join();
  const double seconds = static_cast<double>(figures.last_packet_ns.load() - start) / 1e9;
  out.packets = figures.packets.load();
  out.events_per_s = seconds > 0 ? static_cast<double>(out.packets) / seconds : 0;
  out.p50_us = percentile_us(figures.latencies_ns, 0.50);
  out.p99_us = percentile_us(figures.latencies_ns, 0.99);
  out.failed = figures.failed.load();
  out.finished = figures.finished.load();
  return out;
}

// Starts the server side on `server.log` (the memory store unless the caller put another there):
// the engine, the PubChan, the stamps and the listener on 127.0.0.1:0, run by the stack's thread.
result<void> start_stack(ws_server_stack& server, const config::team_config& team, int chunks) {
  auto providers = engine::build_providers(team);
  if (!providers) return std::move(providers).err();
  server.options.port = 0;
  auto eng = engine::engine::create(server.io.get_executor(), *server.log, team, std::move(*providers),
                                    engine::build_builtin_tools());
  if (!eng) return std::move(eng).err();
  server.eng = std::move(*eng);
  // The stamps' observer first, so a chunk is stamped before PubChan sends it.
  server.stamps = std::make_unique<stamp_observer>(static_cast<std::size_t>(chunks) + 256);
  server.eng->add_observer(server.stamps.get());
  server.channels = std::make_unique<server::pubchan>(*server.eng, *server.log, server.options);
  server.stamps->set_channels(*server.channels);
  server.context = std::make_unique<server::server_context>(server::server_context{
      *server.eng, *server.log, server.options, *server.channels, server::single_operator(), true, "bench"});
  server.context->reads = server.reads.get();
  if (server.reads) server.channels->set_store_reads(server.reads.get(), server.io.get_executor());
  if (server.engine_reads_off_loop) server.eng->dialogs().set_reads(server.reads.get());
  auto listening = server::http_server::listen(server.io.get_executor(), *server.context);
  if (!listening) return std::move(listening).err();
  server.listener = std::move(*listening);
  server.listener->start();
  server.thread = std::thread([&server] {
    name_this_thread("bench-server");
    server.io.run();
  });
  return ok();
}

void stop_stack(ws_server_stack& server) {
  server.call([&] {
    server.listener->stop();
    server.channels->close_all();
    return 0;
  });
  // What is left (the read thread's answers, the engine's last commits, connections the clients
  // close) runs to its end, so no coroutine is destroyed suspended after what it refers to; a
  // connection that stays open is given up on after a grace period.
  server.work.reset();
  const auto give_up_at = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (!server.io.stopped() && std::chrono::steady_clock::now() < give_up_at)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  server.io.stop();
  server.thread.join();
}

// What a round of the records load does: both halves (the load the figures are about), or one of
// them alone, to tell which half costs the stream what.
enum class load_mix { creates_and_searches, searches_only, creates_only };

// One client of the records load (issue 20 item 3), on one HTTP/1.1 connection: each round
// creates a dialog of the writer (appends the store's writer commits, and the engine drives) and
// searches the records (a read that first waits for the projections to take every append before it).
asio::awaitable<void> run_records_load(std::uint16_t port, int client, std::chrono::microseconds round_every,
                                       load_mix mix, const std::atomic<bool>& stop, std::atomic<std::int64_t>& requests,
                                       std::atomic<int>& failed) {
  namespace http = beast::http;
  constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);
  beast::tcp_stream stream(co_await asio::this_coro::executor);
  const asio::ip::tcp::endpoint endpoint(asio::ip::make_address("127.0.0.1"), port);
  if (auto [error] = co_await stream.async_connect(endpoint, use_tuple); error) {
    ++failed;
    co_return;
  }
  const std::string host = "127.0.0.1:" + std::to_string(port);
  beast::flat_buffer buffer;
  const auto exchange = [&](http::request<http::string_body> request, unsigned expected) -> asio::awaitable<bool> {
    request.set(http::field::host, host);
    request.prepare_payload();
    if (auto [error, n] = co_await http::async_write(stream, request, use_tuple); error) co_return false;
    http::response<http::string_body> response;
    if (auto [error, n] = co_await http::async_read(stream, buffer, response, use_tuple); error) co_return false;
    co_return response.result_int() == expected;
  };
  // Paced: the same load whichever way the server reads (a round late starts at once).
  asio::steady_timer pace(co_await asio::this_coro::executor);
  const auto start = clock_type::now();
  for (int round = 0; !stop.load(std::memory_order_relaxed); ++round) {
    pace.expires_at(start + round * round_every);
    co_await pace.async_wait(use_tuple);
    http::request<http::string_body> create{http::verb::post, "/api/dialogs", 11};
    create.set(http::field::content_type, "application/json");
    create.body() =
        R"({"memberId":"writer","content":"load )" + std::to_string(client) + " " + std::to_string(round) + "\"}";
    const http::request<http::string_body> search{http::verb::get, "/api/messages/search?q=load&limit=20", 11};
    const bool creates = mix != load_mix::searches_only;
    const bool searches = mix != load_mix::creates_only;
    const bool created = !creates || co_await exchange(std::move(create), 201);
    const bool searched = !searches || co_await exchange(search, 200);
    if (!created || !searched) {
      ++failed;
      co_return;
    }
    requests += (creates ? 1 : 0) + (searches ? 1 : 0);
  }
}

struct records_phase_result {
  phase_result stream;
  std::int64_t load_requests = 0;
  int load_failed = 0;
  double cpu_s = 0;  // this process's (the server's and its clients') while the stream ran
  std::int64_t cli_runs = 0;
  int cli_failed = 0;
  double cli_cpu_s = 0;  // the CLI processes'
};

double process_cpu_s(int who) {
  rusage usage{};
  ::getrusage(who, &usage);
  const auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

// One dialog streams to one subscriber on a durable store while `load_clients` clients write and
// read records; `read_thread`: the records routes read on the store's read thread (else on the loop,
// as before it existed); `engine_read_thread`: the engine's own reads (a create's msgId check, a
// dialog read back) too. `parley`: when not empty, the CLI loop (cli_loop.hpp) runs beside, its
// read-only verbs on `data` or, `version_only`, `parley version` (the control: processes alone).
result<records_phase_result> run_records_phase(const config::team_config& team, int chunks, const fs::path& data,
                                               bool read_thread, engine::read_priority priority,
                                               bool engine_read_thread, int load_clients,
                                               std::chrono::microseconds round_every, const fs::path& parley = {},
                                               bool version_only = false,
                                               load_mix mix = load_mix::creates_and_searches) {
  ws_server_stack server;
  auto opened = open_sqlite_store(data.string());
  if (!opened) return std::move(opened).err();
  server.log = std::move(*opened);
  if (read_thread) server.reads = std::make_unique<server::store_reads>(priority);
  server.engine_reads_off_loop = engine_read_thread;
  PARLEY_TRY(start_stack(server, team, chunks));
  asio::io_context load_io(1);
  std::atomic<bool> stop{false};
  std::atomic<std::int64_t> requests{0};
  std::atomic<int> failed{0};
  for (int i = 0; i < load_clients; ++i) {
    asio::co_spawn(load_io, run_records_load(server.listener->port(), i, round_every, mix, stop, requests, failed),
                   asio::detached);
  }
  std::thread load_thread([&] {
    name_this_thread("bench-load");
    load_io.run();
  });
  std::unique_ptr<cli_loop> cli;
  if (!parley.empty()) {
    std::promise<std::vector<std::string>> shown;  // a dialog for `parley show`
    auto shown_ids = shown.get_future();
    asio::co_spawn(server.io, create_dialogs(*server.eng, 1, shown), asio::detached);
    const auto ids = shown_ids.get();
    auto verbs = version_only ? std::vector<cli_args>{{"version"}}
                              : read_only_verbs(data.parent_path() / "team.yaml", data,
                                                ids.empty() ? std::string("none") : ids.front());
    cli = std::make_unique<cli_loop>(parley, std::move(verbs));
  }
  records_phase_result out;
  const double cpu_before = process_cpu_s(RUSAGE_SELF);
  const double children_cpu_before = process_cpu_s(RUSAGE_CHILDREN);
  out.stream = run_phase(server, 1, 1);
  out.cpu_s = process_cpu_s(RUSAGE_SELF) - cpu_before;
  if (cli) {
    cli->stop();
    out.cli_runs = cli->runs();
    out.cli_failed = cli->failed();
    out.cli_cpu_s = process_cpu_s(RUSAGE_CHILDREN) - children_cpu_before;
  }
  stop = true;
  load_thread.join();
  stop_stack(server);
  out.load_requests = requests.load();
  out.load_failed = failed.load();
  return out;
}

fs::path scratch_dir() {
  std::random_device device;
  auto dir = fs::temp_directory_path() / ("parley-ws-bench-" + std::to_string(device()));
  fs::create_directories(dir);
  return dir;
}

// Every client needs two descriptors in this process (its socket and the server's).
int raise_fd_limit(int wanted) {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return 1024;
  const auto need = static_cast<rlim_t>(wanted);
  if (limit.rlim_cur < need) {
    limit.rlim_cur = std::min(need, limit.rlim_max);
    ::setrlimit(RLIMIT_NOFILE, &limit);
    ::getrlimit(RLIMIT_NOFILE, &limit);
  }
  return static_cast<int>(std::min<rlim_t>(limit.rlim_cur, 1 << 20));
}

double median_of(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

double ratio_of(double beside, double alone) { return alone > 0 ? beside / alone : 0.0; }

// N subscribers of one dialog, then D dialogs with a subscriber each, on the memory store.
result<void> run_fanout_phases(const config::team_config& team, int chunks, int subscribers, int dialogs,
                               boost::json::object& out, int& failed) {
  ws_server_stack server;
  PARLEY_TRY(start_stack(server, team, chunks));
  const auto fan = run_phase(server, 1, subscribers);
  std::printf(
      "ws fan-out: %d subscribers of 1 dialog: %.0f events/s delivered (%lld packets), latency p50 %.0f us, "
      "p99 %.0f us, %.1f KiB RSS per connection (both ends), %d failed\n",
      subscribers, fan.events_per_s, static_cast<long long>(fan.packets), fan.p50_us, fan.p99_us,
      fan.rss_per_connection_kb, fan.failed);
  const auto many = run_phase(server, dialogs, dialogs);
  std::printf(
      "ws many dialogs: %d dialogs streaming at once, one subscriber each: %.0f events/s delivered, "
      "latency p50 %.0f us, p99 %.0f us, %d failed\n",
      dialogs, many.events_per_s, many.p50_us, many.p99_us, many.failed);
  stop_stack(server);
  out["ws_subscribers"] = subscribers;
  out["ws_1000_events_per_s"] = fan.events_per_s;
  out["ws_1000_p50_latency_us"] = fan.p50_us;
  out["ws_1000_p99_latency_us"] = fan.p99_us;
  out["ws_rss_per_connection_kb"] = fan.rss_per_connection_kb;
  out["ws_200_dialogs"] = dialogs;
  out["ws_200_events_per_s"] = many.events_per_s;
  out["ws_200_p50_latency_us"] = many.p50_us;
  out["ws_200_p99_latency_us"] = many.p99_us;
  failed += fan.failed + many.failed;
  return ok();
}

struct records_variant {
  const char* name;
  bool read_thread;
  engine::read_priority priority;
  bool engine_read_thread;
  int load_clients;
  bool repeated;  // the figures compared (alone, read thread) run `repeats` times, medians kept
  load_mix mix = load_mix::creates_and_searches;
};

struct records_variant_runs {
  std::vector<double> p50s, p99s, stream_seconds;
  std::int64_t load_requests = 0;
  int failed = 0;
};

// A streaming dialog's chunk latency on a durable store, alone and beside a records load, with the
// records routes reading on the loop (as before the read thread) and on the read thread, the
// engine's own reads on the loop (as before issue 20's last step) and on the read thread.
result<boost::json::object> run_records_phases(const config::team_config& team, int chunks, const fs::path& dir,
                                               int load_clients, int load_rounds, int repeats, bool historical,
                                               int& failed) {
  const std::chrono::microseconds round_every(1'000'000 / load_rounds);
  using enum engine::read_priority;
  const records_variant variants[] = {
      {"alone", true, normal, true, 0, true},
      {"load_reads_on_loop", false, normal, false, load_clients, false},
      {"load_engine_reads_on_loop", true, normal, false, load_clients, false},
      {"load_read_thread", true, normal, true, load_clients, true},
      {"load_read_thread_background", true, background, true, load_clients, true},
      {"load_read_thread_adaptive", true, adaptive, true, load_clients, true},
      // Which half of the load costs the stream what (as served by default).
      {"load_searches_only_adaptive", true, adaptive, true, load_clients, true, load_mix::searches_only},
      {"load_creates_only_adaptive", true, adaptive, true, load_clients, true, load_mix::creates_only}};
  // A p99 of 2,000 chunks on two cores moves by several times from one run to the next (the VM's
  // stolen time stalls every thread for milliseconds now and then), so the two figures compared run
  // `repeats` times each, interleaved — alone, loaded, alone, loaded — so that a noisy minute of the
  // machine falls on both, and their medians are kept.
  std::vector<std::size_t> schedule;  // indices into variants, in the order they run
  for (int r = 0; r < repeats; ++r) {
    for (std::size_t i = 0; i < std::size(variants); ++i)
      if (variants[i].repeated) schedule.push_back(i);
  }
  for (std::size_t i = 0; i < std::size(variants); ++i)
    if (!variants[i].repeated && historical) schedule.push_back(i);
  std::vector<records_variant_runs> runs(std::size(variants));
  for (std::size_t run = 0; run < schedule.size(); ++run) {
    const auto& v = variants[schedule[run]];
    auto phase = run_records_phase(team, chunks, dir / (v.name + std::to_string(run)), v.read_thread, v.priority,
                                   v.engine_read_thread, v.load_clients, round_every, {}, false, v.mix);
    if (!phase) return std::move(phase).err();
    auto& into = runs[schedule[run]];
    // 2,000 chunks a millisecond apart take about 2 s unless the loop stalls.
    into.stream_seconds.push_back(
        phase->stream.events_per_s > 0 ? static_cast<double>(phase->stream.packets) / phase->stream.events_per_s : 0);
    into.p50s.push_back(phase->stream.p50_us);
    into.p99s.push_back(phase->stream.p99_us);
    into.load_requests += phase->load_requests;
    into.failed += phase->load_failed + phase->stream.failed;
  }
  boost::json::object figures{{"load_clients", load_clients}, {"rounds_per_client_per_s", load_rounds}};
  for (std::size_t i = 0; i < std::size(variants); ++i) {
    const auto& v = variants[i];
    const auto& done = runs[i];
    if (done.p99s.empty()) continue;
    std::printf(
        "ws records load (%s, median of %zu): chunk latency p50 %.0f us, p99 %.0f us; the stream took %.2f s; %lld "
        "load requests, %d failed\n",
        v.name, done.p99s.size(), median_of(done.p50s), median_of(done.p99s), median_of(done.stream_seconds),
        static_cast<long long>(done.load_requests), done.failed);
    failed += done.failed;
    figures[v.name] = {{"chunk_p50_us", median_of(done.p50s)},
                       {"chunk_p99_us", median_of(done.p99s)},
                       {"stream_s", median_of(done.stream_seconds)},
                       {"load_requests", done.load_requests},
                       {"runs", done.p99s.size()}};
  }
  // Issue 37's target: under records load the chunk p99 within 1.5x of the stream alone — as
  // `parley serve` runs by default (`--read-priority adaptive`), and with `normal` and `background`.
  figures["chunk_p99_ratio"] = ratio_of(median_of(runs[5].p99s), median_of(runs[0].p99s));
  figures["chunk_p99_ratio_normal"] = ratio_of(median_of(runs[3].p99s), median_of(runs[0].p99s));
  figures["chunk_p99_ratio_background"] = ratio_of(median_of(runs[4].p99s), median_of(runs[0].p99s));
  figures["chunk_p99_ratio_searches_only"] = ratio_of(median_of(runs[6].p99s), median_of(runs[0].p99s));
  figures["chunk_p99_ratio_creates_only"] = ratio_of(median_of(runs[7].p99s), median_of(runs[0].p99s));
  return figures;
}

// The same stream alone and with the CLI's read-only verbs run over and over on its data
// directory (issue 36's target: chunk p99 and CPU within 1.2x of alone). Each variant runs
// `repeats` times, interleaved like the records phases, its medians reported.
result<boost::json::object> run_cli_phases(const config::team_config& team, int chunks, const fs::path& dir,
                                           const fs::path& parley, int repeats, int& failed) {
  struct cli_variant {
    const char* name;
    bool with_cli;
    bool version_only;
  };
  const cli_variant variants[] = {{"alone", false, false}, {"processes", true, true}, {"cli_beside", true, false}};
  struct variant_runs {
    std::vector<double> p50s, p99s, cpus;
    std::int64_t cli_runs = 0;
    int failed = 0;
    double cli_cpu_s = 0;
  };
  std::vector<variant_runs> runs(std::size(variants));
  for (int r = 0; r < repeats; ++r) {
    for (std::size_t i = 0; i < std::size(variants); ++i) {
      const auto& v = variants[i];
      auto phase = run_records_phase(team, chunks, dir / (std::string("cli_") + v.name + std::to_string(r)), true,
                                     engine::read_priority::normal, true, 0, std::chrono::seconds(1),
                                     v.with_cli ? parley : fs::path(), v.version_only);
      if (!phase) return std::move(phase).err();
      auto& into = runs[i];
      into.p50s.push_back(phase->stream.p50_us);
      into.p99s.push_back(phase->stream.p99_us);
      into.cpus.push_back(phase->cpu_s);
      into.cli_runs += phase->cli_runs;
      into.failed += phase->cli_failed + phase->stream.failed;
      into.cli_cpu_s += phase->cli_cpu_s;
    }
  }
  boost::json::object figures;
  for (std::size_t i = 0; i < std::size(variants); ++i) {
    const auto& done = runs[i];
    std::printf(
        "ws CLI beside (%s, median of %d): chunk latency p50 %.0f us, p99 %.0f us; server CPU %.2f s; %lld CLI "
        "runs (%d failed, %.2f s CPU)\n",
        variants[i].name, repeats, median_of(done.p50s), median_of(done.p99s), median_of(done.cpus),
        static_cast<long long>(done.cli_runs), done.failed, done.cli_cpu_s);
    failed += done.failed;
    figures[variants[i].name] = {{"chunk_p50_us", median_of(done.p50s)},
                                 {"chunk_p99_us", median_of(done.p99s)},
                                 {"cpu_s", median_of(done.cpus)},
                                 {"cli_runs", done.cli_runs},
                                 {"cli_failed", done.failed},
                                 {"cli_cpu_s", done.cli_cpu_s}};
  }
  // Against the stream alone, and against the same number of processes that touch no store.
  figures["repeats"] = repeats;
  figures["chunk_p99_ratio"] = ratio_of(median_of(runs[2].p99s), median_of(runs[0].p99s));
  figures["cpu_ratio"] = ratio_of(median_of(runs[2].cpus), median_of(runs[0].cpus));
  figures["chunk_p99_ratio_to_processes"] = ratio_of(median_of(runs[2].p99s), median_of(runs[1].p99s));
  figures["cpu_ratio_to_processes"] = ratio_of(median_of(runs[2].cpus), median_of(runs[1].cpus));
  return figures;
}

}  // namespace

int run_ws_bench(const bench_args& args) {
  int subscribers = args.int_or("subscribers", 1000);
  const int dialogs = args.int_or("dialogs", 200);
  const int chunks = args.int_or("chunks", 2000);
  const int load_clients = args.int_or("records-load-clients", 4);
  // Each load client's rounds (a create and a search) per second.
  const int load_rounds = std::max(1, args.int_or("records-load-rounds", 200));
  const int repeats = std::max(1, args.int_or("repeats", 5));
  // `--historical 0` leaves out the records variants that read on the loop (as before issue 20).
  const bool historical = args.int_or("historical", 1) != 0;
  // Which parts run: `--phases fanout,records,cli` (default all three).
  const std::string phases = "," + args.string_or("phases", "fanout,records,cli") + ",";
  const auto runs_phase = [&phases](std::string_view name) {
    return phases.find("," + std::string(name) + ",") != std::string::npos;
  };
  const int fd_limit = raise_fd_limit(2 * std::max(subscribers, dialogs) + 64);
  if (2 * subscribers + 64 > fd_limit) {
    subscribers = (fd_limit - 64) / 2;
    std::printf("ws: the descriptor limit (%d) allows %d subscribers\n", fd_limit, subscribers);
  }
  const fs::path parley = args.values.contains("parley") ? fs::path(args.values.at("parley")) : parley_beside_bench();
  if (runs_phase("cli") && !fs::exists(parley)) {
    std::fprintf(stderr, "parley-bench: no parley binary at %s (--parley PATH)\n", parley.c_str());
    return 1;
  }
  const fs::path dir = scratch_dir();
  write_ws_team(dir, chunks);
  auto team = config::load_team_file(dir / "team.yaml");
  if (!team) {
    std::fprintf(stderr, "parley-bench: %s\n", team.err().message.c_str());
    return 1;
  }
  boost::json::object out{{"bench", "ws"}, {"chunks_per_generation", chunks}};
  int failed = 0;
  const auto run = [&]() -> result<void> {
    if (runs_phase("fanout")) PARLEY_TRY(run_fanout_phases(*team, chunks, subscribers, dialogs, out, failed));
    if (runs_phase("records")) {
      auto figures = run_records_phases(*team, chunks, dir, load_clients, load_rounds, repeats, historical, failed);
      if (!figures) return std::move(figures).err();
      out["records_load"] = std::move(*figures);
    }
    if (runs_phase("cli")) {
      auto figures = run_cli_phases(*team, chunks, dir, parley, repeats, failed);
      if (!figures) return std::move(figures).err();
      out["cli_beside"] = std::move(*figures);
    }
    return ok();
  };
  const auto outcome = run();
  std::error_code ec;
  fs::remove_all(dir, ec);
  if (!outcome) {
    std::fprintf(stderr, "parley-bench: %s\n", outcome.err().message.c_str());
    return 1;
  }
  out["ws_failed_clients"] = failed;
  print_json_line(out);
  return failed == 0 ? 0 : 1;
}

}  // namespace parley::bench
