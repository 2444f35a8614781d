// Runs jobs concurrently on the current executor with at most `limit` in flight, and resumes
// when all are done. The explorer generates and evaluates one step's candidates this way, so a
// slow model call does not hold the others while a burst never exceeds the provider's budget.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/this_coro.hpp>

#include <algorithm>
#include <functional>
#include <memory>
#include <vector>

#include "parley/engine/async_signal.hpp"

namespace parley::tot {

using parallel_job = std::function<boost::asio::awaitable<void>()>;

inline boost::asio::awaitable<void> run_bounded(std::vector<parallel_job> jobs, std::size_t limit) {
  if (jobs.empty()) co_return;
  struct shared_state {
    std::vector<parallel_job> jobs;
    std::size_t next = 0;
    std::size_t running = 0;
    engine::async_signal done;
  };
  auto shared = std::make_shared<shared_state>();
  shared->jobs = std::move(jobs);
  const std::size_t workers = std::clamp<std::size_t>(limit, 1, shared->jobs.size());
  shared->running = workers;
  auto executor = co_await boost::asio::this_coro::executor;
  for (std::size_t w = 0; w < workers; ++w) {
    boost::asio::co_spawn(
        executor,
        [shared]() -> boost::asio::awaitable<void> {
          while (shared->next < shared->jobs.size()) {
            co_await shared->jobs[shared->next++]();
          }
          if (--shared->running == 0) shared->done.notify_all();
        },
        boost::asio::detached);
  }
  while (shared->running > 0) {
    co_await shared->done.wait();
  }
}

}  // namespace parley::tot
