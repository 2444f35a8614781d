// A one-shot broadcast for coroutines on one executor: `wait` suspends until the next
// `notify_all`. Used to wait for a dialog to become idle. Not thread-safe, like async_lock.
#pragma once

#include <boost/asio/async_result.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/use_awaitable.hpp>
#include "parley/engine/resumer.hpp"

#include <vector>

namespace parley::engine {

class async_signal {
 public:
  boost::asio::awaitable<void> wait() {
    co_await boost::asio::async_initiate<decltype(boost::asio::use_awaitable), void()>(
        [this](auto handler) { waiters_.push_back(make_resumer(std::move(handler))); }, boost::asio::use_awaitable);
  }

  bool has_waiters() const noexcept { return !waiters_.empty(); }

  void notify_all() {
    auto waiters = std::exchange(waiters_, {});
    for (auto& resume : waiters) resume();
  }

 private:
  std::vector<std::function<void()>> waiters_;
};

}  // namespace parley::engine
