// The store's read threads (read_workers.hpp): under `adaptive` a read left waiting because the
// idle-policy thread cannot run is taken by the fallback thread at normal priority; without it
// (here: the one idle-policy thread held by a read that waits for the next) it would wait forever.
#include <gtest/gtest.h>

#include <sched.h>

#include <array>
#include <atomic>
#include <chrono>
#include <future>
#include <thread>

#include "parley/engine/read_workers.hpp"

namespace parley::engine {
namespace {

using namespace std::chrono_literals;

TEST(ReadWorkers, AReadLeftWaitingByABusyIdlePolicyThreadIsTakenByTheFallbackThread) {
  std::promise<void> second_ran;
  const std::shared_future<void> second_done = second_ran.get_future().share();
  std::promise<int> first_policy;
  std::promise<int> second_policy;
  auto first_seen = first_policy.get_future();
  auto second_seen = second_policy.get_future();
  {
    // Declared after what its reads use, so that its threads end before those do.
    read_workers workers(read_priority::adaptive, 1);
    // The first read holds the only idle-policy thread until the second has run.
    workers.post([&first_policy, second_done] {
      first_policy.set_value(::sched_getscheduler(0));
      second_done.wait_for(10s);
    });
    workers.post([&second_policy, &second_ran] {
      second_policy.set_value(::sched_getscheduler(0));
      second_ran.set_value();
    });
    ASSERT_EQ(second_done.wait_for(10s), std::future_status::ready);
    EXPECT_EQ(workers.taken_by_fallback(), 1U);
  }
  EXPECT_EQ(first_seen.get(), SCHED_IDLE);
  EXPECT_EQ(second_seen.get(), SCHED_OTHER);  // the fallback thread's
}

TEST(ReadWorkers, EveryReadRunsExactlyOnceWhileTheFallbackThreadCompetesForThem) {
  std::array<std::atomic<int>, 300> runs{};
  {
    read_workers workers(read_priority::adaptive, 1);
    // The first read keeps the idle-policy thread past the grace period, so the fallback thread
    // takes reads from the same queue while the idle-policy one comes back to it.
    workers.post([] { std::this_thread::sleep_for(read_workers::kFallbackAfter * 2); });
    for (auto& count : runs) workers.post([&count] { ++count; });
  }
  for (const auto& count : runs) EXPECT_EQ(count.load(), 1);
}

TEST(ReadWorkers, TheQueuedReadsRunBeforeTheThreadsEnd) {
  std::atomic<int> ran{0};
  {
    read_workers workers(read_priority::normal, 1);
    for (int i = 0; i < 50; ++i) workers.post([&ran] { ++ran; });
  }
  EXPECT_EQ(ran.load(), 50);
}

TEST(ReadWorkers, ANormalPriorityReadThreadHasNoFallback) {
  std::promise<int> policy;  // before the workers: it outlives their threads
  read_workers workers(read_priority::normal, 1);
  workers.post([&policy] { policy.set_value(::sched_getscheduler(0)); });
  EXPECT_EQ(policy.get_future().get(), SCHED_OTHER);
  EXPECT_EQ(workers.taken_by_fallback(), 0U);
}

}  // namespace
}  // namespace parley::engine
