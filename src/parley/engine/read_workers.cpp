#include "parley/engine/read_workers.hpp"

#include <sched.h>

#include "parley/core/thread_name.hpp"

namespace parley::engine {

void set_read_thread_priority(read_priority priority) noexcept {
  thread_local bool set = false;
  if (set) return;
  set = true;
  name_this_thread("parley-reads");
  if (priority == read_priority::normal) return;
  // SCHED_IDLE rather than a nice value: a nice-19 thread still delayed the loop's wake-ups by
  // milliseconds under records load (parley-bench ws), while a normal thread that wakes preempts an
  // idle-policy one at once. On Linux the policy is the calling thread's (pid 0), not the process's.
  sched_param param{};
  (void)::sched_setscheduler(0, SCHED_IDLE, &param);
}

read_workers::read_workers(read_priority priority, std::size_t threads) {
  for (std::size_t i = 0; i < (threads == 0 ? 1 : threads); ++i)
    threads_.emplace_back([this, priority] { work(priority); });
  if (priority == read_priority::adaptive) threads_.emplace_back([this] { fall_back(); });
}

read_workers::~read_workers() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  work_ready_.notify_all();
  fallback_ready_.notify_all();
  for (auto& thread : threads_) thread.join();
}

std::size_t read_workers::taken_by_fallback() const {
  const std::lock_guard lock(mutex_);
  return taken_by_fallback_;
}

void read_workers::enqueue(std::unique_ptr<queued_job> job) {
  job->queued_at = std::chrono::steady_clock::now();
  bool was_empty = false;
  {
    const std::lock_guard lock(mutex_);
    was_empty = queue_.empty();
    queue_.push_back(std::move(job));
  }
  work_ready_.notify_one();
  // The fallback thread sleeps until the oldest read's deadline; a read behind another keeps it.
  if (was_empty) fallback_ready_.notify_one();
}

void read_workers::work(read_priority priority) {
  set_read_thread_priority(priority);
  std::unique_lock lock(mutex_);
  for (;;) {
    work_ready_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping, and nothing left to run
    auto job = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    job->run();
    job.reset();
    lock.lock();
  }
}

// At normal priority: runs a read only once it has waited kFallbackAfter, i.e. when the
// idle-policy threads are starved by busier threads of this or another process.
void read_workers::fall_back() {
  name_this_thread("parley-reads-fb");  // at the process's own priority
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    if (queue_.empty()) {
      fallback_ready_.wait(lock);
      continue;
    }
    const auto deadline = queue_.front()->queued_at + kFallbackAfter;
    if (std::chrono::steady_clock::now() < deadline) {
      fallback_ready_.wait_until(lock, deadline);
      continue;
    }
    auto job = std::move(queue_.front());
    queue_.pop_front();
    ++taken_by_fallback_;
    lock.unlock();
    job->run();
    job.reset();
    lock.lock();
  }
}

}  // namespace parley::engine
