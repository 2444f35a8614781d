// A forked dialog's history (docs/fork.md). A fork shares its origin's events instead of copying
// them: its own log starts with one `dialog_forked` event at seq throughSeq + 1, and its whole
// history is the origin's events 1..throughSeq (read from the origin, itself perhaps a fork, and
// given the fork's dialog ids) followed by its own. Every store keeps forks the same way, since
// the fork record is an event; this reader is the one place that joins the two.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/model/event.hpp"
#include "parley/model/records.hpp"

namespace parley {

class store;

// Origin dialog id → the fork's.
using fork_id_map = std::unordered_map<std::string, std::string>;

// Gives an origin's event the fork's ids: its dialog, its root, and every dialog id its payload
// names (parent, caller, a Tellask's subdialog, a reply's sender, an answer's receiver). An id not
// in `ids` (a dialog of another tree) is left as it is.
void give_fork_ids(event& ev, const fork_id_map& ids, std::string_view fork_root_id);

// Every dialog id `ev`'s payload names (the fields give_fork_ids maps).
std::vector<std::string> dialog_ids_named_by(const event& ev);

// The whole history of `dialog_id`: its own events when it is no fork, else the shared prefix
// followed by its own. Fails naming the dialog when a fork's origin no longer holds the prefix.
result<std::vector<event>> read_dialog_history(store& log, std::string_view dialog_id);

// A dialog's messages of one course (0: every course), as store::messages gives them; a fork's
// include those of its shared history, which its origin's projections hold, not its own.
result<std::vector<message_row>> read_dialog_messages(store& log, std::string_view dialog_id, std::int64_t course);

// Where a forked dialog came from: the origin dialog and the last seq it shares with it.
struct fork_origin {
  std::string dialog_id;
  std::string root_id;
  std::int64_t through_seq = 0;
};
// Null for a dialog that is no fork (or does not exist).
result<std::optional<fork_origin>> fork_origin_of(store& log, std::string_view dialog_id);

}  // namespace parley
