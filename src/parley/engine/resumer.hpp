// Turns a completion handler into a copyable callback that resumes it on its own executor.
// async_lock and async_signal keep their waiters as such callbacks.
#pragma once

#include <boost/asio/associated_executor.hpp>
#include <boost/asio/post.hpp>

#include <functional>
#include <memory>

namespace parley::engine {

template <class Handler>
std::function<void()> make_resumer(Handler handler) {
  auto executor = boost::asio::get_associated_executor(handler);
  auto shared = std::make_shared<Handler>(std::move(handler));
  return [shared, executor]() { boost::asio::post(executor, [shared]() { std::move (*shared)(); }); };
}

}  // namespace parley::engine
