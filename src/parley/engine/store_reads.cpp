#include "parley/engine/store_reads.hpp"

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

}  // namespace parley::engine
