#include "parley/store/sqlite/projector.hpp"

#include "parley/model/projection.hpp"
#include "parley/store/sqlite/row_codec.hpp"

namespace parley::sqlite {
result<void> projector::prepare(connection& db, table_writer& tables) {
  db_ = &db;
  tables_ = &tables;
  PARLEY_TRY(records_.prepare(db));
  PARLEY_TRY(checkpoints_.prepare(db));
  PARLEY_TRY(prepare_into(db, read_watermark_, "SELECT event_id FROM projected_through"));
  PARLEY_TRY(prepare_into(db, write_watermark_, "UPDATE projected_through SET event_id = ?1"));
  return prepare_into(db, events_after_,
                      "SELECT " + event_columns() + ", e.id FROM events_stored AS e WHERE e.id > ?1 ORDER BY e.id");
}

result<std::int64_t> projector::stored_watermark() {
  reset_guard guard(read_watermark_);
  auto found = read_watermark_.step();
  if (!found) return std::move(found).err();
  if (!*found) return make_error(errc::corrupt, "database " + db_->path() + " has no projection watermark");
  return read_watermark_.int_at(0);
}

result<projector::cached_row*> projector::row_of(const std::string& dialog_id, bool creates) {
  if (cached_row* cached = rows_.find(dialog_id)) return cached;
  if (creates) {  // the log took its creation: it has no row yet
    cached_row& created = rows_[dialog_id];
    created.rest.emplace();
    return &created;
  }
  auto loaded = tables_->load_dialog(dialog_id);
  if (!loaded) return std::move(loaded).err();
  cached_row& entry = rows_[dialog_id];
  if (*loaded) {
    entry.row = std::move(**loaded);
    entry.in_table = true;
  }
  return &entry;
}

result<void> projector::project(const event& ev, std::int64_t event_id) {
  if (ev.dialog_id.empty()) return make_error(errc::corrupt, "event " + std::to_string(event_id) + " has no dialog id");
  auto entry = row_of(ev.dialog_id, opens_dialog(ev));
  if (!entry) return std::move(entry).err();
  cached_row& cached = **entry;
  if (!cached.dirty) {
    cached.before = cached.row;  // what the table holds, to choose the cheaper write in finish()
    cached.dirty = true;
    dirty_.push_back(&cached);
  }
  auto step = apply_event(ev, cached.row);
  if (!step) {
    return make_error(errc::corrupt, "the log of " + db_->path() + " does not replay at event " +
                                         std::to_string(event_id) + ": " + step.err().message);
  }
  PARLEY_TRY(tables_->write_step(event_id, *step));
  PARLEY_TRY(checkpoints_.fold(ev, cached.row, cached.rest));
  return records_.apply(ev, event_id, cached.row, *step);
}

result<std::int64_t> projector::project_log_after(std::int64_t after_event_id) {
  reset_guard guard(events_after_);
  events_after_.bind_int(1, after_event_id);
  std::int64_t last = after_event_id;
  for (;;) {
    auto has_row = events_after_.step();
    if (!has_row) return std::move(has_row).err();
    if (!*has_row) return last;
    auto ev = read_event(events_after_);
    if (!ev) return std::move(ev).err();
    last = events_after_.int_at(kEventColumnCount);
    PARLEY_TRY(project(*ev, last));
  }
}

result<void> projector::finish(std::int64_t through_event_id) {
  for (const cached_row* entry : dirty_) {
    const bool indexes_unchanged = entry->in_table && same_fixed_columns(entry->before, entry->row);
    PARLEY_TRY(indexes_unchanged ? tables_->update_dialog_progress(entry->row) : tables_->upsert_dialog(entry->row));
  }
  PARLEY_TRY(records_.flush());
  write_watermark_.bind_int(1, through_event_id);
  return write_watermark_.run();
}

void projector::committed() noexcept {
  for (cached_row* entry : dirty_) {
    entry->dirty = false;
    entry->in_table = true;
    entry->before = dialog_row{};
  }
  dirty_.clear();
  rows_.trim();  // only between transactions: dirty_ holds no entry now
}

void projector::forget() noexcept {
  dirty_.clear();
  rows_.clear();
  records_.forget();
}

}  // namespace parley::sqlite
