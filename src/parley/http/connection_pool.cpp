#include "parley/http/detail/connection_pool.hpp"

namespace parley::http::detail {

std::unique_ptr<connection> connection_pool::take(const std::string& key, const asio::any_io_executor& executor) {
  const auto now = std::chrono::steady_clock::now();
  parley::lock_guard lock(mutex_);
  auto found = idle_.find(key);
  if (found == idle_.end()) return nullptr;
  auto& idle = found->second;
  // Expired and closed connections go first, wherever they are.
  std::erase_if(idle, [&](const auto& conn) { return !conn->is_open() || now - conn->idle_since() >= max_idle_; });
  for (auto it = idle.rbegin(); it != idle.rend(); ++it) {
    if ((*it)->executor() == executor) {
      auto conn = std::move(*it);
      idle.erase(std::next(it).base());
      return conn;
    }
  }
  return nullptr;
}

void connection_pool::put(std::unique_ptr<connection> conn) {
  if (max_per_host_ == 0 || !conn->is_open()) return;
  conn->mark_idle();
  parley::lock_guard lock(mutex_);
  auto& idle = idle_[conn->pool_key()];
  if (idle.size() >= max_per_host_) idle.pop_front();
  idle.push_back(std::move(conn));
}

std::size_t connection_pool::idle_count() const {
  parley::lock_guard lock(mutex_);
  std::size_t count = 0;
  for (const auto& [key, idle] : idle_) count += idle.size();
  return count;
}

}  // namespace parley::http::detail
