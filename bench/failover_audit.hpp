// parley-bench failover's audit of the shared log: who wrote every event, under which lease, and
// when on the database's clock; and the figures the bench reads from it after the run.
//
// The audit is a trigger the bench adds to `events` in its own schema (after migrating it, before
// any node starts): each appended event records, in the appending transaction, the server backend
// that wrote it, the tree's lease row as that transaction sees it, and clock_timestamp(). A batch
// the fence refuses commits nothing, its audit rows included; so an audit row whose writer is not
// the lease's owner is an append that landed for a tree its writer had lost — a stale append. The
// bench maps backends to nodes from pg_stat_activity.client_port and the nodes' sockets
// (writer_map), the lease's owner names its node's pid (pg_leases.cpp, make_node_id).
#pragma once

#include <sys/types.h>

#include <map>
#include <string>
#include <vector>

#include "failover_nodes.hpp"
#include "failover_pg.hpp"

namespace parley::bench {

void install_audit(pg_link& db);

// Which node each server backend serves. Snapshotted often: a node that restarts or reconnects
// has new backends, and a backend's pid outlives nothing of the node's.
class writer_map {
 public:
  void snapshot(pg_link& db, const node_set& nodes);
  std::size_t size() const noexcept { return node_of_backend_.size(); }
  // (backend, node pid) as SQL VALUES rows, or an empty string when there are none.
  std::string values_sql() const;

 private:
  std::map<int, pid_t> node_of_backend_;
};

// The trees a node holds right now on the database's clock (lease rows naming its pid, unexpired).
std::vector<std::string> trees_held_by(pg_link& db, pid_t node);

// For each tree, seconds from `since_ms` (the database's clock) to the first append committed on
// it after that, by any backend in `writers` ("" for any); trees without one are left out.
std::vector<double> first_append_after(pg_link& db, const std::vector<std::string>& roots, double since_ms,
                                       const std::string& exclude_node_pid = {});

struct log_soundness {
  long long events = 0;
  long long duplicate_seqs = 0;  // (dialog, seq) appended more than once
  long long seq_gaps = 0;        // numbers missing from a dialog's 1..max(seq)
  long long stale_appends = 0;   // audit rows whose writer is not the lease's owner
  long long attributed = 0;      // audit rows whose backend the writer map knows
  long long unleased = 0;        // audit rows of seq > 1 with no lease row (a released tree written to)
};
log_soundness read_soundness(pg_link& db, const writer_map& writers);

// Commit time (ms, database clock) of each (dialog, seq) in `dialogs`: the transaction's commit
// timestamp when the server tracks them (track_commit_timestamp), else the audit's insert time.
std::map<std::pair<std::string, long long>, double> commit_times(pg_link& db, const std::vector<std::string>& dialogs,
                                                                 std::string& source);

}  // namespace parley::bench
