// Clang's thread-safety analysis (-Wthread-safety, on in the clang builds): a mutex that the
// analysis knows as a capability, the scoped locks that hold it, and the attributes that say which
// state a mutex guards. With another compiler the attributes are empty and the types are the
// standard ones underneath, at no cost.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <utility>

#if defined(__clang__)
#define PARLEY_THREAD_ATTRIBUTE(x) __attribute__((x))
#else
#define PARLEY_THREAD_ATTRIBUTE(x)
#endif

#define PARLEY_CAPABILITY(name) PARLEY_THREAD_ATTRIBUTE(capability(name))
#define PARLEY_SCOPED_CAPABILITY PARLEY_THREAD_ATTRIBUTE(scoped_lockable)
#define PARLEY_GUARDED_BY(m) PARLEY_THREAD_ATTRIBUTE(guarded_by(m))
#define PARLEY_PT_GUARDED_BY(m) PARLEY_THREAD_ATTRIBUTE(pt_guarded_by(m))
#define PARLEY_REQUIRES(...) PARLEY_THREAD_ATTRIBUTE(requires_capability(__VA_ARGS__))
#define PARLEY_EXCLUDES(...) PARLEY_THREAD_ATTRIBUTE(locks_excluded(__VA_ARGS__))
#define PARLEY_ACQUIRE(...) PARLEY_THREAD_ATTRIBUTE(acquire_capability(__VA_ARGS__))
#define PARLEY_RELEASE(...) PARLEY_THREAD_ATTRIBUTE(release_capability(__VA_ARGS__))
#define PARLEY_TRY_ACQUIRE(...) PARLEY_THREAD_ATTRIBUTE(try_acquire_capability(__VA_ARGS__))
#define PARLEY_NO_THREAD_SAFETY_ANALYSIS PARLEY_THREAD_ATTRIBUTE(no_thread_safety_analysis)

namespace parley {

// std::mutex, known to the analysis.
class PARLEY_CAPABILITY("mutex") mutex {
 public:
  void lock() PARLEY_ACQUIRE() { m_.lock(); }
  void unlock() PARLEY_RELEASE() { m_.unlock(); }
  bool try_lock() PARLEY_TRY_ACQUIRE(true) { return m_.try_lock(); }

 private:
  friend class unique_lock;
  std::mutex m_;
};

// std::lock_guard over parley::mutex.
class PARLEY_SCOPED_CAPABILITY lock_guard {
 public:
  explicit lock_guard(mutex& m) PARLEY_ACQUIRE(m) : m_(m) { m_.lock(); }
  ~lock_guard() PARLEY_RELEASE() { m_.unlock(); }
  lock_guard(const lock_guard&) = delete;
  lock_guard& operator=(const lock_guard&) = delete;

 private:
  mutex& m_;
};

// A held lock a condition variable can wait on: `wait` releases and retakes the mutex, which the
// analysis (rightly) treats as still held across the call.
class PARLEY_SCOPED_CAPABILITY unique_lock {
 public:
  explicit unique_lock(mutex& m) PARLEY_ACQUIRE(m) : lock_(m.m_) {}
  ~unique_lock() PARLEY_RELEASE() = default;
  unique_lock(const unique_lock&) = delete;
  unique_lock& operator=(const unique_lock&) = delete;

  void unlock() PARLEY_RELEASE() { lock_.unlock(); }
  void lock() PARLEY_ACQUIRE() { lock_.lock(); }
  template <class Predicate>
  void wait(std::condition_variable& cv, Predicate ready) {
    cv.wait(lock_, std::move(ready));
  }
  template <class Clock, class Duration, class Predicate>
  bool wait_until(std::condition_variable& cv, const std::chrono::time_point<Clock, Duration>& deadline,
                  Predicate ready) {
    return cv.wait_until(lock_, deadline, std::move(ready));
  }
  void wait(std::condition_variable& cv) { cv.wait(lock_); }
  template <class Clock, class Duration>
  std::cv_status wait_until(std::condition_variable& cv, const std::chrono::time_point<Clock, Duration>& deadline) {
    return cv.wait_until(lock_, deadline);
  }
  template <class Rep, class Period, class Predicate>
  bool wait_for(std::condition_variable& cv, const std::chrono::duration<Rep, Period>& timeout, Predicate ready) {
    return cv.wait_for(lock_, timeout, std::move(ready));
  }

 private:
  std::unique_lock<std::mutex> lock_;
};

}  // namespace parley
