// Runs one awaitable to completion on a test's io_context and returns its value.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>

#include <exception>
#include <optional>
#include <utility>

namespace parley::testing {

template <class T>
T run_awaitable(boost::asio::io_context& io, boost::asio::awaitable<T> task) {
  std::optional<T> value;
  std::exception_ptr failure;
  // Through a void coroutine: co_spawn's handler would need T to be default-constructible.
  auto store = [](boost::asio::awaitable<T> inner, std::optional<T>& out) -> boost::asio::awaitable<void> {
    out.emplace(co_await std::move(inner));
  };
  boost::asio::co_spawn(io, store(std::move(task), value), [&](std::exception_ptr e) { failure = e; });
  io.restart();
  io.run();
  if (failure) std::rethrow_exception(failure);
  return std::move(*value);
}

}  // namespace parley::testing
