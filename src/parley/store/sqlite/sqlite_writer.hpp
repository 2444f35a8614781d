// The single writer of a SQLite store. `append` only queues; one thread drains the queue in
// groups, writing every queued batch in one transaction (one fsync for all of them) with a
// savepoint per batch, so a batch that does not fit the log fails alone. Callbacks run on this
// thread after the commit, in append order, exactly once each — also while the store shuts down.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/store/sqlite/records_writer.hpp"
#include "parley/store/sqlite/sqlite_handle.hpp"
#include "parley/store/sqlite/table_writer.hpp"
#include "parley/store/store.hpp"

namespace parley::sqlite {

class sqlite_writer {
 public:
  // Takes the read-write connection (already migrated) and starts the thread.
  static result<std::unique_ptr<sqlite_writer>> start(connection db, std::int64_t max_batch_events);
  ~sqlite_writer();
  sqlite_writer(const sqlite_writer&) = delete;
  sqlite_writer& operator=(const sqlite_writer&) = delete;

  void append(std::vector<event> batch, append_callback on_durable);
  // Waits for every request queued before the call, callbacks included. Returns at once when
  // called from a callback (the writer thread cannot wait for itself).
  void flush();
  // Queued like an append, so it sees every earlier batch and no later one interleaves.
  result<void> rebuild_projections();
  // Drains the queue, commits it and joins the thread. Must not be called from a callback.
  void shutdown();

  std::int64_t events() const noexcept { return events_.load(std::memory_order_relaxed); }
  std::int64_t transactions() const noexcept { return transactions_.load(std::memory_order_relaxed); }

 private:
  struct request {
    std::vector<event> batch;
    append_callback on_done;
    bool rebuild = false;
    std::uint64_t ticket = 0;
  };
  // The committed (or about to be committed) projection row of a dialog.
  struct cached_row {
    dialog_row row;
    bool dirty = false;  // changed in the open transaction, written just before COMMIT
    // New, or a fixed column changed (see same_fixed_columns): the write must replace the whole
    // row and its index entries, not only the columns a commit usually changes.
    bool full_write = false;
  };

  sqlite_writer(connection db, std::int64_t max_batch_events);

  void enqueue(request req);
  bool on_writer_thread() const noexcept;
  void run();
  void gather_followers(std::unique_lock<std::mutex>& lock);
  void take_group(std::vector<request>& group);
  void process_group(std::vector<request>& group);
  void commit_group(const std::vector<request>& group);
  // Applies every batch of the group in the open transaction; the first failure ends it.
  result<void> apply_whole_group(const std::vector<request>& group);
  // Applies each batch under its own savepoint and records each outcome; returns the number of
  // events applied (0: the transaction was rolled back or lost, and nothing is to be committed).
  std::int64_t apply_batch_by_batch(const std::vector<request>& group);
  result<void> apply_batch(const std::vector<event>& batch);
  result<void> apply_events(const std::vector<event>& batch);
  result<dialog_row*> staged_row(const std::string& dialog_id);
  void keep_staged_rows();
  result<void> write_dirty_rows();
  void discard_cache() noexcept;
  result<void> rebuild();
  result<void> replay_log();

  connection db_;
  table_writer tables_;
  records_writer records_;  // seed 002's records, in the same transaction as the tables
  const std::size_t max_batch_events_;

  std::mutex mutex_;
  std::condition_variable wake_;  // the writer: work arrived or shutdown began
  std::condition_variable done_;  // flushers: completed_ advanced or the writer stopped
  std::deque<request> queue_;
  // Applied batches, freed by the next append or flush (see enqueue).
  std::vector<std::vector<event>> spent_;
  std::uint64_t enqueued_ = 0;   // ticket of the newest queued request
  std::uint64_t completed_ = 0;  // ticket of the newest request whose callback has returned
  bool stopping_ = false;
  bool stopped_ = false;
  std::thread thread_;
  std::thread::id thread_id_;
  // Group-commit tuning (writer thread only): how many batches the last group held, and how long
  // its COMMIT (the fsync) took.
  std::size_t last_group_size_ = 0;
  std::chrono::steady_clock::duration last_commit_time_{};

  // Writer-thread state: the row cache makes applying an event an in-memory fold plus one upsert
  // per dialog per transaction, instead of a read per event.
  std::unordered_map<std::string, cached_row> cache_;
  std::vector<cached_row*> dirty_;
  std::vector<dialog_row> staged_;  // rows touched by the batch being applied, merged on success
  std::vector<result<void>> outcomes_;

  std::atomic<std::int64_t> events_{0};
  std::atomic<std::int64_t> transactions_{0};
};

}  // namespace parley::sqlite
