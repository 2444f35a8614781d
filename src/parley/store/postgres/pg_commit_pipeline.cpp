// One commit group's round trip to PostgreSQL (pg_commit_pipeline.hpp).
#include "parley/store/postgres/pg_commit_pipeline.hpp"

#include <boost/json/serialize.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/json_text.hpp"
#include "parley/model/event_codec.hpp"
#include "parley/store/postgres/pg_record_set.hpp"
#include "parley/store/postgres/pg_records_statements.hpp"
#include "parley/store/postgres/pg_rows.hpp"

namespace parley::pg {

namespace {

// The results of `sent` statements and the sync after them, in pipeline mode. The newest event id
// (the append's `max`) on success.
result<std::int64_t> read_pipeline_results(connection& conn, int sent) {
  PGconn* const c = conn.raw();
  std::optional<error> failure;
  std::int64_t last_id = 0;
  for (int i = 0; i < sent && conn.healthy(); ++i) {
    while (PGresult* res = PQgetResult(c)) {
      const rows owned(res);
      const auto status = PQresultStatus(res);
      if (status == PGRES_FATAL_ERROR && !failure) {
        failure = error_of(res, "appending to the log");
      } else if (status == PGRES_TUPLES_OK && PQnfields(res) == 1 && std::string_view(PQfname(res, 0)) == "max") {
        if (auto id = owned.integer(0, 0)) last_id = *id;
      }
    }
  }
  bool synced = false;
  if (conn.healthy()) {
    const rows sync(PQgetResult(c));
    synced = PQresultStatus(sync.raw()) == PGRES_PIPELINE_SYNC;
  }
  if (!synced || PQexitPipelineMode(c) != 1 || !conn.healthy()) {
    const std::string why = conn.last_error();
    conn = connection{};
    return make_error(errc::unavailable, "the connection to PostgreSQL was lost during a commit: " + why);
  }
  if (failure) return *failure;
  return last_id;
}

}  // namespace

result<bool> commit_landed(connection& conn, const staged_group& staged) {
  const event& first = *staged.events.front();
  const std::string seq = std::to_string(first.seq);
  const std::string payload = boost::json::serialize(encode_payload(first.payload));
  const params<3> args{first.dialog_id, seq, payload};
  auto found = conn.query("SELECT 1 FROM events WHERE dialog_id = $1 AND seq = $2 AND payload = $3", args,
                          "checking whether the last commit landed");
  if (!found) return std::move(found).err();
  return !found->empty();
}

result<std::int64_t> send_commit_pipeline(connection& conn, const staged_group& staged, const lease_book& leases) {
  record_set events, inserts, updates, messages, inputs;
  for (const event* ev : staged.events) {
    write_event(events.writer(), *ev, events.count());
    events.counted();
    add_input(inputs, *ev);
  }
  for (const auto& [id, row] : staged.rows) {
    const auto head = staged.heads.find(id);
    record_set& into = head == staged.heads.end() ? inserts : updates;
    write_dialog(into.writer(), row, head == staged.heads.end() ? -1 : head->second);
    into.counted();
  }
  for (const auto& [ev, course] : staged.messages) {
    write_message_ref(messages.writer(), *ev, course);
    messages.counted();
  }
  const std::string update_count = std::to_string(updates.count());
  // Read before the pipeline starts: what the records' patches change of rows made before.
  auto records = staged.records.statements(conn);
  if (!records) return std::move(records).err();

  PGconn* const c = conn.raw();
  if (PQenterPipelineMode(c) != 1) return make_error(errc::unavailable, "entering pipeline mode: " + conn.last_error());
  int sent = 0;
  bool send_failed = false;
  const auto send = [&](const char* name, std::initializer_list<const char*> values) {
    if (send_failed) return;
    const std::vector<const char*> v(values);
    if (PQsendQueryPrepared(c, name, static_cast<int>(v.size()), v.data(), nullptr, nullptr, 0) == 1) {
      ++sent;
    } else {
      send_failed = true;
    }
  };
  std::string fences = "[", new_trees = "[";
  for (const auto& [root, epoch] : staged.fences) {
    if (fences.size() > 1) fences += ',';
    json_text_writer(fences).begin_object().field("root_id", root).key("epoch").integer(epoch).end_object();
  }
  for (const auto& root : staged.new_trees) {
    if (new_trees.size() > 1) new_trees += ',';
    json_text_writer(new_trees).begin_object().field("root_id", root).end_object();
  }
  fences += ']';
  new_trees += ']';
  const char* const node = leases.node_id().c_str();
  const char* const ttl = leases.ttl_interval().c_str();
  if (!staged.fences.empty()) send(writer_sql::kFenceTrees, {fences.c_str(), node, ttl});
  if (!staged.new_trees.empty()) send(writer_sql::kNewTrees, {new_trees.c_str(), node, ttl});
  send(writer_sql::kAppendEvents, {events.text().c_str()});
  if (inserts.count() > 0) send(writer_sql::kInsertDialogs, {inserts.text().c_str()});
  if (updates.count() > 0) send(writer_sql::kUpdateDialogs, {updates.text().c_str(), update_count.c_str()});
  if (messages.count() > 0) send(writer_sql::kInsertMessages, {messages.text().c_str()});
  if (inputs.count() > 0) send(writer_sql::kInsertInputs, {inputs.text().c_str()});
  for (const records_statement& statement : *records) send(statement.name, {statement.records.c_str()});
  if (send_failed || PQpipelineSync(c) != 1) {
    const std::string why = conn.last_error();
    conn = connection{};
    return make_error(errc::unavailable, "sending to PostgreSQL failed: " + why);
  }
  return read_pipeline_results(conn, sent);
}

}  // namespace parley::pg
