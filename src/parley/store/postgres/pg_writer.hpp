// The PostgreSQL store's writer: `append` only queues; one thread drains the queue in groups and
// sends each group as one pipeline of prepared statements (libpq's pipeline mode) that PostgreSQL
// runs as one implicit transaction: one round trip and one commit for every batch in the group,
// whatever their dialogs. The transaction holds everything the events change: the log, the dialog
// rows, messages, the msgId index and seed 002's records (pg_records_folder.hpp says why those are
// not left to trail the log). A batch that does not fit (its events do not fold into its dialog's
// row) fails alone before anything is sent; a group the database refuses is sent again batch by
// batch so that only the batch at fault fails.
//
// Fencing: every append updates its dialogs' head rows only where `last_seq` is still the one this
// writer folded from, and the statement raises otherwise, which aborts the whole transaction. A
// process that lost a race for a dialog (another node appended first) can never land an event
// after the other's; its batch fails with errc::conflict and it reloads that dialog's row.
//
// A lost connection fails nothing: the writer reconnects with backoff, finds out whether the
// group in flight committed (its first event is in the log, payload and all) and sends it again
// only if it did not. Meanwhile nothing is acknowledged and health_problem() says why.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "parley/core/guarded.hpp"
#include "parley/core/metrics.hpp"
#include "parley/store/postgres/pg_change_feed.hpp"
#include "parley/store/postgres/pg_commit_pipeline.hpp"
#include "parley/store/postgres/pg_connection.hpp"
#include "parley/store/postgres/pg_leases.hpp"
#include "parley/store/postgres/pg_records_folder.hpp"
#include "parley/store/sqlite/recency_cache.hpp"
#include "parley/store/store.hpp"

namespace parley::pg {

class pg_writer {
 public:
  // Takes a migrated connection to `url` and starts the thread.
  // `leases` is what this process holds; every append is fenced with it.
  // `feed`, when there is one, hears of every committed group (pg_change_feed.hpp).
  static result<std::unique_ptr<pg_writer>> start(std::string url, connection conn, const postgres_options& options,
                                                  std::shared_ptr<lease_book> leases,
                                                  std::shared_ptr<change_feed> feed = nullptr);
  ~pg_writer();
  pg_writer(const pg_writer&) = delete;
  pg_writer& operator=(const pg_writer&) = delete;

  void append(std::vector<event> batch, append_callback on_done);
  // Waits until every batch appended before the call has committed or failed (callbacks run). On
  // the writer thread itself (a callback reading the store) it returns at once: what the callback
  // was called for is committed.
  void wait_for_earlier();
  // Queued like an append, so it follows every batch appended before it: gives the tree's lease
  // back if this process still holds it.
  void release_tree(std::string root_id);
  // Queued like an append: recomputes every projection from the log in one transaction.
  result<void> rebuild_projections();
  // Drains the queue and joins the thread; batches still waiting for a database that is gone fail
  // with errc::unavailable.
  void shutdown();

  std::string health_problem() const;
  std::int64_t events() const noexcept { return events_.load(std::memory_order_relaxed); }
  std::int64_t transactions() const noexcept { return transactions_.load(std::memory_order_relaxed); }
  metrics::histogram_snapshot commit_seconds() const { return commit_latency_.snapshot(); }
  std::int64_t queued_requests() const;
  std::int64_t cached_dialogs() const noexcept { return cached_dialogs_.load(std::memory_order_relaxed); }

 private:
  struct request {
    std::vector<event> batch;
    append_callback on_done;
    bool rebuild = false;
    std::string release_root;  // a lease to give back (release_tree), not a batch
    std::uint64_t ticket = 0;
  };
  pg_writer(std::string url, connection conn, const postgres_options& options, std::shared_ptr<lease_book> leases,
            std::shared_ptr<change_feed> feed);
  std::uint64_t enqueue(request req);
  void run();
  void process(std::vector<request>& group);
  // Folds the request's batch into `staged`, or fails leaving `staged` as it was.
  result<void> stage(const request& req, staged_group& staged);
  result<void> stage_batch(const request& req, staged_group& staged);
  // The lease an event's tree is written under, claimed now if this process holds none.
  result<void> stage_lease(const event& ev, staged_group& staged);
  result<dialog_row> load_row(const std::string& dialog_id);
  // Sends the staged group, reconnecting and resending after a lost connection until it is known
  // to have committed or been refused (or the writer stops).
  result<void> commit(const staged_group& staged);
  // After a refused group: marks the trees whose lease another process took as lost (pg_leases.hpp).
  void note_lost_trees(const staged_group& staged);
  void mark_trees_lost(const staged_group& staged);
  // Reconnects with backoff until connected or stopping; false when stopping.
  bool reconnect();
  result<void> prepare_statements();
  // Recomputes every projection from the log in one transaction; with `only_if_backfill`, only when
  // a migration left seed 002's records to be derived from an existing log (records_backfill).
  result<void> rebuild(bool only_if_backfill = false);
  // Replays the log into the emptied projections of the open transaction.
  result<void> replay_log();
  struct replay_state;
  result<void> replay_chunk(const rows& chunk, replay_state& state);
  result<void> execute_one(const char* statement, const std::string& records, std::string_view doing);
  void keep_rows(staged_group& staged);
  // What a committed group tells the other nodes: each dialog's last seq, and what they list.
  static std::vector<appended_hint> hints_of(const staged_group& staged);
  void set_problem(std::string problem);

  const std::string url_;
  const postgres_options options_;
  const std::shared_ptr<lease_book> leases_;
  const std::shared_ptr<change_feed> feed_;
  connection conn_;

  mutable parley::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  std::deque<request> queue_ PARLEY_GUARDED_BY(mutex_);
  std::uint64_t enqueued_ PARLEY_GUARDED_BY(mutex_) = 0;
  std::uint64_t completed_ PARLEY_GUARDED_BY(mutex_) = 0;
  bool stopping_ PARLEY_GUARDED_BY(mutex_) = false;
  bool stopped_ PARLEY_GUARDED_BY(mutex_) = false;
  std::string problem_ PARLEY_GUARDED_BY(mutex_);
  std::thread thread_;
  std::thread::id thread_id_;

  // Writer thread only: recently used dialogs' rows as the database has them after our commits.
  sqlite::recency_cache<dialog_row> latest_;
  records_folder records_;             // seed 002's records cursors, folded in the same transactions
  std::int64_t partitions_until_ = 0;  // event ids below this have a partition

  std::atomic<std::int64_t> events_{0};
  std::atomic<std::int64_t> transactions_{0};
  std::atomic<std::int64_t> cached_dialogs_{0};
  metrics::histogram commit_latency_;
};

}  // namespace parley::pg
