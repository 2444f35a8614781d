// Fork checkpoints (docs/fork.md, "How long a fork takes"): what planning a fork needs of a dialog
// after one of its events — the row's fork fields and whether it is at rest — kept every
// kForkCheckpointEvery events by the stores that offer them, so that plan_fork decodes at most that
// many events per dialog instead of the dialog's whole history. Derived from the log like the
// other projections (a rebuild writes them again); a store without them plans by decoding.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/model/event.hpp"
#include "parley/model/records.hpp"

namespace parley {

// A checkpoint follows every event whose seq is a multiple of this.
inline constexpr std::int64_t kForkCheckpointEvery = 64;

// A tool call of a finished generation that has no answer yet.
struct owed_call {
  std::string id;
  std::string name;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("id", s.id);
    v.required("name", s.name);
  }
  bool operator==(const owed_call&) const = default;
};

// Whether a dialog is at rest, folded event by event: no generation under way, and every tool call
// of its finished generations answered (a result, a reply) or waiting on a subdialog or a human.
struct fork_rest {
  std::optional<std::int64_t> generating;  // the genseq under way
  std::vector<owed_call> owed;             // in the order the calls were made

  void apply(const event& ev);
  // "" at rest, else the unfinished step ("generation 3 is under way", "tool call c1 (read_file)
  // has no result yet").
  std::string problem() const;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.optional("generating", s.generating);
    v.defaulted("owed", s.owed, std::vector<owed_call>{});
  }
  bool operator==(const fork_rest&) const = default;
};

// A dialog's state after its event `seq`.
struct fork_checkpoint {
  std::int64_t seq = 0;
  std::int64_t ts_ms = 0;  // the event's
  events::fork_row row;
  fork_rest rest;

  bool operator==(const fork_checkpoint&) const = default;
};

// The row's fields a fork keeps (dialog_forked.row).
events::fork_row fork_row_of(const dialog_row& row);
// A dialog's row after `checkpoint`, rebuilt from its `dialog_created` event: apply_event goes on
// from it with the event after the checkpoint. Only the fields fork_row keeps are the checkpoint's.
result<dialog_row> row_at_checkpoint(const event& created, const fork_checkpoint& checkpoint);

// A checkpoint's stored form (row and rest; seq and ts are the table's own columns), and back:
// strict, errors name the field.
std::string encode_fork_checkpoint(const fork_checkpoint& checkpoint);
result<void> decode_fork_checkpoint(std::string_view text, fork_checkpoint& into);

// What a store that keeps fork checkpoints offers plan_fork, beside the store interface (a store
// without them is planned by decoding every event).
class fork_checkpoint_source {
 public:
  virtual ~fork_checkpoint_source() = default;
  // The newest checkpoint of `dialog_id` after an event no later than seq `max_seq` and time
  // `max_ts_ms`; none when there is no such checkpoint.
  virtual result<std::optional<fork_checkpoint>> fork_checkpoint_before(std::string_view dialog_id,
                                                                        std::int64_t max_seq,
                                                                        std::int64_t max_ts_ms) = 0;
  // The seq of the oldest checkpoint of `dialog_id` after seq `after_seq`, if any.
  virtual result<std::optional<std::int64_t>> next_fork_checkpoint(std::string_view dialog_id,
                                                                   std::int64_t after_seq) = 0;
  // A dialog's own events with after_seq < seq <= through_seq, in seq order.
  virtual result<std::vector<event>> read_event_range(std::string_view dialog_id, std::int64_t after_seq,
                                                      std::int64_t through_seq) = 0;
};

// The checkpoint to keep after `ev` (apply_event accepted it into `row_after`, and `rest` has
// folded it) when its seq is a multiple of kForkCheckpointEvery; else none.
std::optional<fork_checkpoint> fork_checkpoint_after(const event& ev, const dialog_row& row_after,
                                                     const fork_rest& rest);

}  // namespace parley
