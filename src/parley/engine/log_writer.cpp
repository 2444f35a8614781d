#include "parley/engine/log_writer.hpp"

#include <boost/asio/async_result.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <memory>

namespace parley::engine {

namespace asio = boost::asio;

void log_writer::notify(const std::vector<event>& batch) const {
  for (const auto& ev : batch) {
    for (auto* observer : observers_) observer->on_durable(ev);
  }
}

namespace {

// A plain function, not a coroutine: g++ 12 mishandles lambda captures that live inside a
// co_await expression, so the initiation is built here and only awaited in the coroutine.
auto async_append(store& log, const asio::any_io_executor& executor, std::vector<event> batch) {
  return asio::async_initiate<decltype(asio::use_awaitable), void(result<void>)>(
      [&log, executor](auto handler, std::vector<event> events) {
        // The store calls back on its writer thread; the work guard keeps the executor alive
        // until the result is posted back to it.
        auto pending = std::make_shared<decltype(handler)>(std::move(handler));
        auto guard = asio::make_work_guard(executor);
        log.append(std::move(events), [pending, guard, executor](result<void> outcome) mutable {
          asio::post(executor, [pending, outcome = std::move(outcome)]() mutable { (*pending)(std::move(outcome)); });
          guard.reset();
        });
      },
      asio::use_awaitable, std::move(batch));
}

}  // namespace

asio::awaitable<result<void>> log_writer::commit(std::vector<event> batch) {
  if (batch.empty() && sends_in_flight_.load(std::memory_order_acquire) == 0) {
    // The store has called back for every send, so they are durable (or failed, which an empty
    // commit never reported either). One turn of the executor runs the notifications it posted
    // for them first, as the round trip through the store would have.
    if (!observers_.empty()) {
      co_await asio::post(executor_, asio::use_awaitable);
    }
    co_return ok();
  }
  const bool tell = !observers_.empty();
  std::vector<event> kept = tell ? batch : std::vector<event>{};
  auto outcome = co_await async_append(log_, executor_, std::move(batch));
  if (outcome && tell) notify(kept);
  co_return outcome;
}

void log_writer::send(std::vector<event> batch) {
  if (batch.empty()) return;
  // The store consumes its batch; keep a copy only when someone will be told about the events.
  auto kept = std::make_shared<std::vector<event>>(observers_.empty() ? std::vector<event>{} : batch);
  auto guard = asio::make_work_guard(executor_);
  sends_in_flight_.fetch_add(1, std::memory_order_relaxed);
  log_.append(std::move(batch), [this, kept, guard](const result<void>& outcome) mutable {
    // A failed send leaves a seq gap, so the next commit of that dialog fails too and the
    // drive loop stops: nothing is acknowledged past a lost event.
    if (outcome && !kept->empty()) asio::post(executor_, [this, kept] { notify(*kept); });
    sends_in_flight_.fetch_sub(1, std::memory_order_release);
    guard.reset();
  });
}

}  // namespace parley::engine
