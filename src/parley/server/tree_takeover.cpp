#include "parley/server/tree_takeover.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace parley::server {

namespace asio = boost::asio;

tree_takeover::tree_takeover(asio::any_io_executor executor, engine::engine& eng, std::chrono::milliseconds every)
    : executor_(std::move(executor)), engine_(eng), every_(every), timer_(executor_) {}

void tree_takeover::start() { asio::co_spawn(executor_, run(), asio::detached); }

void tree_takeover::stop() {
  stopped_ = true;
  timer_.cancel();
}

asio::awaitable<void> tree_takeover::run() {
  while (!stopped_) {
    timer_.expires_after(every_);
    const auto [cancelled] = co_await timer_.async_wait(asio::as_tuple(asio::use_awaitable));
    if (cancelled || stopped_) break;
    co_await engine_.runs().adopt_orphaned_trees();
  }
}

}  // namespace parley::server
