// parley-bench records: seed 002's conversation records at size. Loads --messages (default
// 1,000,000) messages across --dialogues (default 10,000) dialogs into the durable SQLite store —
// as log events, so every message also goes through the records reducer, the FTS index and the
// transcript projection — and reports the ingest rate. Then `parley serve`'s REST stack (in this
// process, on 127.0.0.1) answers each records GET route and full-text search --queries times over
// one keep-alive connection; p50/p99 latency per route, measured at the client.
#include <boost/asio/connect.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <boost/json/parse.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "bench_team.hpp"
#include "bench_verbs.hpp"
#include "parley/config/team.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/engine.hpp"
#include "parley/model/conversation_reducer.hpp"
#include "parley/model/event_codec.hpp"
#include "parley/server/http_server.hpp"
#include "parley/server/pubchan.hpp"
#include "parley/server/server_context.hpp"
#include "parley/store/store.hpp"
#include "percentile.hpp"

namespace parley::bench {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
namespace fs = std::filesystem;
using steady = std::chrono::steady_clock;

constexpr std::int64_t kRecordsStartMs = 1'750'000'000'000;
constexpr std::int64_t kSecond = 1000;
constexpr std::size_t kVocabulary = 5000;

// The words messages are made of: 5 to 9 random letters, so the trigram index sees text about as
// varied as prose (a handful of repeated words would make every search match everything).
const std::vector<std::string>& words() {
  static const std::vector<std::string> list = [] {
    std::mt19937_64 rng(2026);
    std::vector<std::string> out;
    out.reserve(kVocabulary);
    for (std::size_t i = 0; i < kVocabulary; ++i) {
      std::string word;
      const auto length = 5 + rng() % 5;
      for (std::size_t c = 0; c < length; ++c) word += static_cast<char>('a' + rng() % 26);
      out.push_back(std::move(word));
    }
    return out;
  }();
  return list;
}

const std::string& any_word(std::mt19937_64& rng) { return words()[rng() % kVocabulary]; }

struct dialog_history {
  std::string id;
  std::int64_t seq = 0;
};

event make(const dialog_history& d, std::string_view type, boost::json::object payload, std::int64_t ts) {
  event ev;
  ev.dialog_id = d.id;
  ev.root_id = d.id;
  ev.seq = d.seq;
  // Every payload here is complete: decoding it cannot fail.
  ev.payload = decode_payload(type, payload).value();
  ev.ts_ms = ts;
  return ev;
}

std::string sentence(std::mt19937_64& rng, int words) {
  std::string out;
  for (int i = 0; i < words; ++i) {
    if (!out.empty()) out += ' ';
    out += any_word(rng);
  }
  return out;
}

// One dialog's events: created, then `messages` alternating human question / AI answer, a few
// seconds apart, with a two-hour pause now and then (a new session) and the last question left
// unanswered in some dialogs (an open or unresponded turn).
std::vector<event> dialog_events(dialog_history& d, int messages, std::mt19937_64& rng) {
  std::vector<event> out;
  out.reserve(static_cast<std::size_t>(messages) + 1);
  std::int64_t ts = kRecordsStartMs + static_cast<std::int64_t>(rng() % (30 * 24 * 3600)) * kSecond;
  ++d.seq;
  out.push_back(make(d, event_type::dialog_created, {{"memberId", "worker"}, {"kind", "root"}, {"depth", 0}}, ts));
  for (int i = 0; i < messages; ++i) {
    ts += (rng() % 50 == 0 ? 2 * 3600 : 5 + static_cast<std::int64_t>(rng() % 60)) * kSecond;
    ++d.seq;
    if (i % 2 == 0) {
      out.push_back(make(
          d, event_type::user_message,
          {{"course", 1}, {"content", sentence(rng, 8)}, {"msgId", "m" + std::to_string(d.seq)}, {"origin", "user"}},
          ts));
    } else {
      out.push_back(make(d, event_type::generation_finished,
                         {{"course", 1},
                          {"genseq", d.seq},
                          {"thinking", ""},
                          {"saying", sentence(rng, 16)},
                          {"toolCalls", boost::json::array{}},
                          {"finishReason", "stop"},
                          {"usage", boost::json::object{{"inputTokens", 10}, {"outputTokens", 20}}},
                          {"interrupted", false}},
                         ts));
    }
  }
  return out;
}

struct ingest_figures {
  double seconds = 0;
  std::int64_t events = 0;
  std::int64_t transactions = 0;
};

// Appends every dialog's history, `per_batch` dialogs to a batch, without waiting between
// batches (the store's group commit), then waits for all of it to be durable.
result<ingest_figures> ingest(store& log, int dialogues, int messages_each, std::vector<std::string>& ids) {
  std::mt19937_64 rng(42);
  constexpr int per_batch = 20;
  const auto start = steady::now();
  std::vector<event> batch;
  auto failed = std::make_shared<std::string>();
  for (int i = 0; i < dialogues; ++i) {
    dialog_history d{"dlg-" + std::to_string(i)};
    ids.push_back(d.id);
    auto events = dialog_events(d, messages_each, rng);
    std::move(events.begin(), events.end(), std::back_inserter(batch));
    if ((i + 1) % per_batch == 0 || i + 1 == dialogues) {
      log.append(std::move(batch), [failed](result<void> done) {
        if (!done && failed->empty()) *failed = done.err().message;
      });
      batch = {};
    }
  }
  log.flush();
  if (!failed->empty()) return make_error(errc::internal, "ingest failed: " + *failed);
  ingest_figures out;
  out.seconds = std::chrono::duration<double>(steady::now() - start).count();
  const auto stats = log.stats();
  out.events = stats.events;
  out.transactions = stats.transactions;
  return out;
}

// The REST stack of `parley serve`, on its own thread.
struct server_stack {
  asio::io_context io{1};
  std::unique_ptr<store> log;
  server::server_options options;
  std::unique_ptr<engine::engine> eng;
  std::unique_ptr<server::pubchan> channels;
  std::unique_ptr<server::server_context> context;
  std::unique_ptr<server::http_server> listener;
  std::thread thread;
  asio::executor_work_guard<asio::io_context::executor_type> work = asio::make_work_guard(io);
};

// One keep-alive connection; GET and time each request.
class timing_client {
 public:
  explicit timing_client(unsigned short port) : socket_(io_) {
    socket_.connect({asio::ip::make_address("127.0.0.1"), port});
  }
  // The JSON body, or null when the status was not 200 (counted as a failure).
  boost::json::value get(const std::string& target, std::vector<double>& latencies_us, int& failures) {
    bhttp::request<bhttp::empty_body> req{bhttp::verb::get, target, 11};
    req.set(bhttp::field::host, "127.0.0.1");
    const auto start = steady::now();
    bhttp::write(socket_, req);
    bhttp::response<bhttp::string_body> res;
    bhttp::read(socket_, buffer_, res);
    latencies_us.push_back(std::chrono::duration<double, std::micro>(steady::now() - start).count());
    if (res.result_int() != 200) {
      if (failures++ == 0)
        std::fprintf(stderr, "records: %s -> %u %s\n", target.c_str(), res.result_int(), res.body().c_str());
      return nullptr;
    }
    return boost::json::parse(res.body());
  }

 private:
  asio::io_context io_;
  asio::ip::tcp::socket socket_;
  beast::flat_buffer buffer_;
};

std::string text_at(const boost::json::value& v, std::initializer_list<std::string_view> path) {
  const boost::json::value* at = &v;
  for (const auto key : path) {
    if (at->is_object()) {
      const auto* next = at->as_object().if_contains(key);
      if (next == nullptr) return {};
      at = next;
    } else if (at->is_array() && !at->as_array().empty()) {
      at = &at->as_array().front();
    } else {
      return {};
    }
  }
  return at->is_string() ? std::string(at->as_string()) : std::string{};
}

struct route_figures {
  std::string name;
  std::vector<double> latencies_us;
};

// Each route --queries times over random dialogues; ids for the deeper routes come from the
// answers of the shallower ones, as a client would get them.
int measure_routes(unsigned short port, const std::vector<std::string>& dialog_ids, int queries,
                   std::vector<route_figures>& routes) {
  timing_client client(port);
  std::mt19937_64 rng(7);
  int failures = 0;
  auto route = [&](const char* name) -> std::vector<double>& {
    for (auto& r : routes) {
      if (r.name == name) return r.latencies_us;
    }
    routes.push_back({name, {}});
    return routes.back().latencies_us;
  };
  for (int i = 0; i < queries; ++i) {
    const std::string& dialog = dialog_ids[rng() % dialog_ids.size()];
    const auto dialogue = client.get("/api/dialogues/" + dialog, route("GET /api/dialogues/{id}"), failures);
    const std::string dialogue_id = text_at(dialogue, {"dialogue", "id"});
    const auto sessions =
        client.get("/api/dialogues/" + dialogue_id + "/sessions", route("GET /api/dialogues/{id}/sessions"), failures);
    client.get("/api/dialogues/" + dialogue_id + "/latest_session", route("GET /api/dialogues/{id}/latest_session"),
               failures);
    client.get("/api/dialogues/" + dialogue_id + "/unresponded_turns",
               route("GET /api/dialogues/{id}/unresponded_turns"), failures);
    const std::string session_id = text_at(sessions, {"sessions", "0", "id"});
    client.get("/api/sessions/" + session_id, route("GET /api/sessions/{id}"), failures);
    const auto turns =
        client.get("/api/sessions/" + session_id + "/turns?limit=20", route("GET /api/sessions/{id}/turns"), failures);
    const std::string turn_id = text_at(turns, {"turns", "0", "id"});
    client.get("/api/turns/" + turn_id, route("GET /api/turns/{id}"), failures);
    const auto messages =
        client.get("/api/turns/" + turn_id + "/messages", route("GET /api/turns/{id}/messages"), failures);
    client.get("/api/messages/" + text_at(messages, {"messages", "0", "id"}), route("GET /api/messages/{id}"),
               failures);
    const std::string word = any_word(rng);
    const std::string other = any_word(rng);
    client.get("/api/messages/search?q=" + word + "+" + other + "&dialogue_id=" + dialogue_id,
               route("GET /api/messages/search (two words, one dialogue)"), failures);
    client.get("/api/messages/search?q=" + word + "&limit=20", route("GET /api/messages/search (one word, all)"),
               failures);
    client.get("/api/messages/search?q=" + word + "+" + other + "&limit=20",
               route("GET /api/messages/search (two words, all)"), failures);
  }
  return failures;
}

std::string key_of(const std::string& route_name) {
  std::string key;
  for (const char c : route_name) {
    if (std::isalnum(static_cast<unsigned char>(c)) != 0) {
      key += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!key.empty() && key.back() != '_') {
      key += '_';
    }
  }
  while (!key.empty() && key.back() == '_') key.pop_back();
  return key;
}

}  // namespace

int run_records_bench(const bench_args& args) {
  const int total_messages = args.int_or("messages", 1'000'000);
  const int dialogues = args.int_or("dialogues", 10'000);
  const int queries = args.int_or("queries", 200);
  if (dialogues <= 0 || total_messages < dialogues * 2 || queries <= 0) {
    std::fprintf(stderr, "parley-bench records: needs --dialogues > 0, --messages >= 2 x dialogues, --queries > 0\n");
    return 2;
  }
  const int messages_each = total_messages / dialogues;
  std::random_device device;
  const fs::path dir = fs::temp_directory_path() / ("parley-bench-records-" + std::to_string(device()));
  write_engine_team(dir, 1);
  auto team = config::load_team_file(dir / "team.yaml");
  auto opened = open_sqlite_store((dir / "data").string());
  if (!team || !opened) {
    std::fprintf(stderr, "parley-bench records: %s\n", (!team ? team.err().message : opened.err().message).c_str());
    return 1;
  }
  server_stack server;
  server.log = std::move(*opened);

  std::vector<std::string> ids;
  auto ingested = ingest(*server.log, dialogues, messages_each, ids);
  if (!ingested) {
    std::fprintf(stderr, "parley-bench records: %s\n", ingested.err().message.c_str());
    return 1;
  }
  const double loaded = double(dialogues) * messages_each;
  const double rate = loaded / ingested->seconds;
  std::printf(
      "records: %.0f messages in %d dialogues ingested in %.1f s: %.0f messages/s (%lld events, %lld commits, "
      "durable SQLite)\n",
      loaded, dialogues, ingested->seconds, rate, static_cast<long long>(ingested->events),
      static_cast<long long>(ingested->transactions));
  const auto db_bytes = fs::file_size(dir / "data" / "parley.db");

  auto providers = engine::build_providers(*team);
  if (!providers) return 1;
  server.options.port = 0;
  auto eng = engine::engine::create(server.io.get_executor(), *server.log, *team, std::move(*providers),
                                    engine::build_builtin_tools());
  if (!eng) {
    std::fprintf(stderr, "parley-bench records: %s\n", eng.err().message.c_str());
    return 1;
  }
  server.eng = std::move(*eng);
  server.channels = std::make_unique<server::pubchan>(*server.eng, *server.log, server.options);
  server.context = std::make_unique<server::server_context>(server::server_context{
      *server.eng, *server.log, server.options, *server.channels, server::single_operator(), true, "bench"});
  auto listening = server::http_server::listen(server.io.get_executor(), *server.context);
  if (!listening) {
    std::fprintf(stderr, "parley-bench records: %s\n", listening.err().message.c_str());
    return 1;
  }
  server.listener = std::move(*listening);
  server.listener->start();
  server.thread = std::thread([&] { server.io.run(); });

  std::vector<route_figures> routes;
  const int failures = measure_routes(server.listener->port(), ids, queries, routes);

  asio::post(server.io, [&] { server.listener->stop(); });
  server.work.reset();
  server.io.stop();
  server.thread.join();
  server.listener.reset();
  server.context.reset();
  server.channels.reset();
  server.eng.reset();
  server.log.reset();
  std::error_code ec;
  fs::remove_all(dir, ec);

  boost::json::object out{{"bench", "records"},
                          {"messages", loaded},
                          {"dialogues", dialogues},
                          {"ingest_messages_per_s", rate},
                          {"ingest_s", ingested->seconds},
                          {"db_mb", double(db_bytes) / (1024.0 * 1024.0)},
                          {"queries_per_route", queries},
                          {"failed_requests", failures}};
  for (const auto& route : routes) {
    const double p50 = percentile(route.latencies_us, 0.5);
    const double p99 = percentile(route.latencies_us, 0.99);
    std::printf("  %-48s p50 %8.0f us   p99 %8.0f us\n", route.name.c_str(), p50, p99);
    out[key_of(route.name) + "_p50_us"] = p50;
    out[key_of(route.name) + "_p99_us"] = p99;
  }
  print_json_line(out);
  return failures == 0 ? 0 : 1;
}

}  // namespace parley::bench
