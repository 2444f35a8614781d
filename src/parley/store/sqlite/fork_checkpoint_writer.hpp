// The projector's part of fork checkpoints (store/fork_checkpoint.hpp): writes a dialog's
// checkpoint into `fork_checkpoints` in the projection's transaction. A dialog whose rest state
// the projector does not hold (its row was read back from the table: after a restart, or out of
// the cache) gets it back from its previous checkpoint and the events since, which the log
// already holds; with no previous checkpoint (a dialog older than schema version 25) it gets none
// and its forks are planned by decoding.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "parley/core/result.hpp"
#include "parley/store/fork_checkpoint.hpp"
#include "parley/store/sqlite/sqlite_handle.hpp"

namespace parley::sqlite {

class fork_checkpoint_writer {
 public:
  result<void> prepare(connection& db);
  // `ev` was applied into `row_after`; `rest` is the dialog's state before `ev` when known, and is
  // left holding its state after `ev` when that can be known.
  result<void> fold(const event& ev, const dialog_row& row_after, std::optional<fork_rest>& rest);

 private:
  // The state after event `seq` from the checkpoint kForkCheckpointEvery events before it.
  result<std::optional<fork_rest>> recover(const std::string& dialog_id, std::int64_t seq);

  statement insert_, previous_, events_between_;
};

}  // namespace parley::sqlite
