#include "parley/store/sqlite/sqlite_writer.hpp"

#include <algorithm>
#include <optional>
#include <system_error>

#include "parley/core/thread_name.hpp"
#include "parley/model/projection.hpp"
#include "parley/store/sqlite/row_codec.hpp"
#include "parley/store/sqlite/schema.hpp"

namespace parley::sqlite {
namespace {

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

sqlite_writer::sqlite_writer(connection db, const sqlite_options& options)
    : db_(std::move(db)),
      projector_(static_cast<std::size_t>(std::max<std::int64_t>(options.cached_dialogs, 1))),
      max_batch_events_(static_cast<std::size_t>(options.max_batch_events > 0 ? options.max_batch_events : 1)),
      projection_batch_events_(
          static_cast<std::size_t>(options.projection_batch_events > 0 ? options.projection_batch_events : 1)),
      max_unprojected_events_(16 * projection_batch_events_),
      projection_lag_(options.projection_lag),
      deferred_commit_window_(options.deferred_commit_window),
      latest_(static_cast<std::size_t>(std::max<std::int64_t>(options.cached_dialogs, 1))) {}

result<std::unique_ptr<sqlite_writer>> sqlite_writer::start(connection db, const sqlite_options& options) {
  std::unique_ptr<sqlite_writer> writer(new sqlite_writer(std::move(db), options));
  auto page_size = writer->db_.prepare("PRAGMA page_size", false);
  if (!page_size) return std::move(page_size).err();
  PARLEY_TRY(page_size->step());
  auto identity = file_identity::of(writer->db_.path(), page_size->int_at(0));
  if (!identity) return std::move(identity).err();
  writer->identity_ = std::move(*identity);
  PARLEY_TRY(prepare_into(writer->db_, writer->data_version_, "PRAGMA data_version"));
  auto version = writer->read_data_version();
  if (!version) return std::move(version).err();
  writer->opened_data_version_ = *version;
  PARLEY_TRY(writer->tables_.prepare(writer->db_));
  PARLEY_TRY(writer->projector_.prepare(writer->db_, writer->tables_));
  // Events committed after the last projection commit of a process that did not stop cleanly.
  auto watermark = writer->projector_.stored_watermark();
  if (!watermark) return std::move(watermark).err();
  PARLEY_TRY(writer->tables_.begin());
  auto last = writer->projector_.project_log_after(*watermark);
  if (!last) {
    (void)writer->tables_.rollback();
    return std::move(last).err();
  }
  if (*last == *watermark) {
    (void)writer->tables_.rollback();  // nothing past it: a clean close, or a new store
  } else {
    PARLEY_TRY(writer->end_projection(ok(), *last));
  }
  writer->committed_through_ = *last;
  writer->projected_through_ = *last;
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
    parley::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
}

bool sqlite_writer::on_writer_thread() const noexcept { return std::this_thread::get_id() == thread_id_; }

std::uint64_t sqlite_writer::enqueue(request req) {
  // Projected batches are freed here, on a thread that appends (usually the one that allocated
  // them). Freeing them on the writer thread contends with that thread's allocator and cost the
  // writer more than applying them did.
  std::vector<std::vector<event>> spent;
  {
    parley::lock_guard lock(mutex_);
    spent.swap(spent_);
    if (!stopped_) {
      req.ticket = ++enqueued_;
      const auto now = std::chrono::steady_clock::now();
      last_enqueued_ = now;
      // A deferred batch wakes the writer only to start its window, and only when the writer would
      // not look at the queue before that window ends anyway: one that joins a non-empty queue
      // rides with what is there, and waking the writer costs it a context switch (two, with its
      // going back to sleep) — at one task in flight, that was every round.
      const bool wake = !req.deferred || (queue_.empty() && sleeping_until_ > now + deferred_commit_window_);
      if (req.deferred && queue_.empty()) deferred_since_ = now;
      if (!req.deferred) ++awaited_queued_;
      queue_.push_back(std::move(req));
      if (wake) wake_.notify_one();
      return enqueued_;
    }
  }
  run_callback(req.on_done, make_error(errc::cancelled, "the store is closed"));
  return 0;
}

void sqlite_writer::wait_for(std::uint64_t ticket) {
  parley::unique_lock lock(mutex_);
  lock.wait(done_, [&]() PARLEY_REQUIRES(mutex_) { return completed_ >= ticket || stopped_; });
  spent_.clear();
}

void sqlite_writer::append(std::vector<event> batch, append_callback on_durable) {
  enqueue(request{std::move(batch), std::move(on_durable)});
}

void sqlite_writer::append_deferred(std::vector<event> batch, append_callback on_durable) {
  request req{std::move(batch), std::move(on_durable)};
  req.deferred = true;
  enqueue(std::move(req));
}

void sqlite_writer::flush() { (void)catch_up(); }

result<void> sqlite_writer::catch_up() {
  // From a callback, between transactions: what is queued waits for this very thread.
  if (on_writer_thread()) return project_pending();
  {
    parley::lock_guard lock(mutex_);
    const bool idle = completed_ == enqueued_ || stopped_;
    if (idle &&
        projected_through_.load(std::memory_order_acquire) >= committed_through_.load(std::memory_order_acquire)) {
      return ok();
    }
  }
  // Queued behind every batch appended before this call, so the read that follows sees each of
  // them that the log took.
  result<void> outcome = make_error(errc::cancelled, "the store is closed");
  const auto ticket =
      enqueue(request{{}, [&outcome](result<void> r) { outcome = std::move(r); }, request_kind::catch_up});
  if (ticket != 0) wait_for(ticket);
  return outcome;
}

result<void> sqlite_writer::rebuild_projections() {
  if (on_writer_thread()) {
    return make_error(errc::conflict, "rebuild_projections cannot run inside an append callback");
  }
  result<void> outcome = make_error(errc::cancelled, "the store is closed");
  const auto ticket =
      enqueue(request{{}, [&outcome](result<void> r) { outcome = std::move(r); }, request_kind::rebuild});
  if (ticket != 0) wait_for(ticket);
  return outcome;
}

void sqlite_writer::run() {
  name_this_thread("parley-writer");
  std::vector<request> group;
  for (;;) {
    bool has_group = false;
    bool stopping = false;
    {
      parley::unique_lock lock(mutex_);
      has_group = wait_for_work(lock);
      stopping = stopping_;
      if (!has_group && stopping && unprojected_.empty()) {
        stopped_ = true;
        done_.notify_all();
        return;
      }
      if (has_group) {
        gather_followers(lock);
        take_group(group);
      }
    }
    if (!has_group) {
      // Idle past the lag bound, or stopping: a failure leaves the events to the next catch-up,
      // and at shutdown to the next open, which projects the log past the watermark.
      if (!project_pending() && stopping) release_projected();
      continue;
    }
    process_group(group);
    {
      parley::lock_guard lock(mutex_);
      completed_ = group.back().ticket;
      for (request& req : group) {
        if (!req.batch.empty()) spent_.push_back(std::move(req.batch));
      }
    }
    done_.notify_all();
    group.clear();
    if (projection_due()) (void)project_pending();
  }
}

bool sqlite_writer::wait_for_work(parley::unique_lock& lock) {
  using clock = std::chrono::steady_clock;
  for (;;) {
    if (stopping_ || awaited_queued_ > 0) return !queue_.empty();
    std::optional<clock::time_point> wake_at;
    const auto now = clock::now();
    if (!queue_.empty()) {
      const auto due = deferred_since_ + deferred_commit_window_;
      if (now >= due) return true;
      wake_at = due;
    }
    if (!unprojected_.empty()) {
      const auto due = oldest_unprojected_ + projection_lag_;
      if (now >= due) return false;
      wake_at = wake_at ? std::min(*wake_at, due) : due;
    }
    // While appends keep coming, sleep at most one deferred window at a time, so that a deferred
    // batch queued meanwhile is seen within its window without waking the writer (enqueue). One
    // such look finds nothing once the appends stop; then the writer sleeps until woken.
    if (now - last_enqueued_ < deferred_commit_window_) {
      const auto look_again = now + deferred_commit_window_;
      wake_at = wake_at ? std::min(*wake_at, look_again) : look_again;
    }
    sleeping_until_ = wake_at ? *wake_at : clock::time_point::max();
    if (wake_at) {
      lock.wait_until(wake_, *wake_at);
    } else {
      lock.wait(wake_);
    }
    sleeping_until_ = clock::time_point::min();
  }
}

void sqlite_writer::gather_followers(parley::unique_lock& lock) {
  // Callers whose batches just committed usually append their next batch right away, but from
  // their own threads, so the first of them wakes the writer alone. Without a pause the groups
  // alternate between one batch and all the rest, paying two fsyncs where one would do. The pause
  // ends as soon as the last group's worth of batches is queued, and never lasts longer than half
  // a commit, so a lone caller (a group of one) never waits at all. Only batches someone waits on
  // count: deferred ones ride with the next group whenever it commits, and counting them made a
  // lone caller (its deferred sends and its commit) wait in vain for followers after every group.
  // A group of deferred batches only is due already: it does not wait either.
  if (stopping_ || awaited_queued_ == 0 || awaited_queued_ >= last_group_awaited_) return;
  const auto window = last_commit_time_ / 2;
  lock.wait_for(wake_, window,
                [&]() PARLEY_REQUIRES(mutex_) { return stopping_ || awaited_queued_ >= last_group_awaited_; });
}

void sqlite_writer::take_group(std::vector<request>& group) {
  const auto take_front = [&]() PARLEY_REQUIRES(mutex_) {
    if (!queue_.front().deferred) --awaited_queued_;
    group.push_back(std::move(queue_.front()));
    queue_.pop_front();
  };
  std::size_t events = queue_.front().batch.size();
  take_front();
  if (group.front().kind != request_kind::append) return;
  // Whole batches only: the first is always taken, later ones while they fit the event budget.
  while (!queue_.empty() && queue_.front().kind == request_kind::append &&
         events + queue_.front().batch.size() <= max_batch_events_) {
    events += queue_.front().batch.size();
    take_front();
  }
  // What is left starts a window of its own.
  if (!queue_.empty()) deferred_since_ = std::chrono::steady_clock::now();
}

void sqlite_writer::process_group(std::vector<request>& group) {
  outcomes_.clear();
  last_group_awaited_ = static_cast<std::size_t>(
      std::count_if(group.begin(), group.end(), [](const request& req) { return !req.deferred; }));
  if (group.front().kind == request_kind::rebuild) {
    outcomes_.push_back(rebuild());
  } else if (group.front().kind == request_kind::catch_up) {
    outcomes_.push_back(project_pending());
  } else if (std::all_of(group.begin(), group.end(), [](const request& req) { return req.batch.empty(); })) {
    // Barriers only (an engine's commit of nothing waits for its sends): every earlier group is
    // committed, so there is nothing to write and no transaction to open.
    outcomes_.assign(group.size(), ok());
  } else if (auto intact = check_file(); !intact) {
    outcomes_.assign(group.size(), intact);
  } else if (auto room = room_for_more(); !room) {
    outcomes_.assign(group.size(), room);
  } else {
    commit_group(group);
  }
  for (std::size_t i = 0; i < group.size(); ++i) run_callback(group[i].on_done, std::move(outcomes_[i]));
  outcomes_.clear();
}

std::int64_t sqlite_writer::queued_requests() const {
  parley::lock_guard lock(mutex_);
  return static_cast<std::int64_t>(queue_.size());
}

void sqlite_writer::commit_group(std::vector<request>& group) {
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
    latest_.clear();
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
  const auto commit_start = std::chrono::steady_clock::now();
  auto committed = tables_.commit();
  const auto commit_time = std::chrono::steady_clock::now() - commit_start;
  commit_latency_.observe(std::chrono::duration<double>(commit_time).count());
  last_commit_time_ = std::min(commit_time, kMaxGatherWindow * 2);
  if (!committed) {
    if (db_.in_transaction()) (void)tables_.rollback();
    latest_.clear();
    for (auto& outcome : outcomes_) {
      if (outcome) outcome = committed;
    }
    return;
  }
  trim_caches();
  events_.fetch_add(applied_events, std::memory_order_relaxed);
  transactions_.fetch_add(1, std::memory_order_relaxed);
  hand_over_to_projection(group);
}

result<void> sqlite_writer::apply_whole_group(std::vector<request>& group) {
  for (request& req : group) {
    staged_.clear();
    auto applied = apply_events(req);
    if (!applied) {
      staged_.clear();
      return applied;
    }
    keep_staged_rows();
  }
  return ok();
}

std::int64_t sqlite_writer::apply_batch_by_batch(std::vector<request>& group) {
  std::int64_t applied_events = 0;
  for (request& req : group) {
    auto applied = apply_batch(req);
    if (!applied && !db_.in_transaction()) {
      // SQLite rolled the whole transaction back (an I/O error): the earlier batches are gone too.
      latest_.clear();
      outcomes_.assign(group.size(), applied);
      return 0;
    }
    if (applied) applied_events += static_cast<std::int64_t>(req.batch.size());
    outcomes_.push_back(std::move(applied));
  }
  if (applied_events == 0) (void)tables_.rollback();
  return applied_events;
}

result<void> sqlite_writer::apply_batch(request& req) {
  staged_.clear();
  PARLEY_TRY(tables_.savepoint());
  auto applied = apply_events(req);
  if (applied) applied = tables_.release();
  if (!applied) {
    // If even the rollback fails the transaction's state is unknown: abandon all of it.
    if (db_.in_transaction() && !tables_.rollback_to_savepoint()) (void)tables_.rollback();
    staged_.clear();
    return applied;
  }
  keep_staged_rows();
  return ok();
}

result<void> sqlite_writer::apply_events(request& req) {
  // Folding each event into its dialog's latest row is how a batch is checked (a sequence gap, an
  // event its dialog's state refuses); the projections fold it again when they catch up.
  for (std::size_t i = 0; i < req.batch.size(); ++i) {
    const event& ev = req.batch[i];
    if (ev.dialog_id.empty())
      return make_error(errc::invalid_argument, "event " + std::string(ev.type()) + " has no dialog id");
    auto row = staged_row(ev.dialog_id, opens_dialog(ev));
    if (!row) return std::move(row).err();
    auto step = apply_event(ev, **row);
    if (!step) return std::move(step).err();
    auto event_id = tables_.insert_event(ev);
    if (!event_id) return std::move(event_id).err();
    if (i == 0) req.first_event_id = *event_id;
    if (*event_id != req.first_event_id + static_cast<std::int64_t>(i)) {
      return make_error(errc::internal, "the log gave a batch's events ids that do not follow each other");
    }
  }
  return ok();
}

result<dialog_row*> sqlite_writer::staged_row(const std::string& dialog_id, bool creates) {
  // A batch touches one or a few dialogs; a linear scan beats hashing here. A row staged for a
  // dialog_created event gets its id from apply_event, or the batch fails and is discarded.
  for (dialog_row& row : staged_) {
    if (row.id == dialog_id) return &row;
  }
  if (const dialog_row* cached = latest_.find(dialog_id)) return &staged_.emplace_back(*cached);
  // A dialog's creation finds no row: nothing to look up. (One that exists already is refused by
  // the log's unique (dialog_id, seq).)
  if (creates) return &staged_.emplace_back();
  auto loaded = load_latest_row(dialog_id);
  if (!loaded) return std::move(loaded).err();
  if (!loaded->id.empty()) latest_.insert_or_assign(dialog_id, *loaded);
  return &staged_.emplace_back(std::move(*loaded));
}

result<dialog_row> sqlite_writer::load_latest_row(const std::string& dialog_id) {
  // The table holds the row as of the projections' watermark (nothing writes projections inside
  // an append's transaction); the dialog's events past it are waiting in unprojected_.
  auto loaded = tables_.load_dialog(dialog_id);
  if (!loaded) return std::move(loaded).err();
  dialog_row row = *loaded ? std::move(**loaded) : dialog_row{};
  for (const committed_batch& batch : unprojected_) {
    for (const event& ev : batch.events) {
      if (ev.dialog_id != dialog_id) continue;
      if (auto step = apply_event(ev, row); !step) {
        return make_error(errc::corrupt, "the log of dialog " + dialog_id + " does not replay: " + step.err().message);
      }
    }
  }
  return row;
}

void sqlite_writer::trim_caches() {
  latest_.trim();
  const auto held = std::max(latest_.size(), projector_.cached_dialogs());
  cached_dialogs_.store(static_cast<std::int64_t>(held), std::memory_order_relaxed);
}

void sqlite_writer::keep_staged_rows() {
  for (dialog_row& row : staged_) latest_.insert_or_assign(row.id, std::move(row));
  staged_.clear();
}

}  // namespace parley::sqlite
