// Names the calling thread (at most 15 bytes show), so that `top -H`, `ps -L`, perf and gdb tell
// the store's writer and read threads from the event loop.
#pragma once

namespace parley {

void name_this_thread(const char* name) noexcept;

}  // namespace parley
