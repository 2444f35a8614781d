// Bridges the store's thread-based append callbacks into the engine's executor: `commit` awaits
// durability, `send` does not (its batch is appended deferred: the store may hold it a moment to
// share the next commit's fsync). Batches reach the store in call order, so a later commit's
// durability implies every earlier send's. Observers hear of each event once it is durable. A commit
// of nothing while no send is on its way returns without a trip to the store: every earlier event is
// durable already. A send the store refused is reported by the next commit of each dialog it
// carried events of, even an empty one, so no drive ends as if its sent events were durable.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "parley/core/guarded.hpp"
#include "parley/core/result.hpp"
#include "parley/engine/observer.hpp"
#include "parley/model/event.hpp"
#include "parley/store/store.hpp"

namespace parley::engine {

class log_writer {
 public:
  log_writer(store& log, boost::asio::any_io_executor executor, std::vector<engine_observer*>& observers)
      : log_(log), executor_(std::move(executor)), observers_(observers) {}

  // `dialog_id`: the dialog whose refused sends this commit reports (see above).
  boost::asio::awaitable<result<void>> commit(std::string_view dialog_id, std::vector<event> batch);
  void send(std::vector<event> batch);

 private:
  void notify(const std::vector<event>& batch) const;
  result<void> refused_send_of(std::string_view dialog_id);

  store& log_;
  boost::asio::any_io_executor executor_;
  std::vector<engine_observer*>& observers_;
  // Sends the store has not yet called back for (it calls back on its own thread).
  std::atomic<std::int64_t> sends_in_flight_{0};
  // Why the store refused a send, by the dialogs it carried events of; written on the store's thread.
  parley::mutex refused_mutex_;
  std::unordered_map<std::string, error> refused_ PARLEY_GUARDED_BY(refused_mutex_);
};

}  // namespace parley::engine
