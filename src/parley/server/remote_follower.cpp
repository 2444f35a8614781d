#include "parley/server/remote_follower.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace parley::server {

namespace asio = boost::asio;

remote_follower::remote_follower(asio::any_io_executor executor, store& log, engine::store_reads* reads,
                                 pubchan& channels, tree_inputs& inputs, std::chrono::milliseconds catch_up_every)
    : executor_(std::move(executor)),
      log_(log),
      reads_(reads),
      channels_(channels),
      inputs_(inputs),
      catch_up_every_(catch_up_every),
      timer_(executor_) {}

remote_follower::~remote_follower() {
  alive_->store(false);
  channels_.on_new_watch({});
  log_.watch_changes({});
}

void remote_follower::start() {
  auto on_hints = [this, alive = alive_, executor = executor_](change_hints hints) {
    if (!alive->load()) return;
    asio::post(executor, [this, alive, hints = std::move(hints)]() mutable {
      if (alive->load()) asio::co_spawn(executor_, take(std::move(hints)), asio::detached);
    });
  };
  log_.watch_changes(std::move(on_hints));
  // A hint that came before the first subscriber of a dialog was not followed: read it once now.
  channels_.on_new_watch([this](const std::string& dialog_id) {
    want_.insert(dialog_id);
    asio::co_spawn(executor_, catch_up(), asio::detached);
  });
  asio::co_spawn(executor_, run_timer(), asio::detached);
}

void remote_follower::stop() {
  alive_->store(false);
  channels_.on_new_watch({});
  log_.watch_changes({});
  timer_.cancel();
}

asio::awaitable<void> remote_follower::take(change_hints hints) {
  if (hints.missed) {
    // Every watched dialog is read again: what was sent while nobody listened is in the log.
    for (const auto& [id, seq] : channels_.watched_log_seqs()) want_.insert(id);
  }
  std::vector<std::string> listed;   // roots whose list entry changed
  std::vector<std::string> created;  // subdialogs of watched trees
  for (const auto& hint : hints.appended) {
    // Lists are shown only to connections; a node with none reads no rows for them.
    if (hint.list_changed && channels_.connection_count() > 0) listed.push_back(hint.root_id);
    if (hint.created && hint.dialog_id != hint.root_id && channels_.watches(hint.root_id)) {
      created.push_back(hint.dialog_id);
    }
    const auto seen = channels_.watched_log_seq(hint.dialog_id);
    if (seen && *seen < hint.seq) want_.insert(hint.dialog_id);
  }
  // What subscribers watch first: the announcements wait for it, not the other way round.
  co_await catch_up();
  for (auto& root : listed) co_await announce_list_entry(std::move(root));
  for (auto& child : created) co_await announce_created(std::move(child));
  if (hints.missed || !hints.inputs_for.empty()) co_await inputs_.deliver_pending();
}

asio::awaitable<void> remote_follower::catch_up() {
  if (reading_) co_return;  // the read under way reads want_ again when it is done
  reading_ = true;
  while (!want_.empty() && alive_->load()) {
    std::vector<std::pair<std::string, std::int64_t>> watched;
    for (const auto& id : want_) {
      if (const auto seen = channels_.watched_log_seq(id)) watched.emplace_back(id, *seen);
    }
    want_.clear();
    if (watched.empty()) break;
    auto read = [&log = log_, &watched] { return log.read_since(watched); };
    auto found = co_await engine::read_off_loop(reads_, std::move(read));
    // What cannot be read now is read again on the timer.
    if (!found || !alive_->load()) break;
    for (const auto& since : *found) {
      if (!since.events.empty()) channels_.publish_remote(since.row, since.events);
    }
  }
  reading_ = false;
}

asio::awaitable<void> remote_follower::announce_created(std::string dialog_id) {
  auto read = [&log = log_, &dialog_id]() -> result<std::pair<dialog_row, std::vector<event>>> {
    auto events = log.read_events(dialog_id, 0);
    if (!events) return std::move(events).err();
    auto row = log.get_dialog(dialog_id);
    if (!row) return std::move(row).err();
    if (!*row) return make_error(errc::not_found, "no dialog " + dialog_id);
    if (events->size() > 1) events->resize(1);  // its dialog_created is all its parent shows
    return std::pair{std::move(**row), std::move(*events)};
  };
  auto found = co_await engine::read_off_loop(reads_, std::move(read));
  if (found && alive_->load()) channels_.publish_remote(found->first, found->second);
}

asio::awaitable<void> remote_follower::announce_list_entry(std::string root_id) {
  auto read = [&log = log_, &root_id] { return log.get_dialog(root_id); };
  auto root = co_await engine::read_off_loop(reads_, std::move(read));
  if (root && *root && alive_->load()) channels_.publish_remote_list_entry(**root);
}

asio::awaitable<void> remote_follower::run_timer() {
  while (alive_->load()) {
    timer_.expires_after(catch_up_every_);
    const auto [cancelled] = co_await timer_.async_wait(asio::as_tuple(asio::use_awaitable));
    if (cancelled || !alive_->load()) break;
    co_await take(change_hints{.missed = true});
  }
}

}  // namespace parley::server
