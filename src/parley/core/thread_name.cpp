#include "parley/core/thread_name.hpp"

#include <pthread.h>

namespace parley {

void name_this_thread(const char* name) noexcept {
  // Linux refuses names over 15 bytes; a longer one is cut rather than lost.
  char shown[16] = {};
  for (int i = 0; i < 15 && name[i] != '\0'; ++i) shown[i] = name[i];
  (void)::pthread_setname_np(::pthread_self(), shown);
}

}  // namespace parley
