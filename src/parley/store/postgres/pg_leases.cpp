#include "parley/store/postgres/pg_leases.hpp"

#include <unistd.h>

#include <random>
#include <set>

#include "parley/core/json_text.hpp"

namespace parley::pg {

namespace {

// [{"root_id": ..., "epoch": ...}, ...] of `leases`.
std::string leases_json(const std::vector<held_lease>& leases) {
  std::string out;
  json_text_writer json(out);
  json.begin_array();
  for (const auto& lease : leases)
    json.begin_object().field("root_id", lease.root_id).key("epoch").integer(lease.epoch).end_object();
  json.end_array();
  return out;
}

}  // namespace

std::string make_node_id() {
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  std::random_device entropy;
  const auto suffix = (static_cast<std::uint64_t>(entropy()) << 32) ^ entropy();
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(suffix));
  return std::string(host) + ":" + std::to_string(::getpid()) + ":" + hex;
}

lease_book::lease_book(std::string node_id, std::chrono::milliseconds ttl)
    : node_id_(node_id.empty() ? make_node_id() : std::move(node_id)),
      ttl_(std::max(ttl, std::chrono::milliseconds(100))),
      ttl_interval_(std::to_string(ttl_.count()) + " milliseconds") {}

std::optional<std::int64_t> lease_book::epoch_of(std::string_view root_id) const {
  parley::lock_guard lock(mutex_);
  const auto found = held_.find(root_id);
  if (found == held_.end()) return std::nullopt;
  return found->second;
}

void lease_book::hold(std::string root_id, std::int64_t epoch) {
  parley::lock_guard lock(mutex_);
  held_.insert_or_assign(std::move(root_id), epoch);
}

void lease_book::forget(std::string_view root_id, std::int64_t epoch) {
  parley::lock_guard lock(mutex_);
  const auto found = held_.find(root_id);
  if (found != held_.end() && (epoch == 0 || found->second == epoch)) held_.erase(found);
}

void lease_book::mark_lost(std::string_view root_id) {
  parley::lock_guard lock(mutex_);
  held_.erase(std::string(root_id));
  lost_.emplace(root_id);
}

bool lease_book::lost(std::string_view root_id) const {
  parley::lock_guard lock(mutex_);
  return lost_.find(root_id) != lost_.end();
}

std::vector<held_lease> lease_book::held() const {
  parley::lock_guard lock(mutex_);
  std::vector<held_lease> out;
  out.reserve(held_.size());
  for (const auto& [root, epoch] : held_) out.push_back({root, epoch});
  return out;
}

result<bool> lease_book::claim(connection& conn, std::string_view root_id) {
  // Free, expired or already ours: taken with the next epoch. Held live by another: no row.
  const params<3> args{root_id, node_id_, ttl_interval_};
  auto claimed = conn.query(
      "INSERT INTO tree_leases AS l (root_id, owner, epoch, expires_at) VALUES ($1, $2, 1, now() + $3::interval) "
      "ON CONFLICT (root_id) DO UPDATE SET owner = EXCLUDED.owner, epoch = l.epoch + 1, expires_at = "
      "EXCLUDED.expires_at WHERE l.owner = EXCLUDED.owner OR l.expires_at < now() RETURNING epoch",
      args, "claiming a tree's lease");
  if (!claimed) return std::move(claimed).err();
  if (claimed->empty()) {
    forget(root_id);
    return false;
  }
  std::int64_t epoch = 0;
  PARLEY_TRY_ASSIGN(epoch, claimed->integer(0, 0));
  hold(std::string(root_id), epoch);
  parley::lock_guard lock(mutex_);
  if (const auto was_lost = lost_.find(root_id); was_lost != lost_.end()) lost_.erase(was_lost);
  return true;
}

result<std::size_t> lease_book::renew(connection& conn) {
  const auto leases = held();
  if (leases.empty()) return std::size_t{0};
  const std::string json = leases_json(leases);
  const params<3> args{json, node_id_, ttl_interval_};
  auto renewed = conn.query(
      "UPDATE tree_leases l SET expires_at = now() + $3::interval FROM json_to_recordset($1::json) AS x(root_id "
      "text, epoch bigint) WHERE l.root_id = x.root_id AND l.owner = $2 AND l.epoch = x.epoch RETURNING l.root_id",
      args, "renewing the tree leases");
  if (!renewed) return std::move(renewed).err();
  std::set<std::string, std::less<>> kept;
  for (int i = 0; i < renewed->size(); ++i) kept.emplace(renewed->text(i, 0));
  std::size_t lost = 0;
  for (const auto& lease : leases) {
    if (kept.contains(lease.root_id)) continue;
    if (epoch_of(lease.root_id) == lease.epoch) mark_lost(lease.root_id);
    ++lost;
  }
  return lost;
}

result<void> lease_book::release(connection& conn, std::string_view root_id, std::int64_t epoch) {
  forget(root_id, epoch);
  const std::string at = std::to_string(epoch);
  const params<3> args{root_id, node_id_, at};
  auto released = conn.query("DELETE FROM tree_leases WHERE root_id = $1 AND owner = $2 AND epoch = $3::bigint", args,
                             "releasing a tree's lease");
  if (!released) return std::move(released).err();
  return ok();
}

result<std::vector<std::string>> lease_book::orphaned(connection& conn) const {
  // What recover_all would drive: a generation cut short, or a drive owed by a dialog that waits
  // for no subdialog and no human (those are driven when the reply or the answer comes).
  auto found = conn.query(
      "SELECT DISTINCT d.root_id FROM dialogs d LEFT JOIN tree_leases l ON l.root_id = d.root_id "
      "WHERE (d.generating OR d.needs_drive) AND d.status = 'running' AND NOT d.dead "
      "AND (d.generating OR (d.pending_subdialogs = 0 AND d.open_questions = 0)) "
      "AND (l.root_id IS NULL OR l.expires_at < now()) LIMIT 256",
      "looking for trees nobody drives");
  if (!found) return std::move(found).err();
  std::vector<std::string> roots;
  for (int i = 0; i < found->size(); ++i) roots.emplace_back(found->text(i, 0));
  return roots;
}

}  // namespace parley::pg
