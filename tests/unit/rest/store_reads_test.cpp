// The store's read thread (server/store_reads.hpp): a read that waits — as a read of the SQLite
// store waits for the writer's commit — does not hold up the loop that awaits it, and the awaiting
// coroutine resumes on the loop's thread with the read's value.
#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "parley/server/store_reads.hpp"

namespace parley::server {
namespace {

namespace asio = boost::asio;
using namespace std::chrono_literals;

using StoreReads = ::testing::Test;

TEST_F(StoreReads, AWaitingReadLeavesTheLoopFreeAndResumesOnItWithTheValue) {
  asio::io_context io(1);
  store_reads reads;
  std::promise<void> release;
  auto released = release.get_future().share();
  std::vector<std::string> order;
  int value = 0;
  std::thread::id resumed_on;
  std::thread::id read_on;

  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        auto read = [&] {
          read_on = std::this_thread::get_id();
          // Held until the loop has run something else: a blocked loop would never release it.
          return released.wait_for(30s) == std::future_status::ready ? 42 : -1;
        };
        value = co_await reads.run(std::move(read));
        resumed_on = std::this_thread::get_id();
        order.emplace_back("read");
      },
      asio::detached);
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        asio::steady_timer timer(io, 1ms);
        co_await timer.async_wait(asio::use_awaitable);
        order.emplace_back("loop");
        release.set_value();
      },
      asio::detached);
  io.run();

  EXPECT_EQ(value, 42) << "the read was released by the loop while it waited";
  EXPECT_EQ(order, (std::vector<std::string>{"loop", "read"}));
  EXPECT_EQ(resumed_on, std::this_thread::get_id()) << "the handler goes on on the loop's thread";
  EXPECT_NE(read_on, std::this_thread::get_id()) << "the read ran on the read thread";
}

}  // namespace
}  // namespace parley::server
