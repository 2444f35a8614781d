#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

#include "parley/engine/async_lock.hpp"
#include "parley/engine/async_signal.hpp"

namespace parley::engine {
namespace {

namespace asio = boost::asio;

asio::awaitable<void> hold_and_record(async_lock& lock, std::vector<int>& order, int id) {
  auto guard = co_await lock.acquire();
  order.push_back(id);
  // Yield while holding the lock so the others queue up behind it.
  co_await asio::post(co_await asio::this_coro::executor, asio::use_awaitable);
  order.push_back(-id);
}

TEST(AsyncLock, WaitersRunOneAtATimeInArrivalOrder) {
  asio::io_context io;
  async_lock lock;
  std::vector<int> order;
  for (int id = 1; id <= 4; ++id) asio::co_spawn(io, hold_and_record(lock, order, id), asio::detached);
  io.run();
  EXPECT_EQ(order, (std::vector<int>{1, -1, 2, -2, 3, -3, 4, -4}));
  EXPECT_FALSE(lock.locked());
  EXPECT_EQ(lock.waiting(), 0U);
}

TEST(AsyncSignal, NotifyAllWakesEveryWaiterOnce) {
  asio::io_context io;
  async_signal signal;
  int woken = 0;
  for (int i = 0; i < 3; ++i) {
    asio::co_spawn(
        io,
        [&]() -> asio::awaitable<void> {
          co_await signal.wait();
          ++woken;
        },
        asio::detached);
  }
  io.poll();
  EXPECT_EQ(woken, 0);
  signal.notify_all();
  io.run();
  EXPECT_EQ(woken, 3);
}

}  // namespace
}  // namespace parley::engine
