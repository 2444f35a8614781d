// Runs a coroutine to completion on a fresh io_context, for tests of the ToT search.
#pragma once

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>

#include <utility>

namespace parley::tot::testing {

template <class T>
T run_sync(boost::asio::awaitable<T> work) {
  boost::asio::io_context io;
  auto future = boost::asio::co_spawn(io, std::move(work), boost::asio::use_future);
  io.run();
  return future.get();
}

}  // namespace parley::tot::testing
