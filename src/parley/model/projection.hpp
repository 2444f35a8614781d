// The projection reducer: folds one event into a dialog's row and its message list.
// Shared by every store (SQLite, in-memory) and by engine recovery, so they cannot disagree.
#pragma once

#include <optional>

#include "parley/core/result.hpp"
#include "parley/model/event.hpp"
#include "parley/model/records.hpp"

namespace parley {

struct projection_step {
  std::optional<message_row> new_message;
  bool course_reset = false;  // messages of earlier courses leave the current course view
};

// `row` must be empty (default) for a dialog_created event and the dialog's row otherwise.
// Fails on an event that does not fit (wrong seq, unknown dialog) and leaves `row` unchanged then.
// Unknown event types are accepted and only advance last_seq, so old binaries can read newer logs.
result<projection_step> apply_event(const event& ev, dialog_row& row);

}  // namespace parley
