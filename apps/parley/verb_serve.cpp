// `parley serve`: the engine behind an HTTP port — the REST API, the PubChan WebSocket and the
// web UI (docs/server.md). Everything runs on one single-threaded io_context, the engine's executor.
// SIGTERM/SIGINT shut down gracefully: stop accepting, stop running generations (their partial
// output is kept), close WebSockets with 1001, flush the store, exit 0.
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <set>
#include <string_view>
#include <system_error>
#include <vector>

#include "cli_context.hpp"
#include "cli_messages.hpp"
#include "cli_text.hpp"
#include "command_hints.hpp"
#include "parley/core/terminal_text.hpp"
#include "parley/core/time.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/message_analyst.hpp"
#include "parley/engine/title_writer.hpp"
#include "parley/server/answer_relay.hpp"
#include "parley/server/auth.hpp"
#include "parley/server/flow_host.hpp"
#include "parley/server/flow_progress_relay.hpp"
#include "parley/server/http_server.hpp"
#include "parley/server/mcp_endpoint.hpp"
#include "parley/server/metrics_observer.hpp"
#include "parley/server/otlp_exporter.hpp"
#include "parley/server/pubchan.hpp"
#include "parley/server/reflection_schedule.hpp"
#include "parley/server/remote_follower.hpp"
#include "parley/server/request_guard.hpp"
#include "parley/server/rest_replay.hpp"
#include "parley/server/server_context.hpp"
#include "parley/server/span_recorder.hpp"
#include "parley/server/store_reads.hpp"
#include "parley/server/tot_progress_relay.hpp"
#include "parley/server/tree_inputs.hpp"
#include "parley/server/tree_takeover.hpp"
#include "parley/server/turn_window_timers.hpp"
#include "parley/server/uploads.hpp"
#include "parley/tot/run_board.hpp"
#include "parley/tot/tot_tool.hpp"
#include "serve_lines.hpp"
#include "serve_team_reload.hpp"
#include "server_link.hpp"
#include "shutdown.hpp"
#include "verb_usage.hpp"
#include "verbs.hpp"

namespace parley::cli {

namespace asio = boost::asio;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

constexpr const char* kDefaultReflectionGoal =
    "Review your recent work: what went well, what to change, and what is worth remembering.";
constexpr const char* kVersion = "0.1.0";

// --web DIR; else $PARLEY_WEB_ROOT; else where an install put it, beside the binary's bin/
// (<prefix>/bin/parley → <prefix>/share/parley/web, whatever the prefix: cmake --install, the .deb);
// else web/dist of the source tree this binary was built in (build/<preset>/apps/parley/parley →
// ../../../web/dist), else ./web/dist, else the web/dist of the source tree it was built from;
// else no UI.
result<std::string> find_web_root(const parsed_args& args) {
  std::error_code ec;
  if (const auto web = args.value("web")) {
    if (!fs::is_directory(*web, ec)) return make_error(errc::invalid_argument, "--web: no directory '" + *web + "'");
    return fs::absolute(*web, ec).string();
  }
  if (const char* env = std::getenv("PARLEY_WEB_ROOT"); env != nullptr && *env != '\0') {
    if (fs::is_directory(env, ec)) return fs::absolute(env, ec).string();
  }
  const auto exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const auto installed = exe.parent_path() / PARLEY_WEB_FROM_BINDIR;
    if (fs::is_regular_file(installed / "index.html", ec)) return fs::weakly_canonical(installed, ec).string();
    const auto beside_source = exe.parent_path() / ".." / ".." / ".." / "web" / "dist";
    if (fs::is_directory(beside_source, ec)) return fs::weakly_canonical(beside_source, ec).string();
  }
  if (fs::is_directory("web/dist", ec)) return fs::absolute("web/dist", ec).string();
  // The source tree it was built from, wherever the binary was copied and whatever the directory.
  if (fs::is_directory(PARLEY_WEB_DIST_DIR, ec)) return fs::weakly_canonical(PARLEY_WEB_DIST_DIR, ec).string();
  return std::string{};
}

// --allowed-host NAME, repeated or comma-separated: more names a request's Host may give.
result<std::vector<std::string>> parse_allowed_hosts(const parsed_args& args) {
  std::vector<std::string> names;
  for (const auto& value : args.values_of("allowed-host")) {
    std::string_view rest(value);
    while (true) {
      const auto comma = rest.find(',');
      auto name = server::normalize_host_name(rest.substr(0, comma), "--allowed-host");
      if (!name) return std::move(name).err();
      names.push_back(std::move(*name));
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
  }
  return names;
}

std::string url_host(const std::string& host) {
  return host.find(':') != std::string::npos && host.front() != '[' ? "[" + host + "]" : host;
}

// Where a CLI verb on this machine reaches the server: a wildcard address is reached on loopback.
std::string local_api_url(const std::string& host, unsigned short port) {
  const std::string reachable = host == "0.0.0.0" ? "127.0.0.1" : host == "::" ? "::1" : host;
  return "http://" + url_host(reachable) + ":" + std::to_string(port) + "/";
}

// A whole number of seconds, 1 s to 30 days, as milliseconds; absent: 0 (the seed's default).
result<std::int64_t> parse_seconds(const parsed_args& args, const std::string& name) {
  auto seconds = args.integer(name, 1, 30LL * 24 * 3600);
  if (!seconds) return std::move(seconds).err();
  return seconds->value_or(0) * 1000;
}

// --NAME N, a whole number in [low, high]; absent: nullopt.
result<std::optional<std::size_t>> parse_count(const parsed_args& args, const std::string& name, std::size_t low,
                                               std::size_t high) {
  auto count = args.integer(name, static_cast<std::int64_t>(low), static_cast<std::int64_t>(high));
  if (!count) return std::move(count).err();
  if (!*count) return std::optional<std::size_t>{};
  return std::optional<std::size_t>{static_cast<std::size_t>(**count)};
}

// What `parley serve`'s flags say, each checked (errors name the flag).
struct serve_settings {
  server::server_options options;
  server::user_directory users;
  std::int64_t turn_window_ms = 0;
  std::int64_t session_gap_ms = 0;
  std::int64_t reflect_every_ms = 0;
  std::string reflect_goal;
  std::optional<std::size_t> loaded_dialogs;                              // the engine's default when absent
  engine::read_priority read_priority = engine::read_priority::adaptive;  // of the store's read thread
  bool token_from_environment = false;                                    // $PARLEY_TOKEN
  server::otlp_options traces;                                            // an empty endpoint: no traces
  bool trace_content = false;                                             // message content on the spans
  std::optional<server::mcp_settings> mcp;                                // --mcp: the MCP endpoint at /mcp
};

result<serve_settings> read_serve_settings(const parsed_args& args) {
  serve_settings settings;
  server::server_options& options = settings.options;
  options.host = args.value("host").value_or(options.host);
  if (options.host.empty()) return make_error(errc::invalid_argument, "--host: expected an address");
  auto port = args.integer("port", 0, 65535);
  if (!port) return std::move(port).err();
  if (*port) options.port = static_cast<std::uint16_t>(**port);
  options.token = args.value("token").value_or("");
  if (args.value("token") && options.token.empty()) {
    return make_error(errc::invalid_argument, "--token: expected a non-empty token");
  }
  // $PARLEY_TOKEN stands in for --token when neither --token nor --users is given: a service
  // manager passes it from a file only root reads (packaging/parley.service), and it stays off the
  // command line, which every local user can read in /proc.
  if (const char* env = std::getenv("PARLEY_TOKEN");
      env != nullptr && *env != '\0' && !args.value("token") && !args.value("users")) {
    options.token = env;
    settings.token_from_environment = true;
  }
  if (const auto users_file = args.value("users")) {
    if (args.value("token")) {
      return make_error(errc::invalid_argument, "--users: each user has a token of their own; drop --token");
    }
    PARLEY_TRY_ASSIGN(settings.users, server::user_directory::load(*users_file));
  }
  // Without --token or --users the server makes a token of its own. Off loopback anyone who can
  // reach the port could drive the team without one. On loopback too, any web page the browser
  // opens can send requests here; the token is what those pages cannot get. The web UI gets it in
  // the index.html it is served (only on loopback: off it, whoever reaches the page would get it).
  if (options.token.empty() && !settings.users.multi_user()) {
    options.token = server::generate_token();
    options.token_in_page = server::is_loopback_host(options.host);
  }
  PARLEY_TRY(server::normalize_host_name(options.host, "--host"));
  PARLEY_TRY_ASSIGN(options.allowed_hosts, parse_allowed_hosts(args));
  options.cors_origin = args.value("cors-origin").value_or("");
  PARLEY_TRY_ASSIGN(options.web_root, find_web_root(args));

  auto upload_limit = parse_count(args, "max-upload-bytes", 1024, std::size_t{1} << 30);
  if (!upload_limit) return std::move(upload_limit).err();
  if (*upload_limit) options.max_upload_bytes = **upload_limit;
  auto max_connections = parse_count(args, "max-connections", 1, 1'000'000);
  if (!max_connections) return std::move(max_connections).err();
  if (*max_connections) options.max_connections = **max_connections;
  auto per_client = parse_count(args, "max-connections-per-client", 1, 1'000'000);
  if (!per_client) return std::move(per_client).err();
  if (*per_client) options.max_connections_per_client = **per_client;

  PARLEY_TRY_ASSIGN(settings.turn_window_ms, parse_seconds(args, "turn-window"));
  PARLEY_TRY_ASSIGN(settings.session_gap_ms, parse_seconds(args, "session-gap"));
  PARLEY_TRY_ASSIGN(settings.reflect_every_ms, parse_seconds(args, "reflect-every"));
  settings.reflect_goal = args.value("reflect-goal").value_or(kDefaultReflectionGoal);
  if (settings.reflect_goal.empty()) return make_error(errc::invalid_argument, "--reflect-goal: expected a goal");
  // How many dialogs the engine keeps in memory (dialog_host::set_limit); absent, its default.
  PARLEY_TRY_ASSIGN(settings.loaded_dialogs, parse_count(args, "loaded-dialogs", 1, 10'000'000));
  if (const auto priority = args.value("read-priority")) {
    if (*priority == "background") {
      settings.read_priority = engine::read_priority::background;
    } else if (*priority == "normal") {
      settings.read_priority = engine::read_priority::normal;
    } else if (*priority != "adaptive") {
      return make_error(errc::invalid_argument, "--read-priority: expected adaptive, normal or background, got '" +
                                                    terminal_safe(*priority) + "'");
    }
  }
  PARLEY_TRY_ASSIGN(settings.traces, server::otlp_options_from(args.value("otlp-endpoint").value_or("")));
  // OpenTelemetry's GenAI instrumentations read this variable for the same choice.
  const char* capture = std::getenv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT");
  settings.trace_content = args.has("trace-content") || (capture != nullptr && std::string_view(capture) == "true");
  PARLEY_TRY_ASSIGN(settings.mcp, mcp_settings_of(args, args.has("mcp")));
  return settings;
}

asio::awaitable<void> shut_down(engine::engine& eng, store& log, server::http_server& listener,
                                server::pubchan& channels, server::turn_window_timers* windows,
                                engine::message_analyst* analyst, engine::title_writer* titler, bool& done) {
  listener.stop();
  eng.drives().set_store_retry(false);
  if (windows != nullptr) windows->stop();
  if (analyst != nullptr) analyst->stop();
  if (titler != nullptr) titler->stop();
  co_await stop_all_drives(eng, log, "the server is shutting down");
  eng.stop_mcp();  // the MCP servers' processes end with the drives that used them
  channels.close_all();
  log.flush();
  done = true;
}

// Forgets the run board the tree_of_thoughts tool was given, before the board goes.
class board_release {
 public:
  explicit board_release(tot::tot_tool_binding& binding) : binding_(binding) {}
  board_release(const board_release&) = delete;
  board_release& operator=(const board_release&) = delete;
  ~board_release() { binding_.board = nullptr; }

 private:
  tot::tot_tool_binding& binding_;
};

asio::awaitable<void> resume_interrupted_flows(server::flow_host& flows) {
  std::vector<std::string> failures;
  const std::size_t resumed = co_await flows.resume_interrupted(&failures);
  for (const auto& problem : failures) {
    std::fprintf(stderr, "parley: %s\n", warning_line(say_cli(msg::not_resumed, {{"problem", problem}})).c_str());
  }
  if (resumed > 0) {
    const auto count = static_cast<std::int64_t>(resumed);
    std::printf("parley: %s\n", say_count_cli(msg::flows_resumed_one, msg::flows_resumed_many, count).c_str());
  }
  std::fflush(stdout);
}

}  // namespace

int run_verb_serve(const std::vector<std::string>& raw) {
  auto args = parse_args(raw, arg_spec_of("serve"));
  if (!args) return report(args.err());
  if (args->help) return show_verb_help();
  if (!args->positionals.empty()) return report(make_error(errc::invalid_argument, usage_of("serve")));

  auto settings = read_serve_settings(*args);
  if (!settings) return report(settings.err());
  server::server_options& options = settings->options;
  const server::user_directory& users = settings->users;

  auto inputs = prepare_engine_inputs(*args);
  if (!inputs) return report(inputs.err());
  config::team_config& team = inputs->team;
  store& log = *inputs->log;

  // Media of image and audio messages live beside the log; models that take them read them here.
  server::upload_store uploads(uploads_dir_of(*args));
  // The io_context outlives everything that holds its sockets and timers. A clean shutdown ends
  // only once no coroutine is left, so nothing refers back into these objects when they go.
  asio::io_context io(1);
  std::unique_ptr<engine::engine> eng;
  auto tot_binding = std::make_shared<tot::tot_tool_binding>();
  std::unique_ptr<server::pubchan> channels;
  std::unique_ptr<server::answer_relay> answers;  // what /v1/chat/completions and /mcp follow
  std::unique_ptr<server::http_server> listener;
  std::unique_ptr<server::turn_window_timers> windows;
  std::unique_ptr<server::reflection_schedule> reflections;
  std::unique_ptr<server::flow_host> flows;
  std::unique_ptr<engine::message_analyst> analyst;
  std::unique_ptr<engine::title_writer> titler;
  {
    // Members of kind flow run on the flow layer, with the same providers as the engine's members.
    auto flow_members = server::flow_host::create(io.get_executor(), log, team, inputs->providers);
    if (!flow_members) return report(flow_members.err());
    flows = std::move(*flow_members);
    auto tools = engine::build_builtin_tools(team);
    tot_binding->logs = tot_logs_of(*args, team, "tot-logs");
    tot::offer_tree_of_thoughts(team, tools, tot_binding);
    auto created = engine::engine::create(io.get_executor(), log, team, std::move(inputs->providers), std::move(tools));
    if (!created) return report(created.err());
    eng = std::move(*created);
    tot_binding->engine = eng.get();
  }
  eng->drives().set_protected_dirs(std::move(inputs->protected_dirs));
  eng->records().set_windows(settings->turn_window_ms, settings->session_gap_ms);
  if (settings->loaded_dialogs) eng->dialogs().set_limit(*settings->loaded_dialogs);
  eng->members().set_attachment_reader([&uploads](std::string_view id) { return uploads.read_bytes(id); });
  channels = std::make_unique<server::pubchan>(*eng, log, options);
  answers = std::make_unique<server::answer_relay>(*eng);

  const bool scripted_offline = announce_member_models(team, *eng, stdout);
  if (scripted_offline) std::printf("parley: %s\n", say_cli(msg::offline_scripted).c_str());
  server::tot_progress_relay tot_progress(*channels);
  tot::run_board tot_runs(*eng, tot_binding->logs, &tot_progress);
  // A member's tree_of_thoughts runs go through the board too (listed live, progress on the PubChan);
  // the board goes before the engine that holds the tool, so the tool forgets it first.
  tot_binding->board = &tot_runs;
  const board_release forget_board(*tot_binding);
  server::server_context context{*eng, log, options, *channels, users, scripted_offline, kVersion, &uploads, &tot_runs};
  context.data_dir = data_dir_of(*args);
  context.flows = flows.get();
  server::metrics_observer metrics(*eng);  // GET /metrics' model and tool figures
  eng->add_observer(&metrics);
  context.metrics = &metrics;
  // Traces of the dialog tree to an OTLP collector, when one is configured (docs/server.md).
  std::unique_ptr<server::otlp_exporter> traces;
  std::unique_ptr<server::span_recorder> spans;
  if (!settings->traces.endpoint.empty()) {
    traces = std::make_unique<server::otlp_exporter>(io.get_executor(), settings->traces,
                                                     server::trace_resource{"parley", kVersion});
    spans = std::make_unique<server::span_recorder>(
        *eng, server::span_recorder_options{settings->trace_content},
        [exporter = traces.get()](server::trace_span&& span) { exporter->enqueue(std::move(span)); });
    eng->add_observer(spans.get());
    traces->start();
    context.traces = traces.get();
    const std::string content = settings->trace_content ? say_cli(msg::traces_with_content) : std::string();
    std::printf("parley: %s%s\n", say_cli(msg::traces_go_to, {{"endpoint", settings->traces.endpoint}}).c_str(),
                content.c_str());
  }
  context.answers = answers.get();
  // MCP's streamable HTTP at /mcp (docs/mcp.md), behind the same token and checks as the API.
  std::unique_ptr<server::mcp_endpoint> mcp;
  if (settings->mcp) {
    mcp = std::make_unique<server::mcp_endpoint>(*settings->mcp);
    context.mcp = mcp.get();
  }
  // After the context: its reads end (joined) before what they read goes.
  server::store_reads reads(settings->read_priority);
  context.reads = &reads;
  eng->dialogs().set_reads(&reads);                      // the engine's misses and msgId checks too
  channels->set_store_reads(&reads, io.get_executor());  // and the PubChan's hierarchies
  flows->set_store_reads(&reads);                        // and the flows' threads
  server::flow_progress_relay flow_progress(*channels);
  flows->set_observer(&flow_progress);
  // Input reaches the node that drives its tree (a store several nodes share; tree_inputs.hpp).
  server::tree_inputs routed_inputs(*eng, log, &reads);
  context.inputs = &routed_inputs;
  // Seed 002's analysis of human messages and embeddings (team.yaml `records`), off the drives.
  if (!team.records.analyst.empty() || team.records.embeddings) {
    analyst = std::make_unique<engine::message_analyst>(io.get_executor(), *eng, engine::build_embeddings_client(team));
    eng->add_observer(analyst.get());
    context.analyst = analyst.get();
  }
  if (team.titles == config::title_mode::model) {  // the model's title after a root's first answer
    titler = std::make_unique<engine::title_writer>(io.get_executor(), *eng);
    eng->add_observer(titler.get());
  }

  std::vector<std::string> unreadable;
  // The team (and with it .minds/mcp.yaml) is read again when its files change, as Dominds does.
  watch_team_for_reload(*eng, tot_binding);
  eng->drives().set_store_retry(true);
  std::vector<std::string> replay_roots;  // driven by their own engines, not the served one
  auto recovered = eng->runs().recover_all(&unreadable, &replay_roots);
  if (!recovered) return report(recovered.err());
  asio::co_spawn(io, server::rest::recover_replays(context, std::move(replay_roots)), asio::detached);
  for (const auto& problem : unreadable) {
    const std::string command = hint_command("check");
    std::fprintf(stderr, "parley: %s\n",
                 warning_line(say_cli(msg::not_recovered_see, {{"problem", problem}, {"command", command}})).c_str());
  }
  if (*recovered > 0) {
    const auto count = static_cast<std::int64_t>(*recovered);
    std::printf("parley: %s\n", say_count_cli(msg::recovered_one, msg::recovered_many, count).c_str());
  }
  // Trees whose node died or stalled are taken up here (a store shared by several nodes).
  std::unique_ptr<server::tree_takeover> takeover;
  std::unique_ptr<server::store_reads> follower_reads;  // the follower's own: a busy API does not delay it
  std::unique_ptr<server::remote_follower> follower;
  if (log.shared_between_processes()) {
    takeover =
        std::make_unique<server::tree_takeover>(io.get_executor(), *eng, postgres_options_for_verb().lease_ttl / 2);
    takeover->start();
    // What the other nodes append and forward, live here (remote_follower.hpp).
    follower_reads = std::make_unique<server::store_reads>(settings->read_priority);
    follower = std::make_unique<server::remote_follower>(io.get_executor(), log, follower_reads.get(), *channels,
                                                         routed_inputs, std::chrono::seconds(1));
    follower->start();
  }
  // Flow steps a crash cut run to their end, off the start-up path (flow_host::resume_interrupted).
  asio::co_spawn(io, resume_interrupted_flows(*flows), asio::detached);
  // Response windows that passed while the server was down close now, at their own deadlines.
  if (auto* records = log.records()) {
    windows = std::make_unique<server::turn_window_timers>(
        io.get_executor(), *eng, *records, [] { return now_ms(); }, &reads);
    if (auto started = windows->start(); !started) return report(started.err());
  }
  if (settings->reflect_every_ms > 0) {
    reflections = std::make_unique<server::reflection_schedule>(
        io.get_executor(), *eng, std::chrono::milliseconds(settings->reflect_every_ms), settings->reflect_goal);
    reflections->start();
  }

  auto listening = server::http_server::listen(io.get_executor(), context);
  if (!listening) return report(listening.err());
  listener = std::move(*listening);
  listener->start();
  // CLI verbs that write, given this data directory, go through this API (cli/server_link.hpp):
  // its URL in the directory's lock, its token in a file only this user reads.
  if (auto announced = log.announce_api(local_api_url(options.host, listener->port())); !announced) {
    std::fprintf(stderr, "parley: %s\n", warning_line(error_text(announced.err())).c_str());
  }
  std::optional<credential_file> credential;
  if (!options.token.empty()) {
    auto written = credential_file::write(data_dir_of(*args), options.token);
    if (written) {
      credential.emplace(std::move(*written));
    } else {
      const std::string refused = say_cli(msg::cli_cannot_use_server, {{"error", written.err().message}});
      std::fprintf(stderr, "parley: %s\n", warning_line(refused).c_str());
    }
  }
  // SIGINT/SIGTERM are caught from before the serving line: a supervisor that stops the server the
  // moment it says it serves gets a clean shutdown, not the default action (asio queues a signal
  // that comes before the wait below).
  asio::signal_set signals(io, SIGINT, SIGTERM);
  std::string url = "http://" + url_host(options.host) + ":" + std::to_string(listener->port()) + "/";
  // A token from $PARLEY_TOKEN is not printed: under a service manager this line goes to its log.
  if (!options.token.empty())
    url += settings->token_from_environment ? "  (token: $PARLEY_TOKEN)" : "#token=" + options.token;
  if (options.web_root.empty()) {
    std::printf("parley: %s\n", say_cli(msg::no_web_ui).c_str());
  } else {
    std::printf("parley: %s\n", say_cli(msg::web_ui_from, {{"dir", terminal_safe(options.web_root)}}).c_str());
  }
  if (mcp) {
    const std::string mcp_url = "http://" + url_host(options.host) + ":" + std::to_string(listener->port()) + "/mcp";
    std::printf("parley: %s\n", say_cli(msg::mcp_at, {{"url", mcp_url}}).c_str());
  }
  // The one start-up line that stays the same in every language: supervisors, scripts and the
  // tests wait for it to learn the address (docs/server.md, "Language").
  std::printf("parley: serving %s\n", url.c_str());
  std::fflush(stdout);

  // The first SIGINT/SIGTERM starts the shutdown; io.run_for() returns when nothing is left to
  // run, or, once the shutdown is done, after a grace period for clients that never close.
  bool shutdown_done = false;
  signals.async_wait([&](boost::system::error_code ec, int) {
    if (ec) return;
    std::printf("parley: %s\n", say_cli(msg::shutting_down).c_str());
    std::fflush(stdout);
    if (reflections) reflections->stop();
    if (takeover) takeover->stop();
    if (follower) follower->stop();
    if (traces) asio::co_spawn(io, traces->stop(), asio::detached);
    if (mcp) mcp->end_all();  // MCP calls still waiting stop; their dialogs stay in the log
    auto shutdown =
        shut_down(*eng, log, *listener, *channels, windows.get(), analyst.get(), titler.get(), shutdown_done);
    asio::co_spawn(io, std::move(shutdown), asio::detached);
  });
  const bool gave_up = !run_until_shut_down(io, shutdown_done);
  const int status = exit_status_after_shutdown(log, *eng);
  if (gave_up) {
    // Coroutines still hold references into the engine and the sockets; the log is flushed, so
    // leaving without unwinding them is safe and avoids tearing them down in the wrong order.
    std::_Exit(status);
  }
  return status;
}

}  // namespace parley::cli
