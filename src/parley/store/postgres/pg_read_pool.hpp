// The connections the PostgreSQL store reads through: opened as needed up to a bound, reused, and
// dropped when they break. A read waits for a free one rather than opening past the bound, so a
// node never holds more than `postgres_options::read_connections` of the server's slots for reads.
#pragma once

#include <condition_variable>
#include <string>
#include <vector>

#include "parley/core/guarded.hpp"
#include "parley/store/postgres/pg_connection.hpp"

namespace parley::pg {

class read_pool {
 public:
  read_pool(std::string url, int limit, std::string application_name);

  // Runs `read` on a pooled connection; when the connection turns out to be broken (the server
  // restarted), once more on a fresh one.
  template <class Read>
  auto with_connection(Read&& read) -> decltype(read(std::declval<connection&>())) {
    for (int attempt = 0;; ++attempt) {
      auto taken = take();
      if (!taken) return std::move(taken).err();
      auto outcome = read(*taken);
      const bool broken = !taken->healthy();
      give_back(std::move(*taken));
      if (outcome || !broken || attempt > 0) return outcome;
    }
  }

 private:
  result<connection> take();
  void give_back(connection conn);

  const std::string url_;
  const int limit_;
  const std::string application_name_;
  parley::mutex mutex_;
  std::condition_variable freed_;
  std::vector<connection> idle_ PARLEY_GUARDED_BY(mutex_);
  int open_ PARLEY_GUARDED_BY(mutex_) = 0;  // idle or taken
};

}  // namespace parley::pg
