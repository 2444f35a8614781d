// The single writer of a SQLite store. `append` only queues; one thread drains the queue in
// groups, writing every queued batch's events to the log in one transaction (one fsync for all of
// them) with a savepoint per batch only when one fails, so a batch that does not fit the log fails
// alone. Callbacks run on this thread after the commit, in append order, exactly once each — also
// while the store shuts down.
//
// The projections trail the log by at most `projection_lag` or `projection_batch_events`
// (projector.hpp explains why); `catch_up` brings the log and them up to every batch appended
// before it, and every read calls it.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "parley/core/guarded.hpp"
#include "parley/core/metrics.hpp"
#include "parley/core/result.hpp"
#include "parley/store/sqlite/file_identity.hpp"
#include "parley/store/sqlite/projector.hpp"
#include "parley/store/sqlite/recency_cache.hpp"
#include "parley/store/sqlite/sqlite_handle.hpp"
#include "parley/store/sqlite/table_writer.hpp"
#include "parley/store/store.hpp"

namespace parley::sqlite {

class sqlite_writer {
 public:
  // Takes the read-write connection (already migrated), projects what the log holds past the
  // projections' watermark (a crash can leave that behind) and starts the thread.
  static result<std::unique_ptr<sqlite_writer>> start(connection db, const sqlite_options& options);
  ~sqlite_writer();
  sqlite_writer(const sqlite_writer&) = delete;
  sqlite_writer& operator=(const sqlite_writer&) = delete;

  void append(std::vector<event> batch, append_callback on_durable);
  // Commits with the next batch appended with `append` (or a flush), or on its own once it has
  // waited `deferred_commit_window`.
  void append_deferred(std::vector<event> batch, append_callback on_durable);
  // Waits for every batch appended before the call to commit or fail (callbacks included) and
  // brings the projections up to the log; cheap when nothing is queued or waiting. From a
  // callback it only projects what is committed (the writer thread cannot wait for itself).
  result<void> catch_up();
  // catch_up without its outcome.
  void flush();
  // Queued like an append, so it sees every earlier batch and no later one interleaves.
  result<void> rebuild_projections();
  // Drains the queue, commits it, projects it and joins the thread. Must not be called from a
  // callback.
  void shutdown();

  // Empty while the database file is the one the store opened; else why every append now fails
  // (file_identity.hpp). Any thread.
  std::string health_problem() const;

  std::int64_t events() const noexcept { return events_.load(std::memory_order_relaxed); }
  std::int64_t transactions() const noexcept { return transactions_.load(std::memory_order_relaxed); }
  std::int64_t projection_transactions() const noexcept {
    return projection_transactions_.load(std::memory_order_relaxed);
  }
  // The most dialogs any of the writer's caches held after its last commit (store_stats).
  std::int64_t cached_dialogs() const noexcept { return cached_dialogs_.load(std::memory_order_relaxed); }
  // How long each COMMIT (the fsync) took; the events committed and not yet projected; the
  // requests waiting in the queue. Any thread.
  metrics::histogram_snapshot commit_seconds() const { return commit_latency_.snapshot(); }
  std::int64_t projection_lag() const noexcept {
    // Projected first: read the other way round, a commit and its projection landing between the
    // two loads would show a lag below zero.
    const std::int64_t projected = projected_through_.load(std::memory_order_acquire);
    return std::max<std::int64_t>(0, committed_through_.load(std::memory_order_acquire) - projected);
  }
  std::int64_t queued_requests() const;

 private:
  enum class request_kind { append, catch_up, rebuild };
  struct request {
    std::vector<event> batch;
    append_callback on_done;
    request_kind kind = request_kind::append;
    std::uint64_t ticket = 0;
    std::int64_t first_event_id = 0;  // set once its events are in the log
    bool deferred = false;            // nobody waits on it (append_deferred)
  };
  // Events in the log and not yet in the projections, in log order.
  struct committed_batch {
    std::vector<event> events;
    std::int64_t first_event_id = 0;  // a batch's events have consecutive ids
  };

  sqlite_writer(connection db, const sqlite_options& options);

  // Returns the request's ticket, or 0 when the store is closed (its callback has run).
  std::uint64_t enqueue(request req);
  void wait_for(std::uint64_t ticket);
  bool on_writer_thread() const noexcept;
  void run();
  // Waits for work; true when there is a group to process, false when the projections are due
  // (or the writer is stopping) and the queue is empty.
  bool wait_for_work(parley::unique_lock& lock) PARLEY_REQUIRES(mutex_);
  void gather_followers(parley::unique_lock& lock) PARLEY_REQUIRES(mutex_);
  void take_group(std::vector<request>& group) PARLEY_REQUIRES(mutex_);
  void process_group(std::vector<request>& group);
  void commit_group(std::vector<request>& group);
  // Applies every batch of the group in the open transaction; the first failure ends it.
  result<void> apply_whole_group(std::vector<request>& group);
  // Applies each batch under its own savepoint and records each outcome; returns the number of
  // events applied (0: the transaction was rolled back or lost, and nothing is to be committed).
  std::int64_t apply_batch_by_batch(std::vector<request>& group);
  result<void> apply_batch(request& req);
  result<void> apply_events(request& req);
  // `creates`: the event creates the dialog.
  result<dialog_row*> staged_row(const std::string& dialog_id, bool creates);
  result<dialog_row> load_latest_row(const std::string& dialog_id);
  void keep_staged_rows();
  void hand_over_to_projection(std::vector<request>& group);
  bool projection_due() const;
  result<void> project_pending();
  // Fails when the projections have fallen too far behind and a pass does not catch them up.
  result<void> room_for_more();
  // Ends a projection transaction the caller began and folded events into (`projected`: how that
  // went) through event `through`: writes, commits, and on any failure rolls back and forgets.
  result<void> end_projection(result<void> projected, std::int64_t through);
  void release_projected();
  // Trims the caches to their bound after a commit and publishes their size.
  void trim_caches();
  result<void> rebuild();
  // Once per commit group: the file is still the one opened, and no other process wrote to it.
  // The first failure sticks (errc::unavailable).
  result<void> check_file();
  result<void> check_alone();
  result<std::int64_t> read_data_version();

  connection db_;
  std::optional<file_identity> identity_;
  // PRAGMA data_version when the writer started; any other value later is another writer's commit.
  statement data_version_;
  std::int64_t opened_data_version_ = 0;
  std::string file_problem_;  // written on the writer thread under mutex_
  table_writer tables_;
  projector projector_;
  const std::size_t max_batch_events_;
  const std::size_t projection_batch_events_;
  const std::size_t max_unprojected_events_;
  const std::chrono::steady_clock::duration projection_lag_;
  const std::chrono::steady_clock::duration deferred_commit_window_;

  mutable parley::mutex mutex_;
  std::condition_variable wake_;  // the writer: work arrived or shutdown began
  std::condition_variable done_;  // flushers: completed_ advanced or the writer stopped
  std::deque<request> queue_ PARLEY_GUARDED_BY(mutex_);
  std::size_t awaited_queued_ PARLEY_GUARDED_BY(mutex_) = 0;  // requests in queue_ someone waits on
  // When the queue last went from empty to holding a deferred batch: its commit is due a
  // deferred_commit_window later.
  std::chrono::steady_clock::time_point deferred_since_ PARLEY_GUARDED_BY(mutex_){};
  // Projected batches, freed by the next append or flush (see enqueue).
  std::vector<std::vector<event>> spent_ PARLEY_GUARDED_BY(mutex_);
  std::uint64_t enqueued_ PARLEY_GUARDED_BY(mutex_) = 0;   // ticket of the newest queued request
  std::uint64_t completed_ PARLEY_GUARDED_BY(mutex_) = 0;  // ticket of the newest request whose callback has returned
  bool stopping_ PARLEY_GUARDED_BY(mutex_) = false;
  bool stopped_ PARLEY_GUARDED_BY(mutex_) = false;
  std::thread thread_;
  std::thread::id thread_id_;
  // When the last request was queued, and until when the writer sleeps (time_point::min() while it
  // is awake, max() while it waits for work with no deadline): a deferred batch wakes it only if it
  // would otherwise look at the queue later than the batch's window ends (see enqueue).
  std::chrono::steady_clock::time_point last_enqueued_ PARLEY_GUARDED_BY(mutex_){};
  std::chrono::steady_clock::time_point sleeping_until_ PARLEY_GUARDED_BY(mutex_) =
      std::chrono::steady_clock::time_point::min();
  // Group-commit tuning (writer thread only): how many batches someone waited on the last group
  // held, and how long its COMMIT (the fsync) took.
  std::size_t last_group_awaited_ = 0;
  std::chrono::steady_clock::duration last_commit_time_{};

  // Writer-thread state. `latest_` holds recently used dialogs' rows after every event applied so
  // far (the projection table may be behind): validating an event is an in-memory fold, not a read.
  recency_cache<dialog_row> latest_;
  std::vector<dialog_row> staged_;  // rows touched by the batch being applied, merged on success
  std::vector<result<void>> outcomes_;
  std::vector<committed_batch> unprojected_;
  std::size_t unprojected_events_ = 0;
  std::chrono::steady_clock::time_point oldest_unprojected_{};
  bool retry_after_lag_ = false;  // the last projection pass failed

  // Ids of the newest event in the log and in the projections: catch_up's fast path.
  std::atomic<std::int64_t> committed_through_{0};
  std::atomic<std::int64_t> projected_through_{0};
  std::atomic<std::int64_t> events_{0};
  std::atomic<std::int64_t> transactions_{0};
  std::atomic<std::int64_t> projection_transactions_{0};
  std::atomic<std::int64_t> cached_dialogs_{0};
  metrics::histogram commit_latency_;
};

}  // namespace parley::sqlite
