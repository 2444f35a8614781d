// Watches the files a team was read from while `parley serve` runs (docs/team-yaml.md
// "Reloading"): every couple of seconds the files under each watched path are listed with their
// size and modification time, and `changed` is called on the executor when that list differs from
// the last one — a file edited, added, removed or renamed, by a team_mgmt tool or by hand.
//
// A Dominds workspace watches all of `.minds/` except `.minds/memory/`, which the memory tools
// write during drives and which the team does not depend on. Polling, as for mcp.yaml
// (mcp_reload.hpp): the same code for an editor's rename-over and a network mount, and a `.minds/`
// folder holds few files.
#pragma once

#include <boost/asio/any_io_executor.hpp>

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <vector>

namespace parley::engine {

class team_files_watcher {
 public:
  // Starts at once, taking the files as they are now as the team's; `skip`: folders not looked
  // into (and whose files do not count).
  team_files_watcher(boost::asio::any_io_executor executor, std::vector<std::filesystem::path> watched,
                     std::vector<std::filesystem::path> skip, std::function<void()> changed,
                     std::chrono::milliseconds every = std::chrono::seconds(2));
  ~team_files_watcher();
  team_files_watcher(const team_files_watcher&) = delete;
  team_files_watcher& operator=(const team_files_watcher&) = delete;

  // Stops watching; `changed` is not called afterwards. Also done by the destructor.
  void stop();

  struct state;  // shared with the watching coroutine, which may outlive the watcher by one wake-up

 private:
  std::shared_ptr<state> state_;
};

}  // namespace parley::engine
