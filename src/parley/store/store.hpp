// The Store: the append-only event log plus the projections derived from it. Two implementations
// share this interface: SQLite (durable, the default) and an in-memory store for tests and
// benchmarks. Nothing here throws; nothing here depends on Asio.
//
// Appends are asynchronous and ordered: batches commit in the order `append` was called, and
// `on_durable` runs (on the store's writer thread) only after the batch is durable in the log.
// A failed batch changes nothing: neither the log nor any projection. Every read includes every
// batch appended before it that the log took, callback run or not (the SQLite store waits for
// them, and its projections, which trail the log, catch up before a read).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/metrics.hpp"
#include "parley/core/result.hpp"
#include "parley/model/event.hpp"
#include "parley/model/records.hpp"
#include "parley/store/change_hints.hpp"
#include "parley/store/records_query.hpp"
#include "parley/store/root_listing.hpp"

namespace parley {

using append_callback = std::function<void(result<void>)>;

struct dialog_filter {
  std::optional<events::dialog_status> status;  // none = any
  std::string member_id;                        // empty = any
  std::string root_id;                          // empty = any; set to list one hierarchy
  bool roots_only = false;
  // Only dialogs a restart must look at (a generation was open, or the dialog has a drive owed):
  // what `recover_all` loads, through a partial index, so start-up does not grow with history.
  bool needing_recovery = false;
  bool with_open_questions = false;  // only dialogs that wait for a human (Q4H)
  // Only dialogs whose last drive failed (resume_all's search; no index: a scan of the status).
  bool failed = false;
  std::int64_t limit = 0;  // 0 = no limit
  std::int64_t offset = 0;
};

struct store_stats {
  std::int64_t events = 0;
  std::int64_t transactions = 0;  // commits to the log, so events / transactions is the group-commit factor
  // Commits that brought the projections up to the log (sqlite/projector.hpp); 0 for a store
  // whose projections never trail it.
  std::int64_t projection_transactions = 0;
  // Dialogs whose state the SQLite writer holds in memory after its last commit — the most any of
  // its caches holds (sqlite_options::cached_dialogs bounds it); 0 for the in-memory store.
  std::int64_t cached_dialogs = 0;
  // For `GET /metrics`: how long the log's commits took (their fsync), how many events the
  // projections trail the log by, and the requests queued for the writer. Zero/empty for a store
  // without a writer thread.
  metrics::histogram_snapshot commit_seconds;
  std::int64_t projection_lag_events = 0;
  std::int64_t queued_writes = 0;
};

// How many dialogs the store holds in each status (`GET /metrics`).
struct dialog_counts {
  std::int64_t running = 0;
  std::int64_t completed = 0;
  std::int64_t archived = 0;

  void add(events::dialog_status status, std::int64_t n = 1) noexcept {
    switch (status) {
      case events::dialog_status::running:
        running += n;
        break;
      case events::dialog_status::completed:
        completed += n;
        break;
      case events::dialog_status::archived:
        archived += n;
        break;
    }
  }
};

// An event whose stored text does not read back as strict JSON (sqlite/log_repair.hpp).
struct damaged_event {
  std::int64_t event_id = 0;
  std::string dialog_id;
  std::int64_t seq = 0;
  std::string type;
  std::string problem;
};

// What a client's `msgId` was first sent with (store::find_input): a user message or the answer
// to a question. A retry is told from a reuse of the id by comparing what it sends with this.
enum class input_kind { message, answer };

struct input_record {
  input_kind kind = input_kind::message;
  std::string dialog_id;
  std::int64_t seq = 0;
  std::string from;  // the user who sent the message or answer, "" when none was named
  std::string content;
  std::string question_id;  // an answer's question; "" for a message
};

class store {
 public:
  virtual ~store() = default;
  store() = default;
  store(const store&) = delete;
  store& operator=(const store&) = delete;

  // Queues a batch; every event of it is applied to the projections, or none is.
  virtual void append(std::vector<event> batch, append_callback on_durable) = 0;
  // The same for a batch nobody waits on (its callback only reports): it keeps its place in the
  // order, but the store may hold it back for a moment so that it shares the commit — the fsync —
  // of the next batch someone waits on.
  virtual void append_deferred(std::vector<event> batch, append_callback on_durable) {
    append(std::move(batch), std::move(on_durable));
  }
  // Blocks until every batch appended before the call has committed (or failed) and the stored
  // projections include it.
  virtual void flush() = 0;

  virtual result<std::vector<event>> read_events(std::string_view dialog_id, std::int64_t after_seq = 0) = 0;
  // Every event in commit order (the global order of the log).
  virtual result<std::vector<event>> read_all_events() = 0;

  virtual result<std::vector<dialog_row>> list_dialogs(const dialog_filter& filter) = 0;
  // Root dialogs newest first, filtered and paged (root_listing.hpp). By default a scan of every
  // root; a store with indexes for it answers from them.
  virtual result<root_page> list_roots(const root_listing& listing) { return scan_roots(*this, listing); }
  virtual result<std::optional<dialog_row>> get_dialog(std::string_view dialog_id) = 0;
  // Messages of one course (course = 0: every course), in seq order.
  virtual result<std::vector<message_row>> messages(std::string_view dialog_id, std::int64_t course) = 0;

  // Drops every projection and recomputes it by replaying the whole log.
  virtual result<void> rebuild_projections() = 0;
  virtual store_stats stats() const = 0;
  // Every dialog counted by status. The default lists them all; a store with an index answers
  // from it.
  virtual result<dialog_counts> count_dialogs();
  // Events whose stored text does not read back as it should (`parley check`); reads repair what
  // they can of them, `parley repair` makes it permanent. A store that keeps no text has none.
  virtual result<std::vector<damaged_event>> damaged_events() { return std::vector<damaged_event>{}; }
  // The first user message or answer sent with `msg_id`, including batches appended before the
  // call. The log answers (an index in the SQLite store), so it holds across restarts.
  virtual result<std::optional<input_record>> find_input(std::string_view msg_id) = 0;
  // Empty while the store can take appends; else what broke it for good (the SQLite store's
  // database file replaced or deleted under it), which every append now fails with.
  virtual std::string health_problem() const { return {}; }

  // Trees — a root and its subdialogs — are written by one process at a time. A store that
  // several processes share (PostgreSQL, docs/scale-out.md) hands out a lease per tree and fences
  // every append with it: an append to a tree held by another live process fails with
  // errc::conflict, and one from a process whose lease was taken over can never land. A store with
  // one writer per store has no one to share with: every tree is this process's.
  //
  // Takes (or renews) the lease of `root_id`'s tree: true when this process now holds it, false
  // when another live process does.
  virtual result<bool> claim_tree(std::string_view /*root_id*/) { return true; }
  // Gives the lease back once the tree is at rest, after every batch appended before the call.
  virtual void release_tree(std::string_view /*root_id*/) {}
  // Roots of trees that owe work (a dialog generating or owing a drive) that no live process holds:
  // what a node takes over from one that died or stalled.
  virtual result<std::vector<std::string>> orphaned_trees() { return std::vector<std::string>{}; }
  // Whether other processes write this store too (and orphaned_trees is worth asking).
  virtual bool shared_between_processes() const noexcept { return false; }
  // Whether this process holds `root_id`'s lease now (claimed and not lost since).
  virtual bool holds_tree(std::string_view /*root_id*/) const { return true; }

  // Between the processes that share a store (change_hints.hpp). `handler` gets, on a thread of
  // the store's, what the others append and forward; a store nobody else writes never calls it.
  // By value: the stores that use it keep it (a sink), though this default drops it.
  virtual void watch_changes(change_handler /*handler*/) {}  // NOLINT(performance-unnecessary-value-param)
  // Keeps a user's input for the process that drives its tree, and tells that process. Only a
  // store shared between processes has anyone to forward to.
  virtual result<void> forward_input(const forwarded_input& /*input*/) {
    return make_error(errc::conflict, "no other process writes this store");
  }
  // Every forwarded input not yet dropped, oldest first.
  virtual result<std::vector<forwarded_input>> pending_inputs() { return std::vector<forwarded_input>{}; }
  // Forgets a forwarded input once its tree's owner made it durable (or refused it for good).
  virtual result<void> drop_input(std::int64_t /*id*/) { return ok(); }
  // What each of `watched` (a dialog and the seq its watcher has) holds past that seq, with its
  // row, as committed now: for watchers of dialogs other processes write, which need not wait for
  // this process's own appends. Dialogs that do not exist are left out.
  virtual result<std::vector<dialog_since>> read_since(
      const std::vector<std::pair<std::string, std::int64_t>>& watched);

  // Seed 002's conversation records, or nullptr when this store does not keep them.
  virtual records_query* records() noexcept { return nullptr; }

  // Where the process that writes this store serves its API (`parley serve`), so that CLI verbs
  // that write go through it (data_dir_lock.hpp). A store with no such lock has nowhere to say it.
  virtual result<void> announce_api(std::string_view /*url*/) { return ok(); }
  // What opening the store found worth telling the user (a lock taken over from a process that
  // died), one line each.
  virtual std::vector<std::string> open_notices() const { return {}; }
};

struct sqlite_options {
  bool durable = true;  // synchronous=FULL; false only for throwaway benchmark runs
  std::int64_t max_batch_events = 4096;
  // The projections trail the durable log (sqlite/projector.hpp): they catch up once this many
  // events wait or the oldest has waited this long, and before every read of them.
  std::int64_t projection_batch_events = 4096;
  std::chrono::milliseconds projection_lag{50};
  // How long a deferred batch (append_deferred) may wait for a batch someone waits on, whose commit
  // it then shares; past this it commits on its own.
  std::chrono::milliseconds deferred_commit_window{5};
  // How many dialogs the writer thread keeps in memory (their latest row, projected row and records
  // cursor), least recently used first out (sqlite/recency_cache.hpp); the rest are read from the
  // tables when their dialog comes back.
  std::int64_t cached_dialogs = 4096;
  // SQLite's quick_check reads every page of the file: seconds for a store of a million dialogs,
  // which would make start-up grow with history. Files up to this size are checked whole when
  // opened; larger ones by their header and schema only (a damaged page is refused when it is
  // read), and whole by `parley check`, which opens with no limit.
  std::int64_t full_check_max_bytes = std::int64_t{256} << 20;
  // What the process that opens the store for writing says it is doing, in the data directory's
  // lock file (data_dir_lock.hpp): `parley serve` says "serve".
  std::string writer_command = "open";
};

// Opens (creating if needed) `<dir>/parley.db`. Refuses a directory that is not writable and a
// database that fails SQLite's integrity check (options.full_check_max_bytes), and never
// overwrites an existing file it cannot read.
// Takes the data directory's writer lock (data_dir_lock.hpp) first: while another process holds it,
// fails with errc::conflict naming that process.
result<std::unique_ptr<store>> open_sqlite_store(const std::string& dir, const sqlite_options& options = {});
// Opens `<dir>/parley.db` for reading only, whoever writes it meanwhile: writes nothing at all
// (sqlite_store.hpp), and reads one snapshot, taken at open. With `log_as_projected` the log ends
// where the projections do in that snapshot (they trail it by up to projection_lag while a writer
// works), so the two agree (`parley check`). Refuses a store that is missing, damaged, or at a
// schema version other than this binary's (migrating is writing: a verb that writes, or `parley
// serve`, does it).
result<std::unique_ptr<store>> open_sqlite_store_read_only(const std::string& dir, const sqlite_options& options = {},
                                                           bool log_as_projected = false);
struct postgres_options {
  // How many batches' events one commit may hold at most (group commit across dialogs).
  std::int64_t max_batch_events = 4096;
  // Dialog rows the writer keeps in memory (least recently used out), as sqlite_options'.
  std::int64_t cached_dialogs = 4096;
  // Connections for reads, opened as needed; a read waits for one when all are busy. With the
  // writer's own, the most this store ever holds open against the server.
  int read_connections = 4;
  // How long opening keeps retrying a database that refuses connections (down, starting); past
  // it, opening fails naming the server. Zero: one attempt.
  std::chrono::milliseconds connect_wait{0};
  // Shown in pg_stat_activity.
  std::string application_name = "parley";
  // This process's name in the tree leases (store::claim_tree); empty: host, pid and a random
  // suffix. Two processes must never share one.
  std::string node_id;
  // How long a lease lasts without renewal, on the database's clock: a process renews its leases
  // every third of it, and another takes over a tree at most this long after its holder stopped.
  std::chrono::milliseconds lease_ttl{3000};
};

// True for a `postgresql://` or `postgres://` URL: what `--store` and PARLEY_STORE take to mean a
// PostgreSQL store rather than a data directory.
bool is_postgres_url(std::string_view location) noexcept;
// The URL with its password masked ("***"): the only form of it a log or an error shows.
std::string redacted_postgres_url(std::string_view url);
// Connects to the database at `url` (libpq's URL form, with every parameter libpq takes), applies
// the schema's migrations (refusing a schema newer than this binary's) and starts the writer.
// Errors name the server by its URL with the password masked.
result<std::unique_ptr<store>> open_postgres_store(const std::string& url, const postgres_options& options = {});
// Only migrates: `parley migrate`.
result<void> migrate_postgres_store(const std::string& url, const postgres_options& options = {});

std::unique_ptr<store> make_memory_store();

}  // namespace parley
