// What the two ways of planning a fork share (fork_plan.cpp decodes every event of the tree;
// fork_plan_window.cpp starts from fork checkpoints): the new ids, the check that no kept event
// names a subdialog the fork leaves out, and the dialog_forked event of each dialog.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_set>

#include "parley/core/result.hpp"
#include "parley/model/event.hpp"
#include "parley/model/records.hpp"
#include "parley/store/fork_history.hpp"
#include "parley/store/fork_plan.hpp"

namespace parley::fork_parts {

struct fork_ids {
  fork_id_map map;
  std::unordered_set<std::string> origin_tree;  // every dialog of the origin tree
  std::string fork_root;
};

// Gives `ev` the fork's ids, and fails when it names a dialog of the origin tree that the fork
// leaves out (the cut falls inside a Tellask being made).
result<void> give_ids_checked(event& ev, const fork_ids& ids, const std::string& origin_id);

// The dialog_forked event of one dialog of the fork: `created` (its first event, with the fork's
// ids) and `row` (its row after its `count`-th event, with the fork's ids).
result<event> forked_event(const std::string& origin_id, const std::string& origin_root_id, std::int64_t count,
                           const event& created, const dialog_row& row, const fork_ids& ids, std::int64_t now_ms);

// Puts the tree's id map on the root's dialog_forked (the batch's first event), sorted.
void add_id_map(fork_plan& plan, const fork_ids& ids);

// Plans from fork checkpoints: none when this plan cannot be made that way (a tree with forks in
// it, a point that does not exist or is not at rest: plan_fork_by_decode decides and names the
// problem); an error only when a read fails.
result<std::optional<fork_plan>> plan_fork_from_checkpoints(store& log, const dialog_row& root, const fork_point& point,
                                                            std::int64_t now_ms);

}  // namespace parley::fork_parts
