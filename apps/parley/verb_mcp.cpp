// `parley mcp`: the team as an MCP server on stdin and stdout (docs/mcp.md, "Parley as an MCP
// server"), for an MCP client that starts it as a child process. Stdout carries the protocol and
// nothing else; what Parley says goes to stderr. It writes the data directory's store like
// `parley serve`, so it refuses, naming the server, a directory a running server holds: that
// server's /mcp (`parley serve --mcp`) serves the same team. When stdin ends, or at SIGINT/SIGTERM,
// it stops as `parley serve` does: calls still waiting stop, generations are stopped and recorded,
// and every dialog stays in the log for the next server to take up.
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>

#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <memory>

#include "cli_context.hpp"
#include "cli_messages.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/server/answer_relay.hpp"
#include "parley/server/mcp_stdio.hpp"
#include "parley/server/pubchan.hpp"
#include "parley/server/server_context.hpp"
#include "parley/server/store_reads.hpp"
#include "parley/server/users.hpp"
#include "parley/tot/tot_tool.hpp"
#include "serve_lines.hpp"
#include "shutdown.hpp"
#include "verb_usage.hpp"
#include "verbs.hpp"

namespace parley::cli {

namespace asio = boost::asio;

namespace {

// The store is held by another process: said with what to do instead.
error held_store_refusal(error err) {
  if (err.code == errc::conflict) {
    err.message += "; point the MCP client at that server's /mcp instead (`parley serve --mcp`)";
  }
  return err;
}

// Serves until stdin ends, then stops the drives and flushes the log.
asio::awaitable<void> serve_stdio_then_stop(server::mcp_stdio& stdio, engine::engine& eng, store& log, bool& done) {
  co_await stdio.run();
  eng.drives().set_store_retry(false);
  co_await stop_all_drives(eng, log, "the MCP client closed its input");
  eng.stop_mcp();  // the team's own MCP servers end with the drives that used them
  log.flush();
  done = true;
}

}  // namespace

int run_verb_mcp(const std::vector<std::string>& raw) {
  auto args = parse_args(raw, arg_spec_of("mcp"));
  if (!args) return report(args.err());
  if (args->help) return show_verb_help();
  if (!args->positionals.empty()) return report(make_error(errc::invalid_argument, usage_of("mcp")));
  auto settings = mcp_settings_of(*args, true);
  if (!settings) return report(settings.err());
  // A client that closes its end mid-write is a client gone, not a reason to die by signal.
  std::signal(SIGPIPE, SIG_IGN);
  // The protocol keeps stdout's file to itself; whatever else would print there goes to stderr.
  std::fflush(stdout);
  const int protocol_out = ::dup(STDOUT_FILENO);
  if (protocol_out < 0 || ::dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
    return report(make_error(errc::io_error, "stdout: cannot be kept for the protocol"));
  }
  const struct close_on_exit {
    int fd;
    ~close_on_exit() { ::close(fd); }
  } protocol_fd{protocol_out};

  auto inputs = prepare_engine_inputs(*args);
  if (!inputs) return report(held_store_refusal(std::move(inputs).err()));
  config::team_config& team = inputs->team;
  store& log = *inputs->log;

  asio::io_context io(1);
  auto tools = engine::build_builtin_tools(team);
  auto tot_binding = std::make_shared<tot::tot_tool_binding>();
  tot_binding->logs = tot_logs_of(*args, team, "tot-logs");
  tot::offer_tree_of_thoughts(team, tools, tot_binding);
  auto created = engine::engine::create(io.get_executor(), log, team, std::move(inputs->providers), std::move(tools));
  if (!created) return report(created.err());
  auto& eng = **created;
  tot_binding->engine = &eng;
  eng.drives().set_protected_dirs(std::move(inputs->protected_dirs));

  const server::server_options options;
  const server::user_directory users;  // one user, the operator, as `parley serve` without --users
  server::pubchan channels(eng, log, options);
  server::answer_relay answers(eng);
  const bool scripted = announce_member_models(team, eng, stderr);  // stdout is the protocol's
  server::server_context context{eng, log, options, channels, users, scripted, PARLEY_VERSION};
  context.answers = &answers;
  server::store_reads reads;
  context.reads = &reads;
  eng.dialogs().set_reads(&reads);
  channels.set_store_reads(&reads, io.get_executor());

  // Work a stopped server or an earlier `parley mcp` left owed is taken up, as `parley serve` does.
  eng.drives().set_store_retry(true);
  std::vector<std::string> unreadable;
  auto recovered = eng.runs().recover_all(&unreadable);
  if (!recovered) return report(recovered.err());
  for (const auto& problem : unreadable) {
    std::fprintf(stderr, "parley: %s\n", warning_line(say_cli(msg::not_recovered, {{"problem", problem}})).c_str());
  }

  server::mcp_stdio stdio(io.get_executor(), context, users.only_user(), std::move(**settings), STDIN_FILENO,
                          protocol_fd.fd);
  std::fprintf(stderr, "parley: %s\n", say_cli(msg::mcp_serving_stdio, {{"dir", data_dir_of(*args).string()}}).c_str());
  bool done = false;
  asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&stdio](boost::system::error_code ec, int) {
    if (!ec) stdio.stop_reading();
  });
  auto serving = serve_stdio_then_stop(stdio, eng, log, done);
  asio::co_spawn(io, std::move(serving), [&signals](std::exception_ptr) { signals.cancel(); });
  const bool gave_up = !run_until_shut_down(io, done);
  log.flush();
  if (const auto problem = log.health_problem(); !problem.empty()) {
    std::fprintf(stderr, "parley: %s\n", say_cli(msg::store_failed_at_shutdown, {{"problem", problem}}).c_str());
    return kExitRuntime;
  }
  if (gave_up) std::_Exit(kExitOk);  // coroutines still hold references; the log is flushed
  return kExitOk;
}

}  // namespace parley::cli
