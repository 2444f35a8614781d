// The tree leases of one process (store::claim_tree): which trees it holds and at which epoch.
//
// A lease row is (root, owner, epoch, expires_at), on the database's clock. A process claims a
// tree that is free, expired or already its own, which bumps the epoch; it renews what it holds
// every third of the lease's length; every append of it carries, in the same transaction, a
// conditional update of the lease rows of its trees that matches only while owner and epoch are
// still its own (pg_writer.cpp). So a process that was paused, partitioned or slow past its lease,
// and whose tree another took over with a higher epoch, can never write to that tree again: its
// append raises and commits nothing, and the tree is dropped from what it holds.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/guarded.hpp"
#include "parley/core/result.hpp"
#include "parley/store/postgres/pg_connection.hpp"

namespace parley::pg {

struct held_lease {
  std::string root_id;
  std::int64_t epoch = 0;
};

// What this process holds. Any thread.
class lease_book {
 public:
  lease_book(std::string node_id, std::chrono::milliseconds ttl);

  const std::string& node_id() const noexcept { return node_id_; }
  // The lease's length as a PostgreSQL interval literal ("3000 milliseconds").
  const std::string& ttl_interval() const noexcept { return ttl_interval_; }
  std::chrono::milliseconds ttl() const noexcept { return ttl_; }

  std::optional<std::int64_t> epoch_of(std::string_view root_id) const;
  void hold(std::string root_id, std::int64_t epoch);
  // Forgets the lease, if it is still at `epoch` (0: whatever its epoch).
  void forget(std::string_view root_id, std::int64_t epoch = 0);
  std::vector<held_lease> held() const;
  // A tree whose fence refused an append: another process took it over, and what this one holds
  // of it in memory may be stale. An append never claims it again on its own (pg_writer's
  // stage_lease) — its next batch could carry seqs that happen to fit the other's log — only an
  // explicit claim (store::claim_tree: recovery, takeover), after which the tree is read afresh.
  void mark_lost(std::string_view root_id);
  bool lost(std::string_view root_id) const;

  // Claims `root_id` on `conn`: true (and held) when this process now holds it.
  result<bool> claim(connection& conn, std::string_view root_id);
  // Renews every held lease; forgets those another process took. Returns how many were lost.
  result<std::size_t> renew(connection& conn);
  // Deletes the lease row if it is still this process's at `epoch`.
  result<void> release(connection& conn, std::string_view root_id, std::int64_t epoch);
  // Roots that owe work and whose lease is missing or expired.
  result<std::vector<std::string>> orphaned(connection& conn) const;

 private:
  const std::string node_id_;
  const std::chrono::milliseconds ttl_;
  const std::string ttl_interval_;
  mutable parley::mutex mutex_;
  std::map<std::string, std::int64_t, std::less<>> held_ PARLEY_GUARDED_BY(mutex_);
  std::set<std::string, std::less<>> lost_ PARLEY_GUARDED_BY(mutex_);
};

// A name no other live process has: host, pid and a random suffix.
std::string make_node_id();

}  // namespace parley::pg
