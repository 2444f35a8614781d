#include "parley/tools/mcp/http_inbox.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace parley::tools::mcp {

namespace asio = boost::asio;

void http_inbox::push(std::string message) {
  if (failure_) return;  // a dead transport takes nothing more
  messages_.push_back(std::move(message));
  wake_.cancel();
}

void http_inbox::fail(error why) {
  if (failure_) return;
  failure_ = std::move(why);
  wake_.cancel();
}

void http_inbox::close(error why) {
  messages_.clear();
  fail(std::move(why));
}

asio::awaitable<result<std::string>> http_inbox::next() {
  for (;;) {
    if (!messages_.empty()) {
      std::string message = std::move(messages_.front());
      messages_.pop_front();
      co_return message;
    }
    if (failure_) co_return *failure_;
    // Woken by push or fail cancelling the wait; the loop looks again either way.
    wake_.expires_at(asio::steady_timer::time_point::max());
    co_await wake_.async_wait(asio::as_tuple(asio::use_awaitable));
  }
}

}  // namespace parley::tools::mcp
