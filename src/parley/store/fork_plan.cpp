#include "parley/store/fork_plan.hpp"

#include <algorithm>
#include <unordered_set>

#include "parley/core/ids.hpp"
#include "parley/model/projection.hpp"
#include "parley/store/fork_checkpoint.hpp"
#include "parley/store/fork_history.hpp"
#include "parley/store/fork_plan_parts.hpp"
#include "parley/store/store.hpp"

namespace parley {
namespace {

namespace ev_t = events;

// What keeps a dialog from being at rest after each of its events: "" where it is at rest (no
// generation under way, every tool call of its generations answered or waiting on a subdialog or
// a human), else the unfinished step.
std::vector<std::string> unfinished_steps_of(const std::vector<event>& history) {
  std::vector<std::string> steps;
  steps.reserve(history.size());
  fork_rest rest;
  for (const auto& ev : history) {
    rest.apply(ev);
    steps.push_back(rest.problem());
  }
  return steps;
}

struct forked_dialog {
  std::string origin_id;
  std::vector<event> history;
  std::vector<std::string> steps;  // unfinished_steps_of(history)
};

// How many of a dialog's events happened by `ts_ms` (the tree's other dialogs are cut at the time
// of the root's cut event).
std::size_t events_by(const forked_dialog& dialog, std::int64_t ts_ms) {
  const auto end = std::upper_bound(dialog.history.begin(), dialog.history.end(), ts_ms,
                                    [](std::int64_t ts, const event& ev) { return ts < ev.ts_ms; });
  return static_cast<std::size_t>(end - dialog.history.begin());
}

// How many of dialog `i`'s events a cut after the root's event `seq` keeps: the root's first `seq`;
// another dialog's, those by the time of that event — or all of them for a fork with no point
// given (`as_it_stands`): the tree as it is now, whose subdialogs may have gone on after the root
// last wrote (a question asked, the generation that asked it ended).
std::size_t events_kept(const std::vector<forked_dialog>& tree, std::size_t i, std::int64_t seq, bool as_it_stands) {
  const forked_dialog& root = tree.front();
  if (i == 0) return static_cast<std::size_t>(seq);
  if (as_it_stands) return tree[i].history.size();
  return events_by(tree[i], root.history[static_cast<std::size_t>(seq - 1)].ts_ms);
}

// "" when the whole tree is at rest after the root's event `seq`, else what is unfinished.
std::string tree_problem_at(const std::vector<forked_dialog>& tree, std::int64_t seq, bool as_it_stands = false) {
  const forked_dialog& root = tree.front();
  const auto index = static_cast<std::size_t>(seq - 1);
  if (!root.steps[index].empty()) return root.steps[index];
  for (std::size_t i = 1; i < tree.size(); ++i) {
    const std::size_t count = events_kept(tree, i, seq, as_it_stands);
    if (count > 0 && !tree[i].steps[count - 1].empty()) {
      return "in subdialog " + tree[i].origin_id + ", " + tree[i].steps[count - 1];
    }
  }
  return {};
}

std::string nearest_valid_points(const std::vector<forked_dialog>& tree, std::int64_t seq) {
  const auto last = static_cast<std::int64_t>(tree.front().history.size());
  std::vector<std::string> found;
  for (std::int64_t before = seq - 1; before >= 1; --before) {
    if (tree_problem_at(tree, before).empty()) {
      found.push_back(std::to_string(before));
      break;
    }
  }
  for (std::int64_t after = seq + 1; after <= last; ++after) {
    if (tree_problem_at(tree, after).empty()) {
      found.push_back(std::to_string(after));
      break;
    }
  }
  if (found.empty()) return "no event of it is at rest";
  return found.size() == 1 ? "the nearest valid point is --at " + found[0]
                           : "the nearest valid points are --at " + found[0] + " and --at " + found[1];
}

result<std::int64_t> cut_seq_of(const std::string& root_id, const std::vector<event>& history,
                                const fork_point& point) {
  const auto last = static_cast<std::int64_t>(history.size());
  if (point.at_seq) {
    if (*point.at_seq < 1 || *point.at_seq > last) {
      return make_error(errc::not_found, "--at: dialog " + root_id + " has no event " + std::to_string(*point.at_seq) +
                                             "; its events are 1.." + std::to_string(last));
    }
    return *point.at_seq;
  }
  if (!point.at_generation) return last;
  std::int64_t generations = 0;
  for (const auto& ev : history) {
    const auto* started = ev.as<ev_t::generation_started>();
    if (started == nullptr) continue;
    if (started->genseq == *point.at_generation) return ev.seq - 1;
    generations = std::max(generations, started->genseq);
  }
  return make_error(errc::not_found, "--at-generation: dialog " + root_id + " has no generation " +
                                         std::to_string(*point.at_generation) + "; its generations are 1.." +
                                         std::to_string(generations));
}

result<std::vector<forked_dialog>> read_tree(store& log, const dialog_row& root) {
  std::vector<forked_dialog> tree;
  tree.push_back(forked_dialog{root.id, {}, {}});
  dialog_filter filter;
  filter.root_id = root.id;
  std::vector<dialog_row> rows;
  PARLEY_TRY_ASSIGN(rows, log.list_dialogs(filter));
  for (const auto& row : rows) {
    if (row.id != root.id) tree.push_back(forked_dialog{row.id, {}, {}});
  }
  for (auto& dialog : tree) {
    PARLEY_TRY_ASSIGN(dialog.history, read_dialog_history(log, dialog.origin_id));
    dialog.steps = unfinished_steps_of(dialog.history);
  }
  return tree;
}

}  // namespace

namespace {

// The dialog_forked event of one dialog of the fork: its shared events, given the fork's ids,
// folded into the row the fork starts from.
result<event> forked_event_of(const forked_dialog& dialog, std::size_t count, const fork_parts::fork_ids& ids,
                              std::int64_t now_ms) {
  std::vector<event> shared(dialog.history.begin(), dialog.history.begin() + static_cast<std::ptrdiff_t>(count));
  dialog_row row;
  for (auto& ev : shared) {
    PARLEY_TRY(fork_parts::give_ids_checked(ev, ids, dialog.origin_id));
    PARLEY_TRY(apply_event(ev, row));
  }
  return fork_parts::forked_event(dialog.origin_id, dialog.history.front().root_id, static_cast<std::int64_t>(count),
                                  shared.front(), row, ids, now_ms);
}

result<dialog_row> fork_root_row(store& log, std::string_view root_id) {
  std::optional<dialog_row> row;
  PARLEY_TRY_ASSIGN(row, log.get_dialog(root_id));
  if (!row) return make_error(errc::not_found, "no dialog with id '" + std::string(root_id) + "'");
  if (row->kind == ev_t::dialog_kind::sub) {
    return make_error(errc::invalid_argument,
                      "dialog " + row->id + " is a subdialog: a tree forks at its root, " + row->root_id);
  }
  return std::move(*row);
}

}  // namespace

namespace fork_parts {

result<void> give_ids_checked(event& ev, const fork_ids& ids, const std::string& origin_id) {
  give_fork_ids(ev, ids.map, ids.fork_root);
  for (const auto& named : dialog_ids_named_by(ev)) {
    if (ids.origin_tree.contains(named) && !ids.map.contains(named)) {
      return make_error(errc::invalid_argument, "dialog " + origin_id + " names subdialog " + named +
                                                    " before that subdialog's first event: the cut falls inside a "
                                                    "Tellask being made");
    }
  }
  return ok();
}

result<event> forked_event(const std::string& origin_id, const std::string& origin_root_id, std::int64_t count,
                           const event& created, const dialog_row& row, const fork_ids& ids, std::int64_t now_ms) {
  const auto* origin_created = created.as<ev_t::dialog_created>();
  if (origin_created == nullptr) {
    return make_error(errc::corrupt, "the history of dialog " + origin_id + " does not start with dialog_created");
  }
  ev_t::dialog_forked forked;
  forked.origin_dialog_id = origin_id;
  forked.origin_root_id = origin_root_id;
  forked.through_seq = count;
  forked.created = *origin_created;
  forked.row = fork_row_of(row);
  event out;
  out.dialog_id = row.id;
  out.root_id = ids.fork_root;
  out.seq = forked.through_seq + 1;
  out.ts_ms = now_ms;
  out.payload = std::move(forked);
  return out;
}

void add_id_map(fork_plan& plan, const fork_ids& ids) {
  auto& root_fork = std::get<ev_t::dialog_forked>(plan.batch.front().payload);
  for (const auto& [origin, fork] : ids.map) root_fork.dialogs.push_back(ev_t::forked_id{origin, fork});
  std::sort(root_fork.dialogs.begin(), root_fork.dialogs.end(),
            [](const auto& a, const auto& b) { return a.origin < b.origin; });
}

}  // namespace fork_parts

result<fork_plan> plan_fork(store& log, std::string_view root_id, const fork_point& point, std::int64_t now_ms) {
  dialog_row root;
  PARLEY_TRY_ASSIGN(root, fork_root_row(log, root_id));
  std::optional<fork_plan> planned;
  PARLEY_TRY_ASSIGN(planned, fork_parts::plan_fork_from_checkpoints(log, root, point, now_ms));
  if (planned) return std::move(*planned);
  return plan_fork_by_decode(log, root_id, point, now_ms);
}

result<fork_plan> plan_fork_by_decode(store& log, std::string_view root_id, const fork_point& point,
                                      std::int64_t now_ms) {
  dialog_row root;
  PARLEY_TRY_ASSIGN(root, fork_root_row(log, root_id));
  std::vector<forked_dialog> tree;
  PARLEY_TRY_ASSIGN(tree, read_tree(log, root));
  std::int64_t cut = 0;
  PARLEY_TRY_ASSIGN(cut, cut_seq_of(root.id, tree.front().history, point));
  const bool as_it_stands = !point.at_seq && !point.at_generation;
  if (const auto problem = tree_problem_at(tree, cut, as_it_stands); !problem.empty()) {
    return make_error(errc::invalid_argument, "event " + std::to_string(cut) + " of dialog " + root.id +
                                                  " is inside an unfinished step (" + problem + "); " +
                                                  nearest_valid_points(tree, cut));
  }
  fork_parts::fork_ids ids;
  ids.fork_root = new_dialog_id();
  std::vector<std::size_t> counts;
  for (std::size_t i = 0; i < tree.size(); ++i) {
    counts.push_back(events_kept(tree, i, cut, as_it_stands));
    ids.origin_tree.insert(tree[i].origin_id);
    if (counts.back() > 0) ids.map.emplace(tree[i].origin_id, i == 0 ? ids.fork_root : new_dialog_id());
  }
  fork_plan plan;
  plan.fork_root_id = ids.fork_root;
  plan.through_seq = cut;
  for (std::size_t i = 0; i < tree.size(); ++i) {
    if (counts[i] == 0) continue;
    event forked;
    PARLEY_TRY_ASSIGN(forked, forked_event_of(tree[i], counts[i], ids, now_ms));
    plan.batch.push_back(std::move(forked));
  }
  fork_parts::add_id_map(plan, ids);
  return plan;
}

}  // namespace parley
