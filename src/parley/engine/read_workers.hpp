// The threads that run the store's reads (store_reads.hpp), and how they share the machine with the
// event loop. A records query can keep a core busy for milliseconds; at the loop's own priority it
// delays the loop's wake-ups — every stream's chunks — behind it (bench/README.md "The read
// thread's priority"). Run at Linux's SCHED_IDLE it never does, but then it gets only what every
// other process leaves, and on a machine kept busy by others a read could wait without bound.
// `adaptive`, the default, has both: the reads run on idle-policy threads, and one thread at
// normal priority takes any read that has waited longer than a grace period without starting.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace parley::engine {

// `normal`: like any thread. `background` (`--read-priority background`): SCHED_IDLE only.
// `adaptive` (the default): SCHED_IDLE, with the normal-priority fallback for reads left waiting
// (a thread named "parley-reads-fb").
enum class read_priority { normal, background, adaptive };

// Names the calling thread "parley-reads" and gives it `priority` (for `adaptive`: SCHED_IDLE),
// once per thread; when the system refuses, the thread keeps the priority it has.
void set_read_thread_priority(read_priority priority) noexcept;

class read_workers {
 public:
  // How long a read may wait for an idle-policy thread before the fallback thread takes it: well
  // under what a person notices, well over a stream chunk's period.
  static constexpr std::chrono::milliseconds kFallbackAfter{25};

  read_workers(read_priority priority, std::size_t threads);
  read_workers(const read_workers&) = delete;
  read_workers& operator=(const read_workers&) = delete;
  // Runs what is queued, then joins the threads.
  ~read_workers();

  // Queues `job` (a callable taking no argument); a thread runs it once.
  template <class Job>
  void post(Job job) {
    struct holder final : queued_job {
      explicit holder(Job j) : job(std::move(j)) {}
      void run() override { job(); }
      Job job;
    };
    enqueue(std::make_unique<holder>(std::move(job)));
  }

  // Reads the fallback thread has run since the start (tests, `/metrics`). Any thread.
  std::size_t taken_by_fallback() const;

 private:
  struct queued_job {
    virtual ~queued_job() = default;
    virtual void run() = 0;
    std::chrono::steady_clock::time_point queued_at;
  };
  void enqueue(std::unique_ptr<queued_job> job);
  void work(read_priority priority);
  void fall_back();

  mutable std::mutex mutex_;
  std::condition_variable work_ready_;
  std::condition_variable fallback_ready_;
  std::deque<std::unique_ptr<queued_job>> queue_;
  bool stopping_ = false;
  std::size_t taken_by_fallback_ = 0;
  std::vector<std::thread> threads_;
};

}  // namespace parley::engine
