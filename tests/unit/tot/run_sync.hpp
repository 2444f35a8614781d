// Runs a coroutine to completion on a fresh io_context, for tests of the ToT search.
#pragma once

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <optional>
#include <utility>

namespace parley::tot::testing {

template <class T>
T run_sync(boost::asio::awaitable<T> work) {
  boost::asio::io_context io;
  std::optional<T> out;
  boost::asio::co_spawn(
      io, [&]() -> boost::asio::awaitable<void> { out.emplace(co_await std::move(work)); }, boost::asio::detached);
  io.run();
  return std::move(*out);
}

}  // namespace parley::tot::testing
