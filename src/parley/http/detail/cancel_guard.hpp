// Internal: ties a cancellation slot to whatever a request is waiting on. When the slot fires the
// resolver is cancelled or the socket closed, so the pending operation completes at once; the
// request then sees fired() and reports errc::cancelled. Lives on the request's coroutine frame.
#pragma once

#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/ip/tcp.hpp>

#include "parley/http/detail/connection.hpp"

namespace parley::http::detail {

class cancel_guard {
 public:
  explicit cancel_guard(asio::cancellation_slot slot) : slot_(slot) {
    if (!slot_.is_connected()) return;
    slot_.assign([this](asio::cancellation_type type) {
      if (type != asio::cancellation_type::none) fire();
    });
  }
  ~cancel_guard() {
    if (slot_.is_connected()) slot_.clear();
  }
  cancel_guard(const cancel_guard&) = delete;
  cancel_guard& operator=(const cancel_guard&) = delete;

  void watch(connection* conn) noexcept {
    connection_ = conn;
    if (fired_ && conn != nullptr) conn->close();
  }
  void watch(asio::ip::tcp::resolver* resolver) noexcept {
    resolver_ = resolver;
    if (fired_ && resolver != nullptr) resolver->cancel();
  }
  bool fired() const noexcept { return fired_; }

 private:
  void fire() noexcept {
    fired_ = true;
    if (connection_ != nullptr) connection_->close();
    if (resolver_ != nullptr) resolver_->cancel();
  }

  asio::cancellation_slot slot_;
  connection* connection_ = nullptr;
  asio::ip::tcp::resolver* resolver_ = nullptr;
  bool fired_ = false;
};

}  // namespace parley::http::detail
