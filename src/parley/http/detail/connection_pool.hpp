// Internal: idle keep-alive connections by host. Only connections whose last response was read to
// the end go back; a connection idle for longer than max_idle is dropped rather than reused.
#pragma once

#include <chrono>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "parley/core/guarded.hpp"
#include "parley/http/detail/connection.hpp"

namespace parley::http::detail {

class connection_pool {
 public:
  connection_pool(std::size_t max_per_host, std::chrono::milliseconds max_idle)
      : max_per_host_(max_per_host), max_idle_(max_idle) {}

  // The most recently used live connection for `key` bound to `executor`, or null. Reusing a
  // connection only on its own executor keeps its operations and a cancellation's close() serial.
  std::unique_ptr<connection> take(const std::string& key, const asio::any_io_executor& executor);
  void put(std::unique_ptr<connection> conn);
  std::size_t idle_count() const;

 private:
  mutable parley::mutex mutex_;
  std::unordered_map<std::string, std::deque<std::unique_ptr<connection>>> idle_ PARLEY_GUARDED_BY(mutex_);
  std::size_t max_per_host_;
  std::chrono::milliseconds max_idle_;
};

}  // namespace parley::http::detail
