// The writer's projection side (docs/store.md, "The projections trail the log"): committed batches
// wait in memory and are projected in bulk, in a transaction of their own, when due.
#include <chrono>
#include <string>

#include "parley/store/sqlite/schema.hpp"
#include "parley/store/sqlite/sqlite_writer.hpp"

namespace parley::sqlite {

void sqlite_writer::hand_over_to_projection(std::vector<request>& group) {
  std::int64_t through = committed_through_.load(std::memory_order_relaxed);
  for (std::size_t i = 0; i < group.size(); ++i) {
    request& req = group[i];
    if (!outcomes_[i] || req.batch.empty()) continue;
    if (unprojected_.empty()) oldest_unprojected_ = std::chrono::steady_clock::now();
    unprojected_events_ += req.batch.size();
    through = req.first_event_id + static_cast<std::int64_t>(req.batch.size()) - 1;
    unprojected_.push_back(committed_batch{std::move(req.batch), req.first_event_id});
  }
  // Before any callback runs, so whoever hears of these events finds them here (catch_up).
  committed_through_.store(through, std::memory_order_release);
}

bool sqlite_writer::projection_due() const {
  if (unprojected_.empty()) return false;
  const bool waited = std::chrono::steady_clock::now() - oldest_unprojected_ >= projection_lag_;
  // After a failed pass, the next waits a lag period even when many events wait.
  if (retry_after_lag_) return waited;
  return waited || unprojected_events_ >= projection_batch_events_;
}

result<void> sqlite_writer::project_pending() {
  if (unprojected_.empty()) return ok();
  const committed_batch& newest = unprojected_.back();
  const std::int64_t through = newest.first_event_id + static_cast<std::int64_t>(newest.events.size()) - 1;
  PARLEY_TRY(tables_.begin());
  result<void> projected = ok();
  for (const committed_batch& batch : unprojected_) {
    for (std::size_t i = 0; i < batch.events.size() && projected; ++i) {
      projected = projector_.project(batch.events[i], batch.first_event_id + static_cast<std::int64_t>(i));
    }
    if (!projected) break;
  }
  if (auto ended = end_projection(std::move(projected), through); !ended) {
    // Tried again after another lag period (or by the next catch_up), not in a tight loop.
    oldest_unprojected_ = std::chrono::steady_clock::now();
    retry_after_lag_ = true;
    return ended;
  }
  retry_after_lag_ = false;
  release_projected();
  return ok();
}

result<void> sqlite_writer::room_for_more() {
  // The waiting events are held in memory until projected. Projections that keep failing (a full
  // disk, a damaged table) must not let that grow without bound: past this backlog the log takes
  // nothing more until a pass succeeds, and says why.
  if (unprojected_events_ < max_unprojected_events_) return ok();
  auto projected = project_pending();
  if (projected) return ok();
  return make_error(projected.err().code, "the store refuses new events: its projections are " +
                                              std::to_string(unprojected_events_) +
                                              " events behind the log and cannot catch up: " + projected.err().message);
}

result<void> sqlite_writer::end_projection(result<void> projected, std::int64_t through) {
  if (projected) projected = projector_.finish(through);
  if (projected) projected = tables_.commit();
  if (!projected) {
    if (db_.in_transaction()) (void)tables_.rollback();
    projector_.forget();
    return projected;
  }
  projector_.committed();
  trim_caches();
  projection_transactions_.fetch_add(1, std::memory_order_relaxed);
  projected_through_.store(through, std::memory_order_release);
  return ok();
}

void sqlite_writer::release_projected() {
  {
    parley::lock_guard lock(mutex_);
    for (committed_batch& batch : unprojected_) spent_.push_back(std::move(batch.events));
  }
  unprojected_.clear();
  unprojected_events_ = 0;
}

result<void> sqlite_writer::rebuild() {
  projector_.forget();
  PARLEY_TRY(tables_.begin());
  std::int64_t last = 0;
  auto projected = clear_projections(db_);
  if (projected) {
    auto through = projector_.project_log_after(0);
    if (through) {
      last = *through;
    } else {
      projected = std::move(through).err();
    }
  }
  // The whole log is projected, including what was waiting.
  PARLEY_TRY(end_projection(std::move(projected), last));
  release_projected();
  return ok();
}

}  // namespace parley::sqlite
