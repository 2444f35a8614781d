#include "parley/store/postgres/pg_read_pool.hpp"

#include <algorithm>

namespace parley::pg {

read_pool::read_pool(std::string url, int limit, std::string application_name)
    : url_(std::move(url)), limit_(std::max(limit, 1)), application_name_(std::move(application_name)) {}

result<connection> read_pool::take() {
  {
    parley::unique_lock lock(mutex_);
    lock.wait(freed_, [&]() PARLEY_REQUIRES(mutex_) { return !idle_.empty() || open_ < limit_; });
    if (!idle_.empty()) {
      connection conn = std::move(idle_.back());
      idle_.pop_back();
      return conn;
    }
    ++open_;
  }
  auto opened = connection::open(url_, application_name_);
  if (!opened) {
    parley::lock_guard lock(mutex_);
    --open_;
    freed_.notify_one();
  }
  return opened;
}

void read_pool::give_back(connection conn) {
  parley::lock_guard lock(mutex_);
  if (conn.healthy() && PQtransactionStatus(conn.raw()) == PQTRANS_IDLE) {
    idle_.push_back(std::move(conn));
  } else {
    --open_;
  }
  freed_.notify_one();
}

}  // namespace parley::pg
