#include "parley/engine/team_watch.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <system_error>
#include <utility>

namespace parley::engine {

namespace asio = boost::asio;
namespace fs = std::filesystem;

namespace {

// A file as the watcher saw it: its size and modification time.
struct team_file_seen {
  std::uintmax_t size = 0;
  fs::file_time_type modified{};
  bool operator==(const team_file_seen&) const = default;
};
using team_files_seen = std::map<std::string, team_file_seen>;

// Adds `file` as it is now; false when it could not be read (being replaced: looked at next time).
bool note_team_file(const fs::path& file, team_files_seen& seen) {
  std::error_code ec;
  const auto size = fs::file_size(file, ec);
  if (ec) return false;
  const auto modified = fs::last_write_time(file, ec);
  if (ec) return false;
  seen[file.string()] = team_file_seen{size, modified};
  return true;
}

// The files under `root` (or `root` itself), without those under `skip`; nullopt on a listing error.
bool list_team_files(const fs::path& root, const std::vector<fs::path>& skip, team_files_seen& seen) {
  std::error_code ec;
  if (!fs::exists(root, ec)) return !ec;  // absent: an empty listing (its appearance is a change)
  if (!fs::is_directory(root, ec)) return note_team_file(root, seen);
  fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const auto& path = it->path();
    if (std::find(skip.begin(), skip.end(), path) != skip.end()) {
      it.disable_recursion_pending();
      continue;
    }
    std::error_code kind_ec;
    if (it->is_regular_file(kind_ec) && !note_team_file(path, seen)) return false;
  }
  return !ec;
}

}  // namespace

struct team_files_watcher::state {
  state(const asio::any_io_executor& executor, std::vector<fs::path> roots, std::vector<fs::path> skipped,
        std::function<void()> on_change, std::chrono::milliseconds period)
      : timer(executor),
        watched(std::move(roots)),
        skip(std::move(skipped)),
        changed(std::move(on_change)),
        every(period) {}

  asio::steady_timer timer;
  std::vector<fs::path> watched;
  std::vector<fs::path> skip;
  std::function<void()> changed;
  std::chrono::milliseconds every;
  bool stopped = false;
  team_files_seen last;

  // The listing now; nullopt when a file could not be looked at (compared again next time).
  std::optional<team_files_seen> look() const {
    team_files_seen now;
    for (const auto& root : watched) {
      if (!list_team_files(root, skip, now)) return std::nullopt;
    }
    return now;
  }

  // Whether the files differ from the last listing (and remembers the new one).
  bool differs() {
    auto now = look();
    if (!now || *now == last) return false;
    last = std::move(*now);
    return true;
  }
};

namespace {

asio::awaitable<void> watch_team_files(std::shared_ptr<team_files_watcher::state> watched) {
  while (!watched->stopped) {
    watched->timer.expires_after(watched->every);
    boost::system::error_code ec;
    co_await watched->timer.async_wait(asio::redirect_error(asio::use_awaitable, ec));
    if (watched->stopped) break;
    if (watched->differs()) watched->changed();
  }
}

}  // namespace

team_files_watcher::team_files_watcher(asio::any_io_executor executor, std::vector<fs::path> watched,
                                       std::vector<fs::path> skip, std::function<void()> changed,
                                       std::chrono::milliseconds every)
    : state_(std::make_shared<state>(executor, std::move(watched), std::move(skip), std::move(changed), every)) {
  (void)state_->differs();  // as they are now: the files the team was loaded from
  asio::co_spawn(executor, watch_team_files(state_), asio::detached);
}

team_files_watcher::~team_files_watcher() { stop(); }

void team_files_watcher::stop() {
  state_->stopped = true;
  state_->timer.cancel();
}

}  // namespace parley::engine
