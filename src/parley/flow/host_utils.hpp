// host_utils (seed 004's `task.host_utils`): what the host lends every component of a flow — the
// ThreadRepository that persists (`threadRepository`) and the AIAdapter every model call goes
// through.
#pragma once

namespace parley::flow {

class thread_repository;
class ai_adapter;

struct host_utils {
  thread_repository& repository;  // host_utils.threadRepository
  ai_adapter& ai;                 // the AIAdapter singleton of the seed, one per host here
};

}  // namespace parley::flow
