// Dialogs whose drive ended because the log refused a write (a full disk, a failing device): the
// runtime in memory ran ahead of the log, so it is dropped and loaded again from the log, and the
// drive is retried with backoff until the log takes writes again. Without this, a dialog whose
// message was acknowledged but whose drive hit a full disk sat with needsDrive and no error until
// the server restarted.
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <chrono>

#include "parley/engine/drive_loop.hpp"

namespace parley::engine {

namespace asio = boost::asio;

namespace {

constexpr std::chrono::seconds kFirstRetry{1};
constexpr std::chrono::seconds kLongestRetry{60};

}  // namespace

void drive_loop::note_stalled(dialog_runtime& dialog) {
  if (!store_retry_ || !dialog.poisoned) return;
  stalled_.insert_or_assign(dialog.id(), dialog.store_error);
  if (retrying_stalled_) return;
  retrying_stalled_ = true;
  asio::co_spawn(executor_, retry_stalled(), asio::detached);
}

asio::awaitable<void> drive_loop::retry_stalled() {
  asio::steady_timer timer(executor_);
  std::chrono::seconds delay = kFirstRetry;
  while (!stalled_.empty()) {
    timer.expires_after(delay);
    const auto [waited] = co_await timer.async_wait(asio::as_tuple(asio::use_awaitable));
    if (waited || !store_retry_) break;  // shutting down
    auto pending = std::exchange(stalled_, {});
    bool all_recovered = true;
    for (auto& [id, problem] : pending) {
      auto recovered = co_await recover_stalled(id, problem);
      if (!recovered) {
        // Still refused: the first problem is the one worth recording once writes succeed.
        stalled_.try_emplace(id, problem);
        all_recovered = false;
      }
    }
    delay = all_recovered ? kFirstRetry : std::min(delay * 2, kLongestRetry);
  }
  retrying_stalled_ = false;
}

asio::awaitable<result<void>> drive_loop::recover_stalled(std::string dialog_id, std::string problem) {
  const auto* stale = dialogs_.find(dialog_id);
  if (stale == nullptr || !dialogs_.log().shared_between_processes()) {
    co_return co_await reload_stalled(std::move(dialog_id), std::move(problem));
  }
  // In a store several processes share, the tree is claimed before it is read again: another
  // process may have taken it over (and may still hold it: then it is tried again later).
  const std::string root = stale->row().root_id;
  auto claim = [&log = dialogs_.log(), root] { return log.claim_tree(root); };
  auto claimed = co_await read_off_loop(dialogs_.reads(), std::move(claim));
  if (!claimed) co_return std::move(claimed).err();
  if (!*claimed) co_return make_error(errc::conflict, "another Parley process drives the tree of " + dialog_id);
  auto reloaded = co_await reload_stalled(dialog_id, std::move(problem));
  // Nothing to drive here: the lease goes back at once (a drive gives it back when it settles).
  if (const auto* dialog = dialogs_.find(dialog_id); dialog == nullptr || !dialog->drive_scheduled) {
    dialogs_.log().release_tree(root);
  }
  co_return reloaded;
}

asio::awaitable<result<void>> drive_loop::reload_stalled(std::string dialog_id, std::string problem) {
  // A poisoned runtime at rest is dropped here and replayed from the log.
  auto loaded = co_await dialogs_.load_async(dialog_id);
  if (!loaded) {
    // Gone (unknown, or unreadable): nothing to retry; a read failure of the store is retried.
    if (loaded.err().code == errc::not_found || loaded.err().code == errc::corrupt) co_return ok();
    co_return std::move(loaded).err();
  }
  auto& dialog = **loaded;
  if (dialog.poisoned) co_return ok();  // a drive still holds the old runtime; it notes it again
  {
    auto guard = co_await dialog.lock().acquire();
    if (dialog.row().status != events::dialog_status::running || dialog.row().dead) co_return ok();
    // Reloaded from the log, which owes this dialog nothing: what the log refused was an input
    // (a message, an answer) whose sender was told so, not a drive that must be done again.
    if (!dialog.row().needs_drive) co_return ok();
    auto staged = dialogs_.stage(
        dialog, events::drive_failed{dialog.row().course, "the log refused a write: " + problem +
                                                              "; the drive is retried now that it takes writes"});
    if (staged) staged = dialogs_.stage(dialog, events::drive_resumed{});
    if (!staged) co_return std::move(staged).err();
    if (auto committed = co_await dialogs_.commit(dialog); !committed) co_return committed;
  }
  schedule_if_drivable(dialog);
  co_return ok();
}

}  // namespace parley::engine
