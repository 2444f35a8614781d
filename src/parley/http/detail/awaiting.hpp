// What the client's coroutines share: how they await an operation (as a tuple, so an error is a
// value, never an exception) and how a time limit is said in an error.
#pragma once

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <chrono>
#include <string>

namespace parley::http::detail {

inline constexpr auto kAwait = boost::asio::as_tuple(boost::asio::use_awaitable);

inline std::string ms(std::chrono::milliseconds value) { return std::to_string(value.count()) + " ms"; }

}  // namespace parley::http::detail
