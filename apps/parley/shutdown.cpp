#include "shutdown.hpp"

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <optional>

namespace parley::cli {

namespace asio = boost::asio;
using namespace std::chrono_literals;

asio::awaitable<void> stop_all_drives(engine::engine& eng, store& log, std::string_view reason) {
  const std::string why(reason);  // kept in the frame: the caller's text may be a temporary
  dialog_filter running;
  running.status = events::dialog_status::running;
  const auto deadline = std::chrono::steady_clock::now() + kShutdownGrace;
  asio::steady_timer pause(co_await asio::this_coro::executor);
  while (std::chrono::steady_clock::now() < deadline) {
    auto rows = log.list_dialogs(running);
    if (!rows) break;
    bool busy = false;
    for (const auto& row : *rows) {
      const auto* dialog = eng.find(row.id);
      if (dialog == nullptr) continue;     // never loaded by this process: nothing of it runs
      (void)eng.runs().stop(row.id, why);  // "not generating" is fine
      busy = busy || dialog->drive_scheduled;
    }
    if (!busy) break;
    pause.expires_after(10ms);
    co_await pause.async_wait(asio::use_awaitable);
  }
}

bool run_until_shut_down(asio::io_context& io, const bool& shutdown_done) {
  std::optional<std::chrono::steady_clock::time_point> done_at;
  while (!io.stopped()) {
    io.run_for(50ms);
    if (!shutdown_done || io.stopped()) continue;
    if (!done_at) done_at = std::chrono::steady_clock::now();
    if (std::chrono::steady_clock::now() - *done_at > kShutdownGrace) return false;
  }
  return true;
}

}  // namespace parley::cli
