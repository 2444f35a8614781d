#include "parley/engine/mcp_reload.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <system_error>

namespace parley::engine {

namespace asio = boost::asio;
namespace fs = std::filesystem;

struct mcp_config_watcher::state {
  state(const asio::any_io_executor& executor, fs::path watched, apply_config on_change, tools::mcp::log_sink sink,
        std::chrono::milliseconds period)
      : timer(executor), file(std::move(watched)), apply(std::move(on_change)), log(std::move(sink)), every(period) {}

  asio::steady_timer timer;
  fs::path file;
  apply_config apply;
  tools::mcp::log_sink log;
  std::chrono::milliseconds every;
  bool stopped = false;
  // What the file looked like when it was last read.
  bool existed = false;
  fs::file_time_type modified{};
  std::uintmax_t size = 0;
  std::string last_error;

  void say(const std::string& line) const {
    if (log) {
      log(line);
    } else {
      tools::mcp::log_to_stderr(line);
    }
  }

  // Whether the file differs from when it was last read (and remembers how it is now).
  bool changed() {
    std::error_code ec;
    const bool exists = fs::exists(file, ec);
    const auto now_modified = exists ? fs::last_write_time(file, ec) : fs::file_time_type{};
    const auto now_size = exists ? fs::file_size(file, ec) : 0;
    if (ec) return false;  // in the middle of being replaced: looked at again next time
    const bool differs = exists != existed || now_modified != modified || now_size != size;
    existed = exists;
    modified = now_modified;
    size = now_size;
    return differs;
  }

  void reload() {
    auto read = config::read_mcp_file(file);
    if (!read) {
      if (read.err().message != last_error) {
        say(read.err().message + " (the last good MCP configuration stays in use)");
        last_error = read.err().message;
      }
      return;
    }
    last_error.clear();
    for (const auto& problem : read->problems) say(problem);
    say(file.string() + " changed: MCP servers reconfigured");
    apply(*read);
  }
};

namespace {

asio::awaitable<void> watch(std::shared_ptr<mcp_config_watcher::state> watched) {
  while (!watched->stopped) {
    watched->timer.expires_after(watched->every);
    boost::system::error_code ec;
    co_await watched->timer.async_wait(asio::redirect_error(asio::use_awaitable, ec));
    if (watched->stopped) break;
    if (watched->changed()) watched->reload();
  }
}

}  // namespace

mcp_config_watcher::mcp_config_watcher(asio::any_io_executor executor, fs::path file, apply_config apply,
                                       tools::mcp::log_sink log, std::chrono::milliseconds every)
    : state_(std::make_shared<state>(executor, std::move(file), std::move(apply), std::move(log), every)) {
  (void)state_->changed();  // as it is now: the configuration the team was loaded with
  asio::co_spawn(executor, watch(state_), asio::detached);
}

mcp_config_watcher::~mcp_config_watcher() { stop(); }

void mcp_config_watcher::stop() {
  state_->stopped = true;
  state_->timer.cancel();
}

}  // namespace parley::engine
