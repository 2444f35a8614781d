#include "parley/store/postgres/pg_writer.hpp"

#include <algorithm>
#include <future>

#include <map>

#include "parley/core/json_text.hpp"
#include "parley/core/thread_name.hpp"
#include "parley/model/event_codec.hpp"
#include "parley/model/projection.hpp"
#include "parley/store/append_check.hpp"
#include "parley/store/postgres/pg_record_set.hpp"
#include "parley/store/postgres/pg_records_statements.hpp"
#include "parley/store/postgres/pg_rows.hpp"
#include "parley/store/postgres/pg_schema.hpp"

namespace parley::pg {

pg_writer::pg_writer(std::string url, connection conn, const postgres_options& options,
                     std::shared_ptr<lease_book> leases, std::shared_ptr<change_feed> feed)
    : url_(std::move(url)),
      options_(options),
      leases_(std::move(leases)),
      feed_(std::move(feed)),
      conn_(std::move(conn)),
      latest_(static_cast<std::size_t>(std::max<std::int64_t>(options.cached_dialogs, 1))),
      records_(static_cast<std::size_t>(std::max<std::int64_t>(options.cached_dialogs, 1))) {}

result<std::unique_ptr<pg_writer>> pg_writer::start(std::string url, connection conn, const postgres_options& options,
                                                    std::shared_ptr<lease_book> leases,
                                                    std::shared_ptr<change_feed> feed) {
  std::unique_ptr<pg_writer> writer(
      new pg_writer(std::move(url), std::move(conn), options, std::move(leases), std::move(feed)));
  PARLEY_TRY(writer->prepare_statements());
  // A log older than seed 002's records on this database gets them before the first append.
  PARLEY_TRY(writer->rebuild(/*only_if_backfill=*/true));
  writer->thread_ = std::thread([w = writer.get()] { w->run(); });
  writer->thread_id_ = writer->thread_.get_id();
  return writer;
}

pg_writer::~pg_writer() { shutdown(); }

result<void> pg_writer::prepare_statements() {
  auto events_last_id = conn_.query("SELECT last_value FROM events_id_seq", "reading the log's last id");
  if (!events_last_id) return std::move(events_last_id).err();
  std::int64_t last_id = 0;
  PARLEY_TRY_ASSIGN(last_id, events_last_id->integer(0, 0));
  PARLEY_TRY(ensure_partitions(conn_, last_id));
  partitions_until_ = (last_id / kEventsPerPartition + 2) * kEventsPerPartition;

  const std::string dialog_type = dialog_record_type();
  const std::string statements[][2] = {
      {writer_sql::kAppendEvents,
       "WITH ins AS (INSERT INTO events (dialog_id, root_id, seq, type, payload, ts_ms) "
       "SELECT x.dialog_id, x.root_id, x.seq, x.type, x.payload, x.ts_ms FROM json_to_recordset($1::json) AS "
       "x(n bigint, dialog_id text, root_id text, seq bigint, type text, payload text, ts_ms bigint) ORDER BY x.n "
       "RETURNING id) SELECT max(id) FROM ins"},
      {writer_sql::kInsertDialogs, "INSERT INTO dialogs (" + dialog_columns() + ") SELECT " + dialog_columns() +
                                       " FROM json_to_recordset($1::json) AS x(" + dialog_type + ")"},
      {writer_sql::kUpdateDialogs, "WITH x AS (SELECT * FROM json_to_recordset($1::json) AS x(prev_seq bigint, " +
                                       dialog_type + ")), u AS (UPDATE dialogs d SET " + dialog_assignments() +
                                       " FROM x WHERE d.id = x.id AND d.last_seq = x.prev_seq RETURNING 1) "
                                       "SELECT parley_expect((SELECT count(*) FROM u) = $2::bigint, "
                                       "'another writer appended to a dialog of this batch first')"},
      {writer_sql::kInsertMessages,
       "INSERT INTO messages (dialog_id, seq, course) SELECT x.dialog_id, x.seq, x.course FROM "
       "json_to_recordset($1::json) AS x(dialog_id text, seq bigint, course bigint)"},
      {writer_sql::kInsertInputs,
       "INSERT INTO inputs (msg_id, kind, dialog_id, seq, sender, content_json, question_id) "
       "SELECT x.msg_id, x.kind, x.dialog_id, x.seq, x.sender, x.content_json, x.question_id FROM "
       "json_to_recordset($1::json) AS x(n bigint, msg_id text, kind text, dialog_id text, seq bigint, sender text, "
       "content_json text, question_id text) ORDER BY x.n ON CONFLICT (msg_id) DO NOTHING"},
      // The fence: every held tree of the group must still be this process's at the epoch it
      // holds, or the whole transaction is refused (pg_leases.hpp). Renews them on the way.
      {writer_sql::kFenceTrees,
       "WITH x AS (SELECT * FROM json_to_recordset($1::json) AS x(root_id text, epoch bigint)), u AS (UPDATE "
       "tree_leases l SET expires_at = now() + $3::interval FROM x WHERE l.root_id = x.root_id AND l.owner = $2 AND "
       "l.epoch = x.epoch RETURNING 1) SELECT parley_expect((SELECT count(*) FROM u) = (SELECT count(*) FROM x), "
       "'this process no longer holds the lease of a tree it appends to')"},
      {writer_sql::kNewTrees,
       "INSERT INTO tree_leases (root_id, owner, epoch, expires_at) SELECT x.root_id, $2, 1, now() + $3::interval "
       "FROM json_to_recordset($1::json) AS x(root_id text)"},
  };
  for (const auto& [name, sql] : statements) {
    PGresult* res = PQprepare(conn_.raw(), name.c_str(), sql.c_str(), 0, nullptr);
    rows owned(res);
    if (res == nullptr || PQresultStatus(res) != PGRES_COMMAND_OK) {
      return res == nullptr ? make_error(errc::unavailable, "preparing " + name + ": " + conn_.last_error())
                            : error_of(res, "preparing " + name);
    }
  }
  return records_sql::prepare(conn_);
}

std::uint64_t pg_writer::enqueue(request req) {
  {
    parley::lock_guard lock(mutex_);
    if (!stopping_) {
      req.ticket = ++enqueued_;
      queue_.push_back(std::move(req));
      wake_.notify_one();
      return enqueued_;
    }
  }
  if (req.on_done) req.on_done(make_error(errc::unavailable, "the PostgreSQL store is closed"));
  return 0;
}

void pg_writer::append(std::vector<event> batch, append_callback on_done) {
  request req;
  req.batch = std::move(batch);
  req.on_done = std::move(on_done);
  enqueue(std::move(req));
}

void pg_writer::release_tree(std::string root_id) {
  request req;
  req.release_root = std::move(root_id);
  enqueue(std::move(req));
}

void pg_writer::wait_for_earlier() {
  if (std::this_thread::get_id() == thread_id_) return;
  parley::unique_lock lock(mutex_);
  const std::uint64_t ticket = enqueued_;
  lock.wait(done_, [&]() PARLEY_REQUIRES(mutex_) { return completed_ >= ticket || stopped_; });
}

result<void> pg_writer::rebuild_projections() {
  std::promise<result<void>> outcome;
  auto future = outcome.get_future();
  request req;
  req.rebuild = true;
  req.on_done = [&outcome](result<void> r) { outcome.set_value(std::move(r)); };
  enqueue(std::move(req));
  return future.get();
}

void pg_writer::shutdown() {
  {
    parley::lock_guard lock(mutex_);
    if (stopping_ && !thread_.joinable()) return;
    stopping_ = true;
    wake_.notify_all();
  }
  if (thread_.joinable()) thread_.join();
}

std::string pg_writer::health_problem() const {
  parley::lock_guard lock(mutex_);
  return problem_;
}

void pg_writer::set_problem(std::string problem) {
  parley::lock_guard lock(mutex_);
  problem_ = std::move(problem);
}

std::int64_t pg_writer::queued_requests() const {
  parley::lock_guard lock(mutex_);
  return static_cast<std::int64_t>(queue_.size());
}

void pg_writer::run() {
  name_this_thread("parley-pg-write");
  std::vector<request> group;
  for (;;) {
    {
      parley::unique_lock lock(mutex_);
      lock.wait(wake_, [&]() PARLEY_REQUIRES(mutex_) { return !queue_.empty() || stopping_; });
      if (queue_.empty()) break;
      // A rebuild or a release goes alone; appends gather up to the event bound.
      const auto alone = [](const request& req) { return req.rebuild || !req.release_root.empty(); };
      std::size_t events = 0;
      while (!queue_.empty() && (group.empty() || (!alone(queue_.front()) && !alone(group.front()) &&
                                                   events + queue_.front().batch.size() <=
                                                       static_cast<std::size_t>(options_.max_batch_events)))) {
        events += queue_.front().batch.size();
        group.push_back(std::move(queue_.front()));
        queue_.pop_front();
      }
    }
    process(group);
    {
      parley::lock_guard lock(mutex_);
      completed_ = group.back().ticket;
      done_.notify_all();
    }
    group.clear();
  }
  parley::lock_guard lock(mutex_);
  stopped_ = true;
  done_.notify_all();
}

void pg_writer::process(std::vector<request>& group) {
  if (group.front().rebuild) {
    auto outcome = rebuild();
    group.front().on_done(std::move(outcome));
    return;
  }
  if (const std::string& root = group.front().release_root; !root.empty()) {
    // Best effort: a lease not given back expires on its own.
    if (const auto epoch = leases_->epoch_of(root); epoch && (conn_.healthy() || reconnect())) {
      (void)leases_->release(conn_, root, *epoch);
    }
    return;
  }
  std::vector<result<void>> outcomes(group.size(), ok());
  staged_group whole;
  for (std::size_t i = 0; i < group.size(); ++i) {
    outcomes[i] = stage(group[i], whole);
    if (outcomes[i]) whole.members.push_back(i);
  }
  if (!whole.members.empty()) {
    auto committed = commit(whole);
    if (committed) {
      keep_rows(whole);
    } else if (whole.members.size() == 1 || committed.err().code == errc::unavailable) {
      for (const std::size_t i : whole.members) outcomes[i] = committed.err();
      if (committed.err().code == errc::conflict) mark_trees_lost(whole);
    } else {
      // Refused as a whole: each batch alone, so that only the one at fault fails.
      for (const std::size_t i : whole.members) {
        staged_group alone;
        outcomes[i] = stage(group[i], alone);
        if (outcomes[i]) alone.members.push_back(i);
        if (outcomes[i]) outcomes[i] = commit(alone);
        if (outcomes[i]) {
          keep_rows(alone);
        } else if (outcomes[i].err().code == errc::conflict) {
          mark_trees_lost(alone);
        }
      }
    }
  }
  for (std::size_t i = 0; i < group.size(); ++i) {
    if (group[i].on_done) group[i].on_done(std::move(outcomes[i]));
  }
}

result<void> pg_writer::stage_lease(const event& ev, staged_group& staged) {
  const std::string& root = ev.root_id.empty() ? ev.dialog_id : ev.root_id;
  if (staged.fences.contains(root) || staged.new_trees.contains(root)) return ok();
  if (const auto epoch = leases_->epoch_of(root)) {
    staged.fences.emplace(root, *epoch);
    return ok();
  }
  if (opens_dialog(ev) && ev.dialog_id == root) {
    staged.new_trees.insert(root);
    return ok();
  }
  if (leases_->lost(root)) {
    return make_error(errc::conflict, "the tree of dialog " + root +
                                          " was taken over by another Parley process; it is read again before "
                                          "this one writes to it");
  }
  // A tree this process does not hold (a CLI verb, input for a tree at rest): claimed now, in its
  // own transaction, and refused while another live process holds it.
  if (!conn_.healthy() && !reconnect()) return make_error(errc::unavailable, "the PostgreSQL store is closed");
  bool claimed = false;
  PARLEY_TRY_ASSIGN(claimed, leases_->claim(conn_, root));
  if (!claimed) {
    return make_error(errc::conflict, "the tree of dialog " + root + " is driven by another Parley process");
  }
  staged.fences.emplace(root, *leases_->epoch_of(root));
  return ok();
}

void pg_writer::mark_trees_lost(const staged_group& staged) {
  // A batch refused alone for a conflict met another writer's events or lease: whatever this
  // process holds of its trees may be stale, and only an explicit claim (which the engine follows
  // with a fresh read) lets it write to them again.
  for (const auto& [root, epoch] : staged.fences) leases_->mark_lost(root);
}

void pg_writer::note_lost_trees(const staged_group& staged) {
  if (staged.fences.empty()) return;
  // Which of the group's leases another process holds now (a refused group may have been refused
  // for one tree alone: the others are still this process's).
  std::vector<std::string> fenced;
  for (const auto& [root, epoch] : staged.fences) fenced.push_back(root);
  const std::string roots = json_text_array(fenced);
  const params<2> args{roots, leases_->node_id()};
  auto still_mine = conn_.query(
      "SELECT root_id, epoch FROM tree_leases WHERE owner = $2 AND root_id IN (SELECT "
      "json_array_elements_text($1::json))",
      args, "checking the tree leases");
  if (!still_mine) return;  // the next append's fence says it again
  std::map<std::string, std::int64_t, std::less<>> mine;
  for (int i = 0; i < still_mine->size(); ++i) {
    if (auto epoch = still_mine->integer(i, 1)) mine.emplace(std::string(still_mine->text(i, 0)), *epoch);
  }
  for (const auto& [root, epoch] : staged.fences) {
    const auto found = mine.find(root);
    if (found == mine.end() || found->second != epoch) leases_->mark_lost(root);
  }
}

result<dialog_row> pg_writer::load_row(const std::string& dialog_id) {
  const params<1> args{dialog_id};
  auto found = conn_.query("SELECT " + dialog_columns() + " FROM dialogs WHERE id = $1", args, "reading a dialog");
  if (!found) return std::move(found).err();
  if (found->empty()) return make_error(errc::not_found, "no dialog " + dialog_id + " to append to");
  return read_dialog(*found, 0);
}

result<void> pg_writer::stage(const request& req, staged_group& staged) {
  // The leases are staged straight into the group; put back as they were when the batch fails.
  auto fences = staged.fences;
  auto new_trees = staged.new_trees;
  auto staged_batch = stage_batch(req, staged);
  if (!staged_batch) {
    staged.fences = std::move(fences);
    staged.new_trees = std::move(new_trees);
  }
  return staged_batch;
}

result<void> pg_writer::stage_batch(const request& req, staged_group& staged) {
  PARLEY_TRY(check_appendable(req.batch));
  // Rows this batch touches, copied so that a failure leaves `staged` as it was.
  std::unordered_map<std::string, dialog_row> touched;
  std::unordered_map<std::string, std::int64_t> heads;
  std::vector<std::pair<const event*, std::int64_t>> messages;
  folded_batch records;
  for (const event& ev : req.batch) {
    if (ev.dialog_id.empty()) {
      return make_error(errc::invalid_argument, "event " + std::string(ev.type()) + " has no dialog id");
    }
    PARLEY_TRY(stage_lease(ev, staged));
    auto row = touched.find(ev.dialog_id);
    if (row == touched.end()) {
      dialog_row start;
      if (auto it = staged.rows.find(ev.dialog_id); it != staged.rows.end()) {
        start = it->second;
      } else if (const dialog_row* cached = latest_.find(ev.dialog_id)) {
        start = *cached;
        heads.emplace(ev.dialog_id, start.last_seq);
      } else if (!opens_dialog(ev)) {
        PARLEY_TRY_ASSIGN(start, load_row(ev.dialog_id));
        heads.emplace(ev.dialog_id, start.last_seq);
      }
      row = touched.emplace(ev.dialog_id, std::move(start)).first;
    }
    auto step = apply_event(ev, row->second);
    if (!step) return std::move(step).err();
    if (step->new_message) messages.emplace_back(&ev, step->new_message->course);
    PARLEY_TRY(records_.fold(conn_, ev, row->second, *step, staged.records, records));
  }
  for (auto& [id, row] : touched) staged.rows.insert_or_assign(id, std::move(row));
  staged.heads.merge(heads);
  for (const event& ev : req.batch) staged.events.push_back(&ev);
  staged.messages.insert(staged.messages.end(), messages.begin(), messages.end());
  std::move(records).add_to(staged.records);
  return ok();
}

std::vector<appended_hint> pg_writer::hints_of(const staged_group& staged) {
  std::vector<appended_hint> hints;
  std::unordered_map<std::string_view, std::size_t> index;  // dialog → its hint
  for (const event* ev : staged.events) {
    const std::string& root = ev->root_id.empty() ? ev->dialog_id : ev->root_id;
    auto [it, fresh] = index.try_emplace(ev->dialog_id, hints.size());
    if (fresh) hints.push_back(appended_hint{ev->dialog_id, root, ev->seq});
    auto& hint = hints[it->second];
    hint.seq = std::max(hint.seq, ev->seq);
    const bool is_root = ev->dialog_id == root;
    if (const auto* created = ev->as<events::dialog_created>()) {
      hint.created = true;
      hint.list_changed = hint.list_changed || created->kind != events::dialog_kind::sub;
    }
    if (const auto* forked = ev->as<events::dialog_forked>()) {
      hint.created = true;
      hint.list_changed = hint.list_changed || forked->created.kind != events::dialog_kind::sub;
    }
    if (is_root && (ev->is<events::status_changed>() || ev->is<events::title_changed>())) hint.list_changed = true;
  }
  return hints;
}

void pg_writer::keep_rows(staged_group& staged) {
  if (feed_) feed_->note_appended(hints_of(staged));
  for (const auto& root : staged.new_trees) leases_->hold(root, 1);
  for (auto& [id, row] : staged.rows) latest_.insert_or_assign(id, std::move(row));
  latest_.trim();
  records_.committed(staged.records);
  cached_dialogs_.store(static_cast<std::int64_t>(std::max(latest_.size(), records_.cached_dialogs())),
                        std::memory_order_relaxed);
}

result<void> pg_writer::commit(const staged_group& staged) {
  for (;;) {
    if (!conn_.healthy() && !reconnect()) {
      return make_error(errc::unavailable, "the PostgreSQL store closed while the database was unreachable");
    }
    const auto started = std::chrono::steady_clock::now();
    auto sent = send_commit_pipeline(conn_, staged, *leases_);
    if (sent) {
      commit_latency_.observe(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
      events_.fetch_add(static_cast<std::int64_t>(staged.events.size()), std::memory_order_relaxed);
      transactions_.fetch_add(1, std::memory_order_relaxed);
      if (*sent >= partitions_until_ - kEventsPerPartition / 2) {
        if (ensure_partitions(conn_, *sent))
          partitions_until_ = (*sent / kEventsPerPartition + 2) * kEventsPerPartition;
      }
      return ok();
    }
    if (sent.err().code != errc::unavailable || conn_.healthy()) {
      // Another writer moved a dialog on, or took a tree over: forget the rows so that the next
      // append reads them, and the leases so that it claims them again (or is refused).
      if (sent.err().code == errc::conflict) {
        latest_.clear();
        records_.forget();
        note_lost_trees(staged);
      }
      return std::move(sent).err();
    }
    // The connection went: the commit may or may not have happened.
    set_problem("PostgreSQL at " + conn_.shown_url() + " is unreachable: " + sent.err().message);
    if (!reconnect())
      return make_error(errc::unavailable, "the PostgreSQL store closed while the database was unreachable");
    auto landed = commit_landed(conn_, staged);
    if (landed && *landed) return ok();
  }
}

bool pg_writer::reconnect() {
  auto backoff = std::chrono::milliseconds(100);
  for (;;) {
    {
      parley::unique_lock lock(mutex_);
      if (stopping_) return false;
    }
    auto opened = connection::open(url_, options_.application_name);
    if (opened) {
      conn_ = std::move(*opened);
      if (auto prepared = prepare_statements(); prepared) {
        set_problem({});
        return true;
      }
    } else {
      set_problem(opened.err().message);
    }
    parley::unique_lock lock(mutex_);
    lock.wait_for(wake_, backoff, [&]() PARLEY_REQUIRES(mutex_) { return stopping_; });
    backoff = std::min<std::chrono::milliseconds>(backoff * 2, std::chrono::seconds(5));
  }
}

}  // namespace parley::pg
