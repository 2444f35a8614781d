#include "parley/store/sqlite/fork_checkpoint_writer.hpp"

#include "parley/store/sqlite/row_codec.hpp"

namespace parley::sqlite {

result<void> fork_checkpoint_writer::prepare(connection& db) {
  PARLEY_TRY(prepare_into(db, insert_,
                          "INSERT OR REPLACE INTO fork_checkpoints (dialog_id, seq, ts_ms, state) "
                          "VALUES (?1, ?2, ?3, ?4)"));
  PARLEY_TRY(prepare_into(db, previous_, "SELECT state FROM fork_checkpoints WHERE dialog_id = ?1 AND seq = ?2"));
  return prepare_into(db, events_between_,
                      "SELECT " + event_columns() +
                          " FROM events_stored AS e WHERE e.dialog_id = ?1 AND e.seq > ?2 AND e.seq <= ?3 "
                          "ORDER BY e.seq");
}

result<std::optional<fork_rest>> fork_checkpoint_writer::recover(const std::string& dialog_id, std::int64_t seq) {
  const std::int64_t from = seq - kForkCheckpointEvery;
  fork_checkpoint previous;
  if (from > 0) {
    reset_guard guard(previous_);
    previous_.bind_text(1, dialog_id);
    previous_.bind_int(2, from);
    auto found = previous_.step();
    if (!found) return std::move(found).err();
    if (!*found) return std::optional<fork_rest>{};
    PARLEY_TRY(decode_fork_checkpoint(previous_.text_at(0), previous));
  }
  reset_guard guard(events_between_);
  events_between_.bind_text(1, dialog_id);
  events_between_.bind_int(2, from);
  events_between_.bind_int(3, seq);
  fork_rest rest = previous.rest;
  std::int64_t folded = 0;
  for (;;) {
    auto has_row = events_between_.step();
    if (!has_row) return std::move(has_row).err();
    if (!*has_row) break;
    auto ev = read_event(events_between_);
    if (!ev) return std::move(ev).err();
    rest.apply(*ev);
    ++folded;
  }
  // A dialog whose log starts later (a fork's own log) has none of the events before it here.
  if (folded != seq - from) return std::optional<fork_rest>{};
  return std::optional<fork_rest>{std::move(rest)};
}

result<void> fork_checkpoint_writer::fold(const event& ev, const dialog_row& row_after,
                                          std::optional<fork_rest>& rest) {
  const bool due = ev.seq > 0 && ev.seq % kForkCheckpointEvery == 0;
  if (rest) {
    rest->apply(ev);
  } else if (due) {
    PARLEY_TRY_ASSIGN(rest, recover(ev.dialog_id, ev.seq));
  }
  if (!due || !rest) return ok();
  const auto checkpoint = fork_checkpoint_after(ev, row_after, *rest);
  if (!checkpoint) return ok();
  const std::string state = encode_fork_checkpoint(*checkpoint);
  insert_.bind_text(1, ev.dialog_id);
  insert_.bind_int(2, checkpoint->seq);
  insert_.bind_int(3, checkpoint->ts_ms);
  insert_.bind_text(4, state);
  return insert_.run();
}

}  // namespace parley::sqlite
