// Reloads a team's `.minds/mcp.yaml` while Parley runs, as Dominds does: the file is looked at
// every couple of seconds (its modification time and size), read again when it changed, and a
// configuration that reads is handed on (the pool keeps unchanged servers running and replaces the
// others: tools/mcp/mcp_servers.hpp replace). One that does not read changes nothing: the last good
// configuration stays, and the error is logged once, with its file and line.
//
// Polling rather than inotify: the same code everywhere (a file replaced by an editor's rename, a
// folder on a network mount), and one stat every two seconds costs nothing.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "parley/config/mcp_config.hpp"
#include "parley/tools/mcp/session.hpp"

namespace parley::engine {

class mcp_config_watcher {
 public:
  using apply_config = std::function<void(const config::mcp_config& config)>;
  // Starts watching `file` at once; `apply` is called on the executor with each new configuration.
  mcp_config_watcher(boost::asio::any_io_executor executor, std::filesystem::path file, apply_config apply,
                     tools::mcp::log_sink log, std::chrono::milliseconds every = std::chrono::seconds(2));
  ~mcp_config_watcher();
  mcp_config_watcher(const mcp_config_watcher&) = delete;
  mcp_config_watcher& operator=(const mcp_config_watcher&) = delete;

  // Stops watching; nothing is applied afterwards. Also done by the destructor.
  void stop();

  struct state;  // shared with the watching coroutine, which may outlive the watcher by one wake-up

 private:
  std::shared_ptr<state> state_;
};

}  // namespace parley::engine
