#pragma once
// An append to the log awaited on an executor: the store calls back on its writer thread once the
// batch is durable (or refused), and the result is posted back to `executor`. The engine's log
// writer and the flow thread repository both append this way.
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <memory>
#include <utility>
#include <vector>

#include "parley/store/store.hpp"

namespace parley {

// A plain function, not a coroutine: g++ 12 mishandles lambda captures that live inside a
// co_await expression, so the initiation is built here and only awaited in the coroutine.
inline auto async_append(store& log, const boost::asio::any_io_executor& executor, std::vector<event> batch) {
  namespace asio = boost::asio;
  return asio::async_initiate<decltype(asio::use_awaitable), void(result<void>)>(
      // NOLINTNEXTLINE(performance-unnecessary-value-param): the batch is moved into the store
      [&log, executor](auto handler, std::vector<event> events) {
        // The work guard keeps the executor alive until the result is posted back to it.
        auto pending = std::make_shared<decltype(handler)>(std::move(handler));
        auto guard = asio::make_work_guard(executor);
        log.append(std::move(events), [pending, guard, executor](result<void> outcome) mutable {
          asio::post(executor, [pending, outcome = std::move(outcome)]() mutable { (*pending)(std::move(outcome)); });
          guard.reset();
        });
      },
      asio::use_awaitable, std::move(batch));
}

}  // namespace parley
