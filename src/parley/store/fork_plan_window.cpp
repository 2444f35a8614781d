// Planning a fork from fork checkpoints (fork_checkpoint.hpp): each dialog of the tree is read
// from its newest checkpoint before the cut, so a plan decodes at most kForkCheckpointEvery events
// per dialog (plus its first, for the fork's `created`), whatever the length of the history. It
// makes the plan plan_fork_by_decode makes, or gives up and lets that one decide. A point given
// by generation is found from the checkpoints too (cut_before_generation).
//
// One check reads less than the decode: that no kept event names a subdialog the fork leaves out
// (a cut inside a Tellask being made) is checked on the events after each checkpoint. The engine
// stamps a subdialog's dialog_created before the Tellask that names it, in the same batch, so a
// cut by time keeps the subdialog whenever it keeps the Tellask; the check is for logs written
// otherwise, and such a Tellask lies just before the cut.
#include <algorithm>
#include <limits>

#include "parley/core/ids.hpp"
#include "parley/model/projection.hpp"
#include "parley/store/fork_checkpoint.hpp"
#include "parley/store/fork_plan_parts.hpp"
#include "parley/store/store.hpp"

namespace parley::fork_parts {
namespace {

constexpr std::int64_t kWindowNoBound = std::numeric_limits<std::int64_t>::max();

// One dialog of the tree at the cut: its checkpoint (if any) and the events kept after it.
struct dialog_window {
  dialog_row origin;
  std::optional<fork_checkpoint> checkpoint;
  std::vector<event> events;  // kept, after the checkpoint
  std::int64_t count = 0;     // events kept in all
};

std::int64_t window_base(const dialog_window& window) { return window.checkpoint ? window.checkpoint->seq : 0; }

// The root's window: its events through seq `cut`.
result<bool> read_root_window(fork_checkpoint_source& source, dialog_window& window, std::int64_t cut) {
  PARLEY_TRY_ASSIGN(window.checkpoint, source.fork_checkpoint_before(window.origin.id, cut, kWindowNoBound));
  PARLEY_TRY_ASSIGN(window.events, source.read_event_range(window.origin.id, window_base(window), cut));
  window.count = cut;
  // A dialog that is itself a fork holds only its own events: the decode reads through its origin.
  return static_cast<std::int64_t>(window.events.size()) == cut - window_base(window);
}

// Another dialog's window: its events stamped no later than `ts_ms` (all of them when the tree
// forks as it stands).
result<bool> read_sub_window(fork_checkpoint_source& source, dialog_window& window, std::optional<std::int64_t> ts_ms) {
  const std::string& id = window.origin.id;
  const std::int64_t last = window.origin.last_seq;
  PARLEY_TRY_ASSIGN(window.checkpoint, source.fork_checkpoint_before(id, last, ts_ms.value_or(kWindowNoBound)));
  std::int64_t upper = last;
  if (ts_ms) {
    std::optional<std::int64_t> next;
    PARLEY_TRY_ASSIGN(next, source.next_fork_checkpoint(id, window_base(window)));
    if (next) upper = std::min(upper, *next);
  }
  PARLEY_TRY_ASSIGN(window.events, source.read_event_range(id, window_base(window), upper));
  if (static_cast<std::int64_t>(window.events.size()) != upper - window_base(window)) return false;
  if (ts_ms) {
    const auto later =
        std::find_if(window.events.begin(), window.events.end(), [&](const event& ev) { return ev.ts_ms > *ts_ms; });
    window.events.erase(later, window.events.end());
  }
  window.count = window_base(window) + static_cast<std::int64_t>(window.events.size());
  return true;
}

// Whether the dialog is at rest after its last kept event.
bool window_at_rest(const dialog_window& window) {
  fork_rest rest = window.checkpoint ? window.checkpoint->rest : fork_rest{};
  for (const event& ev : window.events) rest.apply(ev);
  return rest.problem().empty();
}

// The dialog's first event with the fork's ids: the window's own first event, or read apart.
result<std::optional<event>> window_created(fork_checkpoint_source& source, const dialog_window& window) {
  std::vector<event> first;
  if (window.checkpoint) {
    PARLEY_TRY_ASSIGN(first, source.read_event_range(window.origin.id, 0, 1));
  } else {
    first.assign(window.events.begin(), window.events.begin() + 1);
  }
  if (first.empty() || !first.front().is<events::dialog_created>()) return std::optional<event>{};
  return std::optional<event>{std::move(first.front())};
}

result<std::optional<event>> window_forked_event(fork_checkpoint_source& source, const dialog_window& window,
                                                 const fork_ids& ids, std::int64_t now_ms) {
  std::optional<event> created;
  PARLEY_TRY_ASSIGN(created, window_created(source, window));
  if (!created) return std::optional<event>{};
  PARLEY_TRY(give_ids_checked(*created, ids, window.origin.id));
  dialog_row row;
  if (window.checkpoint) {
    PARLEY_TRY_ASSIGN(row, row_at_checkpoint(*created, *window.checkpoint));
    if (const auto it = ids.map.find(row.caller_id); it != ids.map.end()) row.caller_id = it->second;
  }
  for (event ev : window.events) {
    PARLEY_TRY(give_ids_checked(ev, ids, window.origin.id));
    PARLEY_TRY(apply_event(ev, row));
  }
  event forked;
  PARLEY_TRY_ASSIGN(forked,
                    forked_event(window.origin.id, window.origin.root_id, window.count, *created, row, ids, now_ms));
  return std::optional<event>{std::move(forked)};
}

// The tree's windows at the cut, root first; none when the checkpoints cannot settle it.
result<std::optional<std::vector<dialog_window>>> read_windows(store& log, fork_checkpoint_source& source,
                                                               const dialog_row& root, std::int64_t cut,
                                                               bool as_it_stands) {
  using windows = std::optional<std::vector<dialog_window>>;
  std::vector<dialog_window> tree;
  tree.push_back(dialog_window{root, std::nullopt, {}, 0});
  bool readable = false;
  PARLEY_TRY_ASSIGN(readable, read_root_window(source, tree.front(), cut));
  if (!readable || !window_at_rest(tree.front())) return windows{};
  const dialog_window& top = tree.front();
  std::optional<std::int64_t> cut_ts;
  if (!as_it_stands) cut_ts = top.events.empty() ? top.checkpoint->ts_ms : top.events.back().ts_ms;
  dialog_filter filter;
  filter.root_id = root.id;
  std::vector<dialog_row> rows;
  PARLEY_TRY_ASSIGN(rows, log.list_dialogs(filter));
  for (auto& row : rows) {
    if (row.id == root.id) continue;
    dialog_window& window = tree.emplace_back(dialog_window{std::move(row), std::nullopt, {}, 0});
    PARLEY_TRY_ASSIGN(readable, read_sub_window(source, window, cut_ts));
    if (!readable || (window.count > 0 && !window_at_rest(window))) return windows{};
  }
  return windows{std::move(tree)};
}

// The cut just before the root's generation `genseq` starts. A generation's genseq is the one after
// the dialog's last (drive_loop), so last_genseq only grows along the log: the newest checkpoint
// with a smaller one is found by a binary search, and the generation starts in the window after it.
// None when it is not there (plan_fork_by_decode names the generations there are).
result<std::optional<std::int64_t>> cut_before_generation(fork_checkpoint_source& source, const dialog_row& root,
                                                          std::int64_t genseq) {
  using cut = std::optional<std::int64_t>;
  if (genseq < 1 || genseq > root.last_genseq) return cut{};
  std::optional<fork_checkpoint> below;
  std::int64_t low = 1;
  std::int64_t high = root.last_seq / kForkCheckpointEvery;
  while (low <= high) {
    const std::int64_t mid = low + (high - low) / 2;
    std::optional<fork_checkpoint> probe;
    PARLEY_TRY_ASSIGN(probe, source.fork_checkpoint_before(root.id, mid * kForkCheckpointEvery, kWindowNoBound));
    if (probe && probe->row.last_genseq >= genseq) {
      high = mid - 1;
      continue;
    }
    if (probe && (!below || probe->seq > below->seq)) below = std::move(probe);
    low = mid + 1;
  }
  const std::int64_t after = below ? below->seq : 0;
  std::optional<std::int64_t> next;
  PARLEY_TRY_ASSIGN(next, source.next_fork_checkpoint(root.id, after));
  std::vector<event> window;
  PARLEY_TRY_ASSIGN(window, source.read_event_range(root.id, after, next.value_or(root.last_seq)));
  for (const event& ev : window) {
    const auto* started = ev.as<events::generation_started>();
    if (started != nullptr && started->genseq == genseq) return cut{ev.seq - 1};
  }
  return cut{};
}

}  // namespace

result<std::optional<fork_plan>> plan_fork_from_checkpoints(store& log, const dialog_row& root, const fork_point& point,
                                                            std::int64_t now_ms) {
  auto* source = dynamic_cast<fork_checkpoint_source*>(&log);
  if (source == nullptr) return std::optional<fork_plan>{};
  std::int64_t cut = point.at_seq.value_or(root.last_seq);
  if (point.at_generation) {
    std::optional<std::int64_t> before;
    PARLEY_TRY_ASSIGN(before, cut_before_generation(*source, root, *point.at_generation));
    if (!before) return std::optional<fork_plan>{};
    cut = *before;
  }
  if (cut < 1 || cut > root.last_seq) return std::optional<fork_plan>{};
  const bool as_it_stands = !point.at_seq && !point.at_generation;
  std::optional<std::vector<dialog_window>> tree;
  PARLEY_TRY_ASSIGN(tree, read_windows(log, *source, root, cut, as_it_stands));
  if (!tree) return std::optional<fork_plan>{};
  fork_ids ids;
  ids.fork_root = new_dialog_id();
  for (std::size_t i = 0; i < tree->size(); ++i) {
    const dialog_window& window = (*tree)[i];
    ids.origin_tree.insert(window.origin.id);
    if (window.count > 0) ids.map.emplace(window.origin.id, i == 0 ? ids.fork_root : new_dialog_id());
  }
  fork_plan plan;
  plan.fork_root_id = ids.fork_root;
  plan.through_seq = cut;
  for (const dialog_window& window : *tree) {
    if (window.count == 0) continue;
    std::optional<event> forked;
    PARLEY_TRY_ASSIGN(forked, window_forked_event(*source, window, ids, now_ms));
    if (!forked) return std::optional<fork_plan>{};
    plan.batch.push_back(std::move(*forked));
  }
  add_id_map(plan, ids);
  return std::optional<fork_plan>{std::move(plan)};
}

}  // namespace parley::fork_parts
