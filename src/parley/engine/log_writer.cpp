#include "parley/engine/log_writer.hpp"

#include <algorithm>
#include <memory>

#include "parley/store/async_append.hpp"

namespace parley::engine {

namespace asio = boost::asio;

void log_writer::notify(const std::vector<event>& batch) const {
  for (const auto& ev : batch) {
    for (auto* observer : observers_) observer->on_durable(ev);
  }
}

result<void> log_writer::refused_send_of(std::string_view dialog_id) {
  parley::lock_guard lock(refused_mutex_);
  if (refused_.empty()) return ok();
  const auto found = refused_.find(std::string(dialog_id));
  if (found == refused_.end()) return ok();
  error refused = std::move(found->second);
  refused.message = "the log refused earlier events of dialog " + found->first + ": " + refused.message;
  refused_.erase(found);
  return refused;
}

asio::awaitable<result<void>> log_writer::commit(std::string_view dialog_id, std::vector<event> batch) {
  if (batch.empty() && sends_in_flight_.load(std::memory_order_acquire) == 0) {
    // The store has called back for every send, so each is durable or recorded as refused. One
    // turn of the executor runs the notifications it posted for them first, as the round trip
    // through the store would have.
    if (!observers_.empty()) {
      co_await asio::post(executor_, asio::use_awaitable);
    }
    co_return refused_send_of(dialog_id);
  }
  const bool tell = !observers_.empty();
  std::vector<event> kept = tell ? batch : std::vector<event>{};
  auto outcome = co_await async_append(log_, executor_, std::move(batch));
  // The store called back for every earlier send before this batch.
  if (outcome) outcome = refused_send_of(dialog_id);
  if (outcome && tell) notify(kept);
  co_return outcome;
}

void log_writer::send(std::vector<event> batch) {
  if (batch.empty()) return;
  // The store consumes its batch; keep a copy only when someone will be told about the events.
  auto kept = std::make_shared<std::vector<event>>(observers_.empty() ? std::vector<event>{} : batch);
  std::vector<std::string> dialogs;
  for (const auto& ev : batch) {
    if (std::find(dialogs.begin(), dialogs.end(), ev.dialog_id) == dialogs.end()) dialogs.push_back(ev.dialog_id);
  }
  auto guard = asio::make_work_guard(executor_);
  sends_in_flight_.fetch_add(1, std::memory_order_relaxed);
  auto on_durable = [this, kept, guard, dialogs = std::move(dialogs)](const result<void>& outcome) mutable {
    // A refused send is reported by the next commit of each of its dialogs: nothing is
    // acknowledged past a lost event.
    if (!outcome) {
      parley::lock_guard lock(refused_mutex_);
      for (auto& id : dialogs) refused_.try_emplace(std::move(id), outcome.err());
    } else if (!kept->empty()) {
      asio::post(executor_, [this, kept] { notify(*kept); });
    }
    sends_in_flight_.fetch_sub(1, std::memory_order_release);
    guard.reset();
  };
  // Nobody waits on it: the store may hold it for a moment to share the next awaited commit.
  log_.append_deferred(std::move(batch), std::move(on_durable));
}

}  // namespace parley::engine
