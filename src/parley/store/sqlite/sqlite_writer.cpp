#include "parley/store/sqlite/sqlite_writer.hpp"

#include <algorithm>
#include <system_error>

#include "parley/model/projection.hpp"
#include "parley/store/sqlite/row_codec.hpp"
#include "parley/store/sqlite/schema.hpp"

namespace parley::sqlite {
namespace {

// Rows of every dialog touched since the last reset stay cached; past this many the cache is
// dropped after a commit and refilled on demand, so a long-lived store stays bounded in memory.
constexpr std::size_t kMaxCachedDialogs = 65536;
// Upper bound of the pause that lets followers join a group (see gather_followers), for disks
// whose fsync is very slow.
constexpr std::chrono::steady_clock::duration kMaxGatherWindow = std::chrono::milliseconds(2);

void run_callback(const append_callback& on_done, result<void> outcome) {
  if (!on_done) return;
  // A throwing callback must not end the writer thread and strand every later append.
  try {
    on_done(std::move(outcome));
  } catch (...) {
  }
}

}  // namespace

sqlite_writer::sqlite_writer(connection db, std::int64_t max_batch_events)
    : db_(std::move(db)), max_batch_events_(static_cast<std::size_t>(max_batch_events > 0 ? max_batch_events : 1)) {}

result<std::unique_ptr<sqlite_writer>> sqlite_writer::start(connection db, std::int64_t max_batch_events) {
  std::unique_ptr<sqlite_writer> writer(new sqlite_writer(std::move(db), max_batch_events));
  PARLEY_TRY(writer->tables_.prepare(writer->db_));
  PARLEY_TRY(writer->records_.prepare(writer->db_));
  try {
    writer->thread_ = std::thread([raw = writer.get()] { raw->run(); });
  } catch (const std::system_error& e) {
    return make_error(errc::internal, std::string("cannot start the store writer thread: ") + e.what());
  }
  writer->thread_id_ = writer->thread_.get_id();
  return writer;
}

sqlite_writer::~sqlite_writer() { shutdown(); }

void sqlite_writer::shutdown() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
}

bool sqlite_writer::on_writer_thread() const noexcept { return std::this_thread::get_id() == thread_id_; }

void sqlite_writer::enqueue(request req) {
  // Applied batches are freed here, on a thread that appends (usually the one that allocated
  // them). Freeing them on the writer thread contends with that thread's allocator and cost the
  // writer more than applying them did.
  std::vector<std::vector<event>> spent;
  {
    std::lock_guard lock(mutex_);
    spent.swap(spent_);
    if (!stopped_) {
      req.ticket = ++enqueued_;
      queue_.push_back(std::move(req));
      wake_.notify_one();
      return;
    }
  }
  run_callback(req.on_done, make_error(errc::cancelled, "the store is closed"));
}

void sqlite_writer::append(std::vector<event> batch, append_callback on_durable) {
  enqueue(request{std::move(batch), std::move(on_durable), false, 0});
}

void sqlite_writer::flush() {
  if (on_writer_thread()) return;
  std::unique_lock lock(mutex_);
  const std::uint64_t target = enqueued_;
  done_.wait(lock, [&] { return completed_ >= target || stopped_; });
  spent_.clear();
}

result<void> sqlite_writer::rebuild_projections() {
  if (on_writer_thread()) {
    return make_error(errc::conflict, "rebuild_projections cannot run inside an append callback");
  }
  result<void> outcome = make_error(errc::cancelled, "the store is closed");
  enqueue(request{{}, [&outcome](result<void> r) { outcome = std::move(r); }, true, 0});
  flush();
  return outcome;
}

void sqlite_writer::run() {
  std::vector<request> group;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return !queue_.empty() || stopping_; });
      if (queue_.empty()) {
        stopped_ = true;
        done_.notify_all();
        return;
      }
      gather_followers(lock);
      take_group(group);
    }
    process_group(group);
    {
      std::lock_guard lock(mutex_);
      completed_ = group.back().ticket;
      for (request& req : group) spent_.push_back(std::move(req.batch));
    }
    done_.notify_all();
    group.clear();
  }
}

void sqlite_writer::gather_followers(std::unique_lock<std::mutex>& lock) {
  // Callers whose batches just committed usually append their next batch right away, but from
  // their own threads, so the first of them wakes the writer alone. Without a pause the groups
  // alternate between one batch and all the rest, paying two fsyncs where one would do. The pause
  // ends as soon as the last group's worth of batches is queued, and never lasts longer than half
  // a commit, so a lone caller (a group of one) never waits at all.
  if (stopping_ || queue_.size() >= last_group_size_) return;
  const auto window = last_commit_time_ / 2;
  wake_.wait_for(lock, window, [&] { return stopping_ || queue_.size() >= last_group_size_; });
}

void sqlite_writer::take_group(std::vector<request>& group) {
  std::size_t events = queue_.front().batch.size();
  group.push_back(std::move(queue_.front()));
  queue_.pop_front();
  if (group.front().rebuild) return;
  // Whole batches only: the first is always taken, later ones while they fit the event budget.
  while (!queue_.empty() && !queue_.front().rebuild && events + queue_.front().batch.size() <= max_batch_events_) {
    events += queue_.front().batch.size();
    group.push_back(std::move(queue_.front()));
    queue_.pop_front();
  }
}

void sqlite_writer::process_group(std::vector<request>& group) {
  outcomes_.clear();
  last_group_size_ = group.size();
  if (group.front().rebuild) {
    outcomes_.push_back(rebuild());
  } else if (std::all_of(group.begin(), group.end(), [](const request& req) { return req.batch.empty(); })) {
    // Barriers only (an engine's commit of nothing waits for its sends): every earlier group is
    // committed, so there is nothing to write and no transaction to open.
    outcomes_.assign(group.size(), ok());
  } else {
    commit_group(group);
  }
  for (std::size_t i = 0; i < group.size(); ++i) run_callback(group[i].on_done, std::move(outcomes_[i]));
  outcomes_.clear();
}

void sqlite_writer::commit_group(const std::vector<request>& group) {
  // Almost every group applies cleanly, and a savepoint per batch is not free: SQLite copies each
  // page a batch is first to change into a statement journal (14 % of the CPU of a fanout-3 task
  // at 32 in flight). So the group is applied as a whole first; only if a batch fails is it rolled
  // back and applied again batch by batch under savepoints, so that just the failing batches fail.
  if (auto begun = tables_.begin(); !begun) {
    outcomes_.assign(group.size(), begun);
    return;
  }
  std::int64_t applied_events = 0;
  if (auto whole = apply_whole_group(group); whole) {
    outcomes_.assign(group.size(), ok());
    for (const request& req : group) applied_events += static_cast<std::int64_t>(req.batch.size());
  } else {
    if (db_.in_transaction()) (void)tables_.rollback();
    discard_cache();
    if (group.size() == 1) {
      outcomes_.push_back(std::move(whole));
      return;
    }
    if (auto begun = tables_.begin(); !begun) {
      outcomes_.assign(group.size(), begun);
      return;
    }
    applied_events = apply_batch_by_batch(group);
    if (applied_events == 0) return;  // nothing to commit; the outcomes say why
  }
  auto committed = write_dirty_rows();
  if (committed) {
    const auto commit_start = std::chrono::steady_clock::now();
    committed = tables_.commit();
    last_commit_time_ = std::min(std::chrono::steady_clock::now() - commit_start, kMaxGatherWindow * 2);
  }
  if (!committed) {
    if (db_.in_transaction()) (void)tables_.rollback();
    discard_cache();
    for (auto& outcome : outcomes_) {
      if (outcome) outcome = committed;
    }
    return;
  }
  for (cached_row* entry : dirty_) entry->dirty = entry->full_write = false;
  dirty_.clear();
  if (cache_.size() > kMaxCachedDialogs) cache_.clear();
  events_.fetch_add(applied_events, std::memory_order_relaxed);
  transactions_.fetch_add(1, std::memory_order_relaxed);
}

result<void> sqlite_writer::apply_whole_group(const std::vector<request>& group) {
  for (const request& req : group) {
    staged_.clear();
    auto applied = apply_events(req.batch);
    if (!applied) {
      staged_.clear();
      return applied;
    }
    keep_staged_rows();
  }
  return ok();
}

std::int64_t sqlite_writer::apply_batch_by_batch(const std::vector<request>& group) {
  std::int64_t applied_events = 0;
  for (const request& req : group) {
    auto applied = apply_batch(req.batch);
    if (!applied && !db_.in_transaction()) {
      // SQLite rolled the whole transaction back (an I/O error): the earlier batches are gone too.
      discard_cache();
      outcomes_.assign(group.size(), applied);
      return 0;
    }
    if (applied) applied_events += static_cast<std::int64_t>(req.batch.size());
    outcomes_.push_back(std::move(applied));
  }
  if (applied_events == 0) (void)tables_.rollback();
  return applied_events;
}

result<void> sqlite_writer::apply_batch(const std::vector<event>& batch) {
  staged_.clear();
  PARLEY_TRY(tables_.savepoint());
  auto applied = apply_events(batch);
  if (applied) applied = records_.flush_cursors();
  if (applied) applied = tables_.release();
  if (!applied) {
    // If even the rollback fails the transaction's state is unknown: abandon all of it.
    if (db_.in_transaction() && !tables_.rollback_to_savepoint()) (void)tables_.rollback();
    staged_.clear();
    records_.forget_cursors();
    return applied;
  }
  keep_staged_rows();
  return ok();
}

result<void> sqlite_writer::apply_events(const std::vector<event>& batch) {
  for (const event& ev : batch) {
    if (ev.dialog_id.empty()) return make_error(errc::invalid_argument, "event " + ev.type + " has no dialog id");
    auto row = staged_row(ev.dialog_id);
    if (!row) return std::move(row).err();
    auto step = apply_event(ev, **row);
    if (!step) return std::move(step).err();
    auto event_id = tables_.insert_event(ev);
    if (!event_id) return std::move(event_id).err();
    PARLEY_TRY(tables_.write_step(ev, *event_id, **row, *step));
    PARLEY_TRY(records_.apply(ev, **row, *step));
  }
  return ok();
}

result<dialog_row*> sqlite_writer::staged_row(const std::string& dialog_id) {
  // A batch touches one or a few dialogs; a linear scan beats hashing here. A row staged for a
  // dialog_created event gets its id from apply_event, or the batch fails and is discarded.
  for (dialog_row& row : staged_) {
    if (row.id == dialog_id) return &row;
  }
  if (auto cached = cache_.find(dialog_id); cached != cache_.end()) return &staged_.emplace_back(cached->second.row);

  // Not touched in this transaction, so the table holds exactly the committed row.
  auto loaded = tables_.load_dialog(dialog_id);
  if (!loaded) return std::move(loaded).err();
  if (!*loaded) return &staged_.emplace_back();
  cached_row& entry = cache_[dialog_id];
  entry.row = **loaded;
  return &staged_.emplace_back(std::move(**loaded));
}

void sqlite_writer::keep_staged_rows() {
  for (dialog_row& row : staged_) {
    auto [entry, inserted] = cache_.try_emplace(row.id);
    cached_row& cached = entry->second;
    // Rows read from the table are cached as they are read, so a row new to the cache is new.
    if (inserted || !same_fixed_columns(cached.row, row)) cached.full_write = true;
    cached.row = std::move(row);
    if (!cached.dirty) {
      cached.dirty = true;
      dirty_.push_back(&cached);
    }
  }
  staged_.clear();
}

result<void> sqlite_writer::write_dirty_rows() {
  for (const cached_row* entry : dirty_) {
    PARLEY_TRY(entry->full_write ? tables_.upsert_dialog(entry->row) : tables_.update_dialog_progress(entry->row));
  }
  return records_.flush_cursors();
}

void sqlite_writer::discard_cache() noexcept {
  dirty_.clear();
  cache_.clear();
  records_.forget_cursors();
}

result<void> sqlite_writer::rebuild() {
  discard_cache();
  PARLEY_TRY(tables_.begin());
  auto rebuilt = replay_log();
  if (rebuilt) rebuilt = tables_.commit();
  if (!rebuilt) {
    if (db_.in_transaction()) (void)tables_.rollback();
    discard_cache();
    return rebuilt;
  }
  transactions_.fetch_add(1, std::memory_order_relaxed);
  return ok();
}

result<void> sqlite_writer::replay_log() {
  PARLEY_TRY(clear_projections(db_));
  std::unordered_map<std::string, dialog_row> rows;
  statement& events = tables_.all_events();
  reset_guard guard(events);
  for (;;) {
    auto has_row = events.step();
    if (!has_row) return std::move(has_row).err();
    if (!*has_row) break;
    auto ev = read_event(events);
    if (!ev) return std::move(ev).err();
    dialog_row& row = rows[ev->dialog_id];
    auto step = apply_event(*ev, row);
    if (!step) {
      return make_error(errc::corrupt, "the log of " + db_.path() + " does not replay: " + step.err().message);
    }
    PARLEY_TRY(tables_.write_step(*ev, events.int_at(kEventColumnCount), row, *step));
    PARLEY_TRY(records_.apply(*ev, row, *step));
  }
  for (const auto& [id, row] : rows) PARLEY_TRY(tables_.upsert_dialog(row));
  return records_.flush_cursors();
}

}  // namespace parley::sqlite
