// The msgIds whose check and commit are under way. A create, post or answer with a client's msgId
// asks the log whether the id was taken (find_input) on the read thread, and commits after: two
// inputs with the same id at once would both find nothing and both be taken. So each holds a
// claim on its id from before the check until its commit has ended, and a second input with the
// same id waits for the first's claim to go before it checks — and then finds what the first
// committed. Nothing is held per id once its input is durable: the log's index answers from then on.
//
// On the engine's executor only, like async_lock.
#pragma once

#include <boost/asio/awaitable.hpp>

#include <memory>
#include <string>
#include <unordered_map>
#include <utility>

#include "parley/engine/async_signal.hpp"

namespace parley::engine {

class input_claims {
 public:
  // Held while one input with its msgId is checked and committed; released when destroyed.
  class claim {
   public:
    claim() = default;
    claim(input_claims& owner, std::string msg_id) : owner_(&owner), msg_id_(std::move(msg_id)) {}
    claim(claim&& other) noexcept : owner_(std::exchange(other.owner_, nullptr)), msg_id_(std::move(other.msg_id_)) {}
    claim& operator=(claim&& other) noexcept {
      if (this != &other) {
        release();
        owner_ = std::exchange(other.owner_, nullptr);
        msg_id_ = std::move(other.msg_id_);
      }
      return *this;
    }
    claim(const claim&) = delete;
    claim& operator=(const claim&) = delete;
    ~claim() { release(); }

   private:
    void release() {
      if (auto* owner = std::exchange(owner_, nullptr)) owner->release(msg_id_);
    }
    input_claims* owner_ = nullptr;
    std::string msg_id_;
  };

  // Waits until no other input holds `msg_id`, then claims it. An empty id claims nothing.
  boost::asio::awaitable<claim> acquire(std::string msg_id) {
    if (msg_id.empty()) co_return claim{};
    // Looked up again after every wake: the released entry is gone, and another waiter may have
    // claimed the id first.
    for (auto it = held_.find(msg_id); it != held_.end(); it = held_.find(msg_id)) co_await it->second->wait();
    held_.emplace(msg_id, std::make_unique<async_signal>());
    co_return claim{*this, std::move(msg_id)};
  }

  std::size_t held() const noexcept { return held_.size(); }

 private:
  void release(const std::string& msg_id) {
    auto node = held_.extract(msg_id);
    if (!node.empty()) node.mapped()->notify_all();  // the waiters resume later (posted), and look again
  }

  std::unordered_map<std::string, std::unique_ptr<async_signal>> held_;
};

}  // namespace parley::engine
