// The response window and session gap (ms) of seed 002's records, recorded in each dialog_created
// so a rebuild uses the values the dialog was created with. 0 keeps the seed's defaults (3 h, 1 h).
// One value the engine sets and both root and subdialog creation read.
#pragma once

#include <cstdint>

#include "parley/model/event.hpp"

namespace parley::engine {

struct record_windows {
  std::int64_t turn_window_ms = 0;
  std::int64_t session_gap_ms = 0;

  void add_to(events::dialog_created& created) const {
    if (turn_window_ms > 0) created.turn_window_ms = turn_window_ms;
    if (session_gap_ms > 0) created.session_gap_ms = session_gap_ms;
  }
};

}  // namespace parley::engine
