// Reads of the store, off the event loop. A read of the SQLite store first waits for the writer to
// bring the projections up to the log — a commit and its fsync when appends are in flight — and on
// the one thread that runs every dialog and socket that wait would stall every stream. A handler
// awaits `read_store(context, read)` instead: the read runs on the store's read thread and the
// handler resumes on its own executor with the value, while the loop goes on serving.
//
// A read given here must touch only the store (thread-safe: sqlite_store serializes its read
// connections, memory_store locks) and values the awaiting coroutine keeps alive — never the
// engine, the PubChan or anything else of the loop's.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/associated_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <cstddef>
#include <type_traits>
#include <utility>

#include "parley/server/server_context.hpp"

namespace parley::server {

class store_reads {
 public:
  explicit store_reads(std::size_t threads = 1) : pool_(threads) {}
  store_reads(const store_reads&) = delete;
  store_reads& operator=(const store_reads&) = delete;
  // Waits for the reads under way; their handlers go to executors that no longer run.
  ~store_reads() { pool_.join(); }

  // Runs `read` on the read thread; the awaiting coroutine resumes on its executor with its value.
  template <class Read>
  boost::asio::awaitable<std::invoke_result_t<Read&>> run(Read read) {
    using value = std::invoke_result_t<Read&>;
    return boost::asio::async_initiate<const boost::asio::use_awaitable_t<>&, void(value)>(
        [this](auto handler, Read work) {
          auto resume_on = boost::asio::get_associated_executor(handler);
          boost::asio::post(pool_, [handler = std::move(handler), work = std::move(work),
                                    guard = boost::asio::make_work_guard(resume_on)]() mutable {
            auto outcome = work();
            auto executor = guard.get_executor();
            boost::asio::post(executor, [handler = std::move(handler), outcome = std::move(outcome)]() mutable {
              std::move(handler)(std::move(outcome));
            });
          });
        },
        boost::asio::use_awaitable, std::move(read));
  }

 private:
  boost::asio::thread_pool pool_;
};

// `read` on the context's read thread, or right here when the server has none (tests, benchmarks
// that build a context of their own).
template <class Read>
boost::asio::awaitable<std::invoke_result_t<Read&>> read_store(server_context& context, Read read) {
  if (context.reads == nullptr) co_return read();
  co_return co_await context.reads->run(std::move(read));
}

}  // namespace parley::server
