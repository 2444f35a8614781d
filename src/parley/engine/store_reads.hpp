// Reads of the store, off the event loop. A read of the SQLite store first waits for the writer to
// bring the projections up to the log — a commit and its fsync when appends are in flight — and on
// the one thread that runs every dialog and socket that wait would stall every stream. A coroutine
// awaits `read_off_loop(reads, read)` instead: the read runs on the store's read thread and the
// coroutine resumes on its own executor with the value, while the loop goes on serving. The engine
// uses it for its cache misses and msgId checks, the server's handlers for their views.
//
// A read given here must touch only the store (thread-safe: sqlite_store serializes its read
// connections, memory_store locks) and values the awaiting coroutine keeps alive — never a
// dialog, the engine's caches or anything else of the loop's.
#pragma once

#include <boost/asio/associated_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "parley/engine/read_workers.hpp"

namespace parley::engine {

class store_reads {
 public:
  explicit store_reads(read_priority priority = read_priority::adaptive, std::size_t threads = 1)
      : workers_(priority, threads) {}
  store_reads(const store_reads&) = delete;
  store_reads& operator=(const store_reads&) = delete;
  // The workers run the reads queued; their handlers go to executors that may no longer run.
  ~store_reads() = default;

  // Reads queued or running (`GET /metrics`' queue depth). Any thread.
  std::int64_t in_flight() const noexcept { return in_flight_.load(std::memory_order_relaxed); }
  // Reads a normal-priority thread took because the idle-policy ones left them waiting (adaptive).
  std::size_t taken_by_fallback() const { return workers_.taken_by_fallback(); }

  // Runs `read` on the read thread; the awaiting coroutine resumes on its executor with its value.
  template <class Read>
  boost::asio::awaitable<std::invoke_result_t<Read&>> run(Read read) {
    using value = std::invoke_result_t<Read&>;
    return boost::asio::async_initiate<const boost::asio::use_awaitable_t<>&, void(value)>(
        [this](auto handler, Read work) {
          auto resume_on = boost::asio::get_associated_executor(handler);
          in_flight_.fetch_add(1, std::memory_order_relaxed);
          workers_.post([this, handler = std::move(handler), work = std::move(work),
                         guard = boost::asio::make_work_guard(resume_on)]() mutable {
            auto outcome = work();
            in_flight_.fetch_sub(1, std::memory_order_relaxed);
            auto executor = guard.get_executor();
            boost::asio::post(executor, [handler = std::move(handler), outcome = std::move(outcome)]() mutable {
              std::move(handler)(std::move(outcome));
            });
          });
        },
        boost::asio::use_awaitable, std::move(read));
  }

 private:
  std::atomic<std::int64_t> in_flight_{0};
  read_workers workers_;  // last: its destructor runs what is queued, which uses in_flight_
};

// `read` on `reads`, or right here when there is none (the CLI's one-shot verbs, tests and
// benchmarks that read on their own thread).
template <class Read>
boost::asio::awaitable<std::invoke_result_t<Read&>> read_off_loop(store_reads* reads, Read read) {
  if (reads == nullptr) co_return read();
  co_return co_await reads->run(std::move(read));
}

}  // namespace parley::engine
