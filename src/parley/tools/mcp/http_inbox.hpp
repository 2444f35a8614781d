// What the streamable HTTP transport has received and not yet handed out: the messages of every
// POST answer and of the GET stream in arrival order, then (once something failed) the error that
// ended the transport. One receiver at a time waits in next(); everything runs on one executor.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>

#include <deque>
#include <optional>
#include <string>

#include "parley/core/result.hpp"

namespace parley::tools::mcp {

class http_inbox {
 public:
  explicit http_inbox(const boost::asio::any_io_executor& executor) : wake_(executor) {}

  void push(std::string message);
  // The transport is dead: what was received before still comes first, then `why` for good. The
  // first failure is kept; later ones (the other streams breaking with it) add nothing.
  void fail(error why);
  // Ended on purpose: what was not yet handed out is dropped, and a waiting next() ends now.
  void close(error why);
  bool failed() const noexcept { return failure_.has_value(); }
  const error& failure() const { return *failure_; }

  // The next message, waiting while there is none; the failure once there will be none.
  boost::asio::awaitable<result<std::string>> next();

 private:
  std::deque<std::string> messages_;
  std::optional<error> failure_;
  boost::asio::steady_timer wake_;  // waited on by next(); cancelled to wake it
};

}  // namespace parley::tools::mcp
