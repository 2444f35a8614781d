// The reads plan_fork makes of a SQLite store that keeps fork checkpoints
// (store/fork_checkpoint.hpp): a window of a dialog's events, and its checkpoints.
#include "parley/store/sqlite/row_codec.hpp"
#include "parley/store/sqlite/sqlite_reader.hpp"

namespace parley::sqlite {

result<void> sqlite_reader::prepare_fork_reads(const std::string& through) {
  PARLEY_TRY(prepare_into(db_, event_range_,
                          "SELECT " + event_columns() +
                              " FROM events_stored AS e WHERE e.dialog_id = ?1 AND e.seq > ?2 AND e.seq <= ?3" +
                              through + " ORDER BY e.seq"));
  PARLEY_TRY(prepare_into(db_, checkpoint_before_,
                          "SELECT seq, ts_ms, state FROM fork_checkpoints WHERE dialog_id = ?1 AND seq <= ?2 AND "
                          "ts_ms <= ?3 ORDER BY seq DESC LIMIT 1"));
  return prepare_into(db_, next_checkpoint_,
                      "SELECT seq FROM fork_checkpoints WHERE dialog_id = ?1 AND seq > ?2 ORDER BY seq LIMIT 1");
}

result<std::vector<event>> sqlite_reader::read_event_range(std::string_view dialog_id, std::int64_t after_seq,
                                                           std::int64_t through_seq) {
  parley::lock_guard lock(mutex_);
  reset_guard guard(event_range_);
  event_range_.bind_text(1, dialog_id);
  event_range_.bind_int(2, after_seq);
  event_range_.bind_int(3, through_seq);
  std::vector<event> out;
  for (;;) {
    auto has_row = event_range_.step();
    if (!has_row) return std::move(has_row).err();
    if (!*has_row) return out;
    auto ev = read_event(event_range_);
    if (!ev) return std::move(ev).err();
    out.push_back(std::move(*ev));
  }
}

result<std::optional<fork_checkpoint>> sqlite_reader::fork_checkpoint_before(std::string_view dialog_id,
                                                                             std::int64_t max_seq,
                                                                             std::int64_t max_ts_ms) {
  parley::lock_guard lock(mutex_);
  reset_guard guard(checkpoint_before_);
  checkpoint_before_.bind_text(1, dialog_id);
  checkpoint_before_.bind_int(2, max_seq);
  checkpoint_before_.bind_int(3, max_ts_ms);
  auto found = checkpoint_before_.step();
  if (!found) return std::move(found).err();
  if (!*found) return std::optional<fork_checkpoint>{};
  fork_checkpoint checkpoint;
  checkpoint.seq = checkpoint_before_.int_at(0);
  checkpoint.ts_ms = checkpoint_before_.int_at(1);
  if (auto decoded = decode_fork_checkpoint(checkpoint_before_.text_at(2), checkpoint); !decoded) {
    return make_error(errc::corrupt, "dialog " + std::string(dialog_id) + ", checkpoint after event " +
                                         std::to_string(checkpoint.seq) + ": " + decoded.err().message);
  }
  return std::optional<fork_checkpoint>{std::move(checkpoint)};
}

result<std::optional<std::int64_t>> sqlite_reader::next_fork_checkpoint(std::string_view dialog_id,
                                                                        std::int64_t after_seq) {
  parley::lock_guard lock(mutex_);
  reset_guard guard(next_checkpoint_);
  next_checkpoint_.bind_text(1, dialog_id);
  next_checkpoint_.bind_int(2, after_seq);
  auto found = next_checkpoint_.step();
  if (!found) return std::move(found).err();
  if (!*found) return std::optional<std::int64_t>{};
  return std::optional<std::int64_t>{next_checkpoint_.int_at(0)};
}

}  // namespace parley::sqlite
