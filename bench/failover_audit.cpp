#include "failover_audit.hpp"

#include <algorithm>

namespace parley::bench {

void install_audit(pg_link& db) {
  db.run(R"sql(
CREATE TABLE bench_audit (
  event_id bigint NOT NULL,
  dialog_id text NOT NULL,
  root_id text NOT NULL,
  seq bigint NOT NULL,
  backend integer NOT NULL,
  lease_owner text,
  lease_epoch bigint,
  at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX bench_audit_by_root ON bench_audit (root_id, at);
CREATE INDEX bench_audit_by_dialog ON bench_audit (dialog_id, seq);
CREATE FUNCTION bench_audit_append() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO bench_audit (event_id, dialog_id, root_id, seq, backend, lease_owner, lease_epoch)
  SELECT NEW.id, NEW.dialog_id, NEW.root_id, NEW.seq, pg_backend_pid(), l.owner, l.epoch
  FROM (SELECT 1) AS one LEFT JOIN tree_leases l ON l.root_id = NEW.root_id;
  RETURN NULL;
END $$;
CREATE TRIGGER bench_audit_append AFTER INSERT ON events FOR EACH ROW EXECUTE FUNCTION bench_audit_append();
)sql");
}

void writer_map::snapshot(pg_link& db, const node_set& nodes) {
  for (int i = 0; i < nodes.count(); ++i) {
    if (!nodes.running(i)) continue;
    const auto ports = local_tcp_ports(nodes.pid(i));
    if (ports.empty()) continue;
    std::string list;
    for (const int port : ports) list += (list.empty() ? "" : ",") + std::to_string(port);
    for (const auto& row : db.rows("SELECT pid FROM pg_stat_activity WHERE client_port IN (" + list + ")"))
      node_of_backend_[std::stoi(row[0])] = nodes.pid(i);
  }
}

std::string writer_map::values_sql() const {
  std::string out;
  for (const auto& [backend, node] : node_of_backend_)
    out += (out.empty() ? "" : ",") + ("(" + std::to_string(backend) + "," + std::to_string(node) + ")");
  return out;
}

std::vector<std::string> trees_held_by(pg_link& db, pid_t node) {
  std::vector<std::string> out;
  for (const auto& row : db.rows("SELECT root_id FROM tree_leases WHERE owner LIKE '%:" + std::to_string(node) +
                                 ":%' AND expires_at > clock_timestamp()"))
    out.push_back(row[0]);
  return out;
}

std::vector<double> first_append_after(pg_link& db, const std::vector<std::string>& roots, double since_ms,
                                       const std::string& exclude_node_pid) {
  if (roots.empty()) return {};
  const std::string since = "to_timestamp(" + std::to_string(since_ms / 1000.0) + ")";
  // A paused node's own appends after it went on do not count as the others' takeover.
  const std::string not_by =
      exclude_node_pid.empty()
          ? ""
          : " AND (a.lease_owner IS NULL OR a.lease_owner NOT LIKE '%:" + exclude_node_pid + ":%')";
  std::vector<double> out;
  for (const auto& row :
       db.rows("SELECT a.root_id, extract(epoch FROM min(a.at)) * 1000 FROM bench_audit a WHERE a.root_id = ANY(" +
               sql_text_array(roots) + ") AND a.at > " + since + not_by + " GROUP BY a.root_id"))
    out.push_back((std::stod(row[1]) - since_ms) / 1000.0);
  return out;
}

log_soundness read_soundness(pg_link& db, const writer_map& writers) {
  log_soundness out;
  const auto seqs = db.rows(
      "SELECT coalesce(sum(n), 0), coalesce(sum(n - distinct_seqs), 0), coalesce(sum(max_seq - distinct_seqs), 0) "
      "FROM (SELECT count(*) AS n, count(DISTINCT seq) AS distinct_seqs, max(seq) AS max_seq FROM events "
      "GROUP BY dialog_id) per_dialog");
  out.events = std::stoll(seqs[0][0]);
  out.duplicate_seqs = std::stoll(seqs[0][1]);
  out.seq_gaps = std::stoll(seqs[0][2]);
  out.unleased = std::stoll(db.value("SELECT count(*) FROM bench_audit WHERE lease_owner IS NULL AND seq > 1", "0"));
  const std::string values = writers.values_sql();
  if (values.empty()) return out;
  const auto stale =
      db.rows("WITH w(backend, node) AS (VALUES " + values +
              ") SELECT count(*), count(*) FILTER (WHERE a.lease_owner IS NOT NULL AND a.lease_owner NOT LIKE '%:' || "
              "w.node || ':%') FROM bench_audit a JOIN w ON w.backend = a.backend");
  out.attributed = std::stoll(stale[0][0]);
  out.stale_appends = std::stoll(stale[0][1]);
  return out;
}

std::map<std::pair<std::string, long long>, double> commit_times(pg_link& db, const std::vector<std::string>& dialogs,
                                                                 std::string& source) {
  std::map<std::pair<std::string, long long>, double> out;
  if (dialogs.empty()) return out;
  const bool tracked = db.value("SELECT current_setting('track_commit_timestamp')") == "on";
  source = tracked ? "pg_xact_commit_timestamp of the appending transaction"
                   : "clock_timestamp() at the event's insert (track_commit_timestamp is off): before the commit";
  const std::string when = tracked ? "coalesce(pg_xact_commit_timestamp(xmin), at)" : "at";
  for (const auto& row : db.rows("SELECT dialog_id, seq, extract(epoch FROM " + when +
                                 ") * 1000 FROM bench_audit WHERE dialog_id = ANY(" + sql_text_array(dialogs) + ")"))
    out[{row[0], std::stoll(row[1])}] = std::stod(row[2]);
  return out;
}

}  // namespace parley::bench
