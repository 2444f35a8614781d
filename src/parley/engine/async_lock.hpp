// A FIFO async mutex for coroutines on one executor: waiters are resumed in the order they
// asked, and no thread ever blocks. It is not thread-safe by design — every dialog lives on the
// engine's single executor, so the lock only orders coroutines, never threads.
#pragma once

#include <boost/asio/async_result.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/use_awaitable.hpp>
#include "parley/engine/resumer.hpp"

#include <deque>
#include <utility>

namespace parley::engine {

class async_lock {
 public:
  class guard {
   public:
    guard() = default;
    explicit guard(async_lock* lock) : lock_(lock) {}
    guard(guard&& other) noexcept : lock_(std::exchange(other.lock_, nullptr)) {}
    guard& operator=(guard&& other) noexcept {
      if (this != &other) {
        release();
        lock_ = std::exchange(other.lock_, nullptr);
      }
      return *this;
    }
    guard(const guard&) = delete;
    guard& operator=(const guard&) = delete;
    ~guard() { release(); }

   private:
    void release() {
      if (lock_ != nullptr) std::exchange(lock_, nullptr)->unlock();
    }
    async_lock* lock_ = nullptr;
  };

  boost::asio::awaitable<guard> acquire() {
    if (!locked_) {
      locked_ = true;
      co_return guard{this};
    }
    co_await boost::asio::async_initiate<decltype(boost::asio::use_awaitable), void()>(
        [this](auto handler) { waiters_.push_back(make_resumer(std::move(handler))); }, boost::asio::use_awaitable);
    // Ownership was handed over by unlock(): locked_ is still true.
    co_return guard{this};
  }

  bool locked() const noexcept { return locked_; }
  std::size_t waiting() const noexcept { return waiters_.size(); }

 private:
  void unlock() {
    if (waiters_.empty()) {
      locked_ = false;
      return;
    }
    auto resume_next = std::move(waiters_.front());
    waiters_.pop_front();
    resume_next();
  }

  std::deque<std::function<void()>> waiters_;
  bool locked_ = false;
};

}  // namespace parley::engine
