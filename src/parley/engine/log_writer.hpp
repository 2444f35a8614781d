// Bridges the store's thread-based append callbacks into the engine's executor: `commit` awaits
// durability, `send` does not. Batches reach the store in call order, so a later commit's
// durability implies every earlier send's. Observers hear of each event once it is durable. A commit
// of nothing while no send is on its way returns without a trip to the store: every earlier event is
// durable already.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <atomic>
#include <cstdint>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/engine/observer.hpp"
#include "parley/model/event.hpp"
#include "parley/store/store.hpp"

namespace parley::engine {

class log_writer {
 public:
  log_writer(store& log, boost::asio::any_io_executor executor, std::vector<engine_observer*>& observers)
      : log_(log), executor_(std::move(executor)), observers_(observers) {}

  boost::asio::awaitable<result<void>> commit(std::vector<event> batch);
  void send(std::vector<event> batch);

 private:
  void notify(const std::vector<event>& batch) const;

  store& log_;
  boost::asio::any_io_executor executor_;
  std::vector<engine_observer*>& observers_;
  // Sends the store has not yet called back for (it calls back on its own thread).
  std::atomic<std::int64_t> sends_in_flight_{0};
};

}  // namespace parley::engine
