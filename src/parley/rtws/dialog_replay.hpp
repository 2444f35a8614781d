// One dialog folded from its events with the same reducers the stores and the engine use
// (apply_event, apply_state_event). Export writes its index files from this; import rebuilds it
// from the course files and compares the index files it finds with it — so both sides derive
// the indexes from the log in exactly one way.
#pragma once

#include <cstdint>

#include "parley/core/result.hpp"
#include "parley/model/dialog_state.hpp"
#include "parley/model/event.hpp"
#include "parley/model/records.hpp"

namespace parley::rtws {

class dialog_replay {
 public:
  // Folds the next event of the dialog and returns the course it belongs to: the dialog's course
  // after the event, so a course_started opens its new course and dialog_created is in course 1.
  // Fails, changing nothing, when the event does not follow (seq, unknown dialog, created twice).
  result<std::int64_t> apply(const event& ev);

  const dialog_row& row() const noexcept { return row_; }
  const dialog_state& state() const noexcept { return state_; }
  std::int64_t events() const noexcept { return events_; }
  // The last time a tellasker assigned it work (seed 001 registry `lastAccessed`): the newest
  // user message with origin "tellask" in any course, or its creation when there is none.
  std::int64_t last_accessed_ms() const noexcept { return last_accessed_ms_; }

 private:
  dialog_row row_;
  dialog_state state_;
  std::int64_t events_ = 0;
  std::int64_t last_accessed_ms_ = 0;
};

}  // namespace parley::rtws
