// One configured MCP server while Parley runs: its process (or HTTP connection) and session,
// started on first use, with the lists it serves cached until the server says they changed.
//
// Lifecycle:
//   - started lazily by the first request (ready()), one start at a time: those who ask while it
//     starts wait for that start;
//   - a session that dies (the process exited, the connection broke) or a start that fails is a
//     crash: the next start waits 1 s, doubling to 30 s after each crash in a row (reset once the
//     server answers a request); a request while it waits fails at once with "MCP server 'x' is
//     restarting after: <why>";
//   - a streamable HTTP session the server no longer knows (404) is started afresh at once;
//   - stop() ends the process now; the next use starts it again without waiting (a reload or a
//     one-shot command ending). The destructor stops it.
//
// One runtime serves every dialog of the members of one sandbox profile (see docs/mcp.md, "Tools",
// for how this differs from Dominds' per-dialog leases of servers that are not
// `truely-stateless`). Runs on one executor.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "parley/config/mcp_config.hpp"
#include "parley/core/result.hpp"
#include "parley/tools/mcp/launch_plan.hpp"
#include "parley/tools/mcp/session.hpp"
#include "parley/tools/mcp/transport_factory.hpp"

namespace parley::tools::mcp {

struct runtime_settings {
  std::filesystem::path workspace;          // a stdio server's default cwd; the root told to servers
  transport_factory make = make_transport;  // how the transport is made
  env_lookup env = process_env;             // where `{env: NAME}` values come from
  log_sink log;                             // empty: log_to_stderr
  std::size_t notification_budget = 1000;   // a second, per session
  launch_wrapper wrap;                      // a stdio server runs under it (empty: as configured)
};

// The resources and resource templates one server lists.
struct resource_listing {
  std::vector<resource_info> resources;
  std::vector<resource_template_info> templates;
};

class server_runtime : public std::enable_shared_from_this<server_runtime> {
 public:
  // Owned through a shared_ptr: its coroutines hold one while they run.
  static std::shared_ptr<server_runtime> create(boost::asio::any_io_executor executor, config::mcp_server_config config,
                                                runtime_settings settings);
  ~server_runtime();
  server_runtime(const server_runtime&) = delete;
  server_runtime& operator=(const server_runtime&) = delete;

  const config::mcp_server_config& config() const noexcept { return config_; }
  const std::string& id() const noexcept { return config_.id; }

  // The running session, started now if need be (within start_timeout), or why there is none.
  boost::asio::awaitable<result<std::shared_ptr<session>>> ready();
  // The server's tools, read again only when the server has said they changed (or restarted).
  boost::asio::awaitable<result<std::shared_ptr<const std::vector<tool_info>>>> tools();
  // What tools() would answer at once — the list read last, while its session runs and has not
  // said it changed — or nullptr when tools() has something to do. Lets the pool skip a round's
  // listing without awaiting (most rounds: parley-bench mcp).
  std::shared_ptr<const std::vector<tool_info>> current_tools() const;
  boost::asio::awaitable<result<tool_call_result>> call_tool(std::string name, boost::json::object arguments,
                                                             call_options options = {});
  // resources/list and resources/templates/list (either may be missing: a server without the
  // resources capability lists none).
  boost::asio::awaitable<result<std::shared_ptr<const resource_listing>>> resources();
  boost::asio::awaitable<result<std::vector<resource_contents>>> read_resource(std::string uri);

  // Ends the process now; a later use starts it again at once.
  void stop(const std::string& why);
  // A number that changes whenever the tools may have changed: a new session, or a list_changed.
  std::uint64_t tools_generation() const;
  // Why the server cannot serve now ("" when it can, or has not been asked to start).
  std::string problem() const;

 private:
  server_runtime(boost::asio::any_io_executor executor, config::mcp_server_config config, runtime_settings settings);
  boost::asio::awaitable<result<std::shared_ptr<session>>> start();
  void note_crash(const std::string& why);
  void note_success() { backoff_ = std::chrono::milliseconds(0); }
  void log(const std::string& line) const;

  boost::asio::any_io_executor executor_;
  config::mcp_server_config config_;
  runtime_settings settings_;
  std::shared_ptr<session> session_;
  std::uint64_t sessions_started_ = 0;
  bool starting_ = false;
  boost::asio::steady_timer start_done_;  // cancelled when a start ends: wakes those who wait for it
  std::chrono::milliseconds backoff_{0};
  std::chrono::steady_clock::time_point restart_at_{};
  std::string last_crash_;
  bool stopped_while_starting_ = false;
  bool session_expired_ = false;  // the configured sessionId is not resumed again
  // Caches, each with the session (its number) and list version it was read at.
  std::shared_ptr<const std::vector<tool_info>> tools_;
  std::uint64_t tools_session_ = 0;
  std::uint64_t tools_version_ = 0;
  std::shared_ptr<const resource_listing> resources_;
  std::uint64_t resources_session_ = 0;
  std::uint64_t resources_version_ = 0;
};

}  // namespace parley::tools::mcp
