// Planning a fork (docs/fork.md): which events of a root's tree a new tree shares, the new ids,
// and the one batch of `dialog_forked` events that makes it. Reads only; the caller appends the
// batch, so a refused fork point writes nothing.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/model/event.hpp"

namespace parley {

class store;

// Where to cut a root dialog's history: after its event `at_seq`, or just before its generation
// `at_generation` starts (so that driving the fork runs that generation again); neither: after
// its latest event.
struct fork_point {
  std::optional<std::int64_t> at_seq;
  std::optional<std::int64_t> at_generation;
};

struct fork_plan {
  std::string fork_root_id;
  std::int64_t through_seq = 0;  // the root's last shared event
  std::vector<event> batch;      // the root's dialog_forked first
};

// Fails with errc::not_found for an unknown dialog or point, and errc::invalid_argument for a
// subdialog (a tree forks at its root) or a point inside an unfinished step, naming the nearest
// points that are valid.
//
// A store that keeps fork checkpoints (fork_checkpoint.hpp) is read from the checkpoint before the
// cut of each dialog: at most kForkCheckpointEvery events per dialog, whatever the history's
// length. Otherwise (or for a point the checkpoints cannot settle) it is plan_fork_by_decode.
result<fork_plan> plan_fork(store& log, std::string_view root_id, const fork_point& point, std::int64_t now_ms);

// The same plan from every event of the tree, decoded: what a store without checkpoints gets, and
// what names the nearest valid points when a point is refused.
result<fork_plan> plan_fork_by_decode(store& log, std::string_view root_id, const fork_point& point,
                                      std::int64_t now_ms);

}  // namespace parley
