#include "parley/store/postgres/pg_store.hpp"

#include <thread>
#include <unordered_map>

#include "parley/core/json_text.hpp"
#include "parley/core/thread_name.hpp"

#include "parley/store/postgres/pg_rows.hpp"
#include "parley/store/postgres/pg_schema.hpp"

namespace parley {

bool is_postgres_url(std::string_view location) noexcept {
  return location.starts_with("postgresql://") || location.starts_with("postgres://");
}

std::string redacted_postgres_url(std::string_view url) { return pg::redacted_url(url); }

namespace pg {

namespace {

// The events a query selected with kEventColumns.
result<std::vector<event>> events_of(const rows& found) {
  std::vector<event> out;
  out.reserve(static_cast<std::size_t>(found.size()));
  for (int i = 0; i < found.size(); ++i) {
    auto ev = read_event(found, i);
    if (!ev) return std::move(ev).err();
    out.push_back(std::move(*ev));
  }
  return out;
}

result<std::vector<dialog_row>> dialogs_of(const rows& found) {
  std::vector<dialog_row> out;
  out.reserve(static_cast<std::size_t>(found.size()));
  for (int i = 0; i < found.size(); ++i) {
    auto row = read_dialog(found, i);
    if (!row) return std::move(row).err();
    out.push_back(std::move(*row));
  }
  return out;
}

// Connects, retrying a server that refuses connections for up to `wait` with backoff.
result<connection> connect_waiting(const std::string& url, const postgres_options& options) {
  const auto deadline = std::chrono::steady_clock::now() + options.connect_wait;
  auto backoff = std::chrono::milliseconds(100);
  for (;;) {
    auto opened = connection::open(url, options.application_name);
    if (opened || opened.err().code != errc::unavailable || std::chrono::steady_clock::now() + backoff > deadline) {
      return opened;
    }
    std::this_thread::sleep_for(backoff);
    backoff = std::min<std::chrono::milliseconds>(backoff * 2, std::chrono::seconds(2));
  }
}

}  // namespace

pg_store::pg_store(std::string url, std::unique_ptr<pg_writer> writer, std::shared_ptr<lease_book> leases,
                   std::shared_ptr<change_feed> feed, const postgres_options& options)
    : url_(url),
      application_name_(options.application_name),
      leases_(std::move(leases)),
      feed_(std::move(feed)),
      writer_(std::move(writer)),
      readers_(std::move(url), options.read_connections, options.application_name),
      records_(*writer_, readers_),
      keeper_([this] { keep_leases(); }) {}

pg_store::~pg_store() {
  {
    parley::lock_guard lock(keeper_mutex_);
    stopping_ = true;
    keeper_wake_.notify_all();
  }
  keeper_.join();
  writer_->shutdown();
  // What this process still holds is given back, so another takes it over at once rather than
  // when the leases expire (a graceful shutdown).
  (void)readers_.with_connection([&](connection& conn) -> result<void> {
    for (const auto& lease : leases_->held()) PARLEY_TRY(leases_->release(conn, lease.root_id, lease.epoch));
    return ok();
  });
}

void pg_store::keep_leases() {
  name_this_thread("parley-pg-lease");
  connection conn;
  const auto period = leases_->ttl() / 3;
  for (;;) {
    {
      parley::unique_lock lock(keeper_mutex_);
      if (lock.wait_for(keeper_wake_, period, [&]() PARLEY_REQUIRES(keeper_mutex_) { return stopping_; })) return;
    }
    if (leases_->held().empty()) continue;
    if (!conn.healthy()) {
      auto opened = connection::open(url_, application_name_);
      if (!opened) continue;  // the writer says why (health_problem); leases lapse meanwhile
      conn = std::move(*opened);
    }
    (void)leases_->renew(conn);
  }
}

result<bool> pg_store::claim_tree(std::string_view root_id) {
  return readers_.with_connection([&](connection& conn) { return leases_->claim(conn, root_id); });
}

void pg_store::release_tree(std::string_view root_id) { writer_->release_tree(std::string(root_id)); }

result<std::vector<std::string>> pg_store::orphaned_trees() {
  return readers_.with_connection([&](connection& conn) { return leases_->orphaned(conn); });
}

void pg_store::append(std::vector<event> batch, append_callback on_durable) {
  writer_->append(std::move(batch), std::move(on_durable));
}

void pg_store::flush() { writer_->wait_for_earlier(); }

result<rows> pg_store::read(std::string_view sql, std::span<const std::optional<std::string_view>> args,
                            std::string_view doing) {
  writer_->wait_for_earlier();
  return readers_.with_connection([&](connection& conn) { return conn.query(sql, args, doing); });
}

result<std::vector<event>> pg_store::read_events(std::string_view dialog_id, std::int64_t after_seq) {
  const std::string after = std::to_string(after_seq);
  const params<2> args{dialog_id, after};
  auto found = read("SELECT " + std::string(kEventColumns) +
                        " FROM events e WHERE e.dialog_id = $1 AND e.seq > $2::bigint ORDER BY e.seq",
                    args, "reading a dialog's events");
  if (!found) return std::move(found).err();
  return events_of(*found);
}

result<std::vector<event>> pg_store::read_all_events() {
  auto found = read("SELECT " + std::string(kEventColumns) + " FROM events e ORDER BY e.id", {}, "reading the log");
  if (!found) return std::move(found).err();
  return events_of(*found);
}

result<std::vector<dialog_row>> pg_store::list_dialogs(const dialog_filter& filter) {
  std::string sql = "SELECT " + dialog_columns() + " FROM dialogs WHERE true";
  std::vector<std::optional<std::string_view>> args;
  const std::string status = filter.status ? std::string(events::to_wire(*filter.status)) : std::string();
  const std::string limit = std::to_string(filter.limit);
  const std::string offset = std::to_string(std::max<std::int64_t>(filter.offset, 0));
  const auto bind = [&](std::string_view value) {
    args.emplace_back(value);
    return "$" + std::to_string(args.size());
  };
  if (filter.status) sql += " AND status = " + bind(status);
  if (!filter.member_id.empty()) sql += " AND member_id = " + bind(filter.member_id);
  if (!filter.root_id.empty()) sql += " AND root_id = " + bind(filter.root_id);
  if (filter.roots_only) sql += " AND parent_id = ''";
  if (filter.needing_recovery) sql += " AND (generating OR needs_drive)";
  if (filter.failed) sql += " AND last_error <> ''";
  if (filter.with_open_questions) sql += " AND open_questions > 0";
  sql += " ORDER BY created_at_ms, id";
  if (filter.limit > 0) sql += " LIMIT " + bind(limit) + "::bigint";
  if (filter.offset > 0) sql += " OFFSET " + bind(offset) + "::bigint";
  auto found = read(sql, args, "listing dialogs");
  if (!found) return std::move(found).err();
  return dialogs_of(*found);
}

result<std::optional<dialog_row>> pg_store::get_dialog(std::string_view dialog_id) {
  const params<1> args{dialog_id};
  auto found = read("SELECT " + dialog_columns() + " FROM dialogs WHERE id = $1", args, "reading a dialog");
  if (!found) return std::move(found).err();
  if (found->empty()) return std::optional<dialog_row>{};
  auto row = read_dialog(*found, 0);
  if (!row) return std::move(row).err();
  return std::optional<dialog_row>{std::move(*row)};
}

result<std::vector<message_row>> pg_store::messages(std::string_view dialog_id, std::int64_t course) {
  if (course < 0) return make_error(errc::invalid_argument, "course " + std::to_string(course) + " is negative");
  const std::string wanted = std::to_string(course);
  const params<2> args{dialog_id, wanted};
  auto found = read("SELECT " + std::string(kEventColumns) +
                        ", m.course FROM messages m JOIN events e ON e.dialog_id = m.dialog_id AND e.seq = m.seq "
                        "WHERE m.dialog_id = $1 AND ($2::bigint = 0 OR m.course = $2::bigint) ORDER BY m.seq",
                    args, "reading a dialog's messages");
  if (!found) return std::move(found).err();
  std::vector<message_row> out;
  out.reserve(static_cast<std::size_t>(found->size()));
  for (int i = 0; i < found->size(); ++i) {
    auto message = read_message(*found, i);
    if (!message) return std::move(message).err();
    out.push_back(std::move(*message));
  }
  return out;
}

result<void> pg_store::rebuild_projections() { return writer_->rebuild_projections(); }

store_stats pg_store::stats() const {
  store_stats out;
  out.events = writer_->events();
  out.transactions = writer_->transactions();
  out.cached_dialogs = writer_->cached_dialogs();
  out.commit_seconds = writer_->commit_seconds();
  out.queued_writes = writer_->queued_requests();
  return out;
}

result<dialog_counts> pg_store::count_dialogs() {
  auto found = read("SELECT status, count(*) FROM dialogs GROUP BY status", {}, "counting dialogs");
  if (!found) return std::move(found).err();
  dialog_counts counts;
  for (int i = 0; i < found->size(); ++i) {
    const auto status = events::from_wire<events::dialog_status>(found->text(i, 0));
    if (!status) return make_error(errc::corrupt, "dialogs.status holds '" + std::string(found->text(i, 0)) + "'");
    std::int64_t n = 0;
    PARLEY_TRY_ASSIGN(n, found->integer(i, 1));
    counts.add(*status, n);
  }
  return counts;
}

result<std::optional<input_record>> pg_store::find_input(std::string_view msg_id) {
  const std::string key = storable_text(msg_id);
  const params<1> args{key};
  auto found = read("SELECT kind, dialog_id, seq, sender, content_json, question_id FROM inputs WHERE msg_id = $1",
                    args, "looking up a msgId");
  if (!found) return std::move(found).err();
  if (found->empty()) return std::optional<input_record>{};
  auto input = read_input(*found, 0);
  if (!input) return std::move(input).err();
  return std::optional<input_record>{std::move(*input)};
}

std::string pg_store::health_problem() const { return writer_->health_problem(); }

bool pg_store::holds_tree(std::string_view root_id) const {
  return leases_->epoch_of(root_id).has_value() && !leases_->lost(root_id);
}

result<void> pg_store::forward_input(const forwarded_input& input) {
  const std::string content = storable_text(input.content);
  const params<6> args{input.root_id, input.dialog_id, input.question_id, content, input.msg_id, input.from};
  auto kept = readers_.with_connection([&](connection& conn) {
    return conn.query(
        "INSERT INTO forwarded_inputs (root_id, dialog_id, question_id, content, msg_id, sender) "
        "VALUES ($1, $2, $3, $4, $5, $6)",
        args, "keeping input for the node that drives its tree");
  });
  if (!kept) return std::move(kept).err();
  feed_->note_input(input.root_id);
  return ok();
}

result<std::vector<forwarded_input>> pg_store::pending_inputs() {
  auto found = readers_.with_connection([&](connection& conn) {
    return conn.query(
        "SELECT id, root_id, dialog_id, question_id, content, msg_id, sender FROM forwarded_inputs "
        "ORDER BY id",
        "reading forwarded input");
  });
  if (!found) return std::move(found).err();
  std::vector<forwarded_input> inputs;
  inputs.reserve(static_cast<std::size_t>(found->size()));
  for (int i = 0; i < found->size(); ++i) {
    forwarded_input input;
    PARLEY_TRY_ASSIGN(input.id, found->integer(i, 0));
    input.root_id = found->text(i, 1);
    input.dialog_id = found->text(i, 2);
    input.question_id = found->text(i, 3);
    input.content = found->text(i, 4);
    input.msg_id = found->text(i, 5);
    input.from = found->text(i, 6);
    inputs.push_back(std::move(input));
  }
  return inputs;
}

result<void> pg_store::drop_input(std::int64_t id) {
  const std::string key = std::to_string(id);
  const params<1> args{key};
  auto dropped = readers_.with_connection([&](connection& conn) {
    return conn.query("DELETE FROM forwarded_inputs WHERE id = $1::bigint", args, "dropping delivered input");
  });
  if (!dropped) return std::move(dropped).err();
  return ok();
}

result<std::vector<dialog_since>> pg_store::read_since(
    const std::vector<std::pair<std::string, std::int64_t>>& watched) {
  std::vector<dialog_since> found;
  if (watched.empty()) return found;
  std::vector<std::string> ids;
  std::string positions = "[";
  for (const auto& [id, after] : watched) {
    ids.push_back(id);
    if (positions.size() > 1) positions += ',';
    positions += "{\"id\":";
    append_json_string(positions, id);
    positions += ",\"after\":" + std::to_string(after) + "}";
  }
  positions += ']';
  const std::string id_list = json_text_array(ids);
  // Two statements on one pooled connection, and no wait for this process's queued appends: what
  // other processes committed is what a watcher asks for.
  auto read = [&](connection& conn) -> result<std::pair<rows, rows>> {
    const params<1> by_id{id_list};
    auto dialogs = conn.query(
        "SELECT " + dialog_columns() + " FROM dialogs WHERE id IN (SELECT json_array_elements_text($1::json))", by_id,
        "reading watched dialogs");
    if (!dialogs) return std::move(dialogs).err();
    const params<1> by_position{positions};
    auto events = conn.query("SELECT " + std::string(kEventColumns) +
                                 " FROM json_to_recordset($1::json) AS w(id text, after bigint) JOIN events e ON "
                                 "e.dialog_id = w.id AND e.seq > w.after ORDER BY e.dialog_id, e.seq",
                             by_position, "reading what watched dialogs appended");
    if (!events) return std::move(events).err();
    return std::pair{std::move(*dialogs), std::move(*events)};
  };
  auto both = readers_.with_connection(read);
  if (!both) return std::move(both).err();
  std::unordered_map<std::string, std::size_t> index;
  for (int i = 0; i < both->first.size(); ++i) {
    auto row = read_dialog(both->first, i);
    if (!row) return std::move(row).err();
    index.emplace(row->id, found.size());
    found.push_back(dialog_since{std::move(*row), {}});
  }
  auto events = events_of(both->second);
  if (!events) return std::move(events).err();
  for (auto& ev : *events) {
    if (const auto it = index.find(ev.dialog_id); it != index.end()) found[it->second].events.push_back(std::move(ev));
  }
  return found;
}

}  // namespace pg

result<void> migrate_postgres_store(const std::string& url, const postgres_options& options) {
  auto conn = pg::connect_waiting(url, options);
  if (!conn) return std::move(conn).err();
  return pg::migrate(*conn);
}

result<std::unique_ptr<store>> open_postgres_store(const std::string& url, const postgres_options& options) {
  auto conn = pg::connect_waiting(url, options);
  if (!conn) return std::move(conn).err();
  PARLEY_TRY(pg::migrate(*conn));
  auto leases = std::make_shared<pg::lease_book>(options.node_id, options.lease_ttl);
  auto feed = std::make_shared<pg::change_feed>(url, options.application_name, leases->node_id());
  auto writer = pg::pg_writer::start(url, std::move(*conn), options, leases, feed);
  if (!writer) return std::move(writer).err();
  return std::unique_ptr<store>(
      std::make_unique<pg::pg_store>(url, std::move(*writer), std::move(leases), std::move(feed), options));
}

}  // namespace parley
