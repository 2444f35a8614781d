#include "parley/store/sqlite/log_repair.hpp"

#include <boost/json/serialize.hpp>

#include <filesystem>

#include "parley/core/json_check.hpp"
#include "parley/core/time.hpp"
#include "parley/core/utf8.hpp"
#include "parley/model/event_codec.hpp"
#include "parley/store/data_dir_lock.hpp"
#include "parley/store/sqlite/prompt_versions.hpp"
#include "parley/store/sqlite/row_codec.hpp"
#include "parley/store/sqlite/sqlite_handle.hpp"

namespace parley::sqlite {
namespace {

constexpr const char* kQuarantineTable = R"sql(
CREATE TABLE IF NOT EXISTS quarantined_events (
  event_id INTEGER NOT NULL,
  dialog_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  type TEXT NOT NULL,
  original_payload BLOB NOT NULL,
  problem TEXT NOT NULL,
  action TEXT NOT NULL,
  at_ms INTEGER NOT NULL
))sql";

// Why the payload `text` of an event of `type` does not read back, or "" when it does: text that
// is not JSON, not an object, or an object the typed codec refuses (the field and the problem).
std::string payload_problem(std::string_view type, std::string_view text) {
  auto parsed = parse_json(text);
  if (!parsed) {
    if (auto bad = first_invalid_utf8(text)) return describe_invalid_utf8(text, *bad);
    return parsed.err().message;
  }
  if (!parsed->is_object()) return std::string("the payload is ") + json_kind_name(*parsed) + ", not an object";
  const auto& object = parsed->get_object();
  if (type == events::prompt_logged::kType && !object.contains("systemPrompt")) {
    const auto* version = object.if_contains("version");
    const std::string name = version != nullptr && version->is_string() ? std::string(version->get_string()) : "";
    return "the text of prompt version '" + repair_utf8(name).text +
           "' is neither in the event nor in prompt_versions (schema version 13 stores it once there)";
  }
  if (auto typed = decode_payload(type, parsed->get_object()); !typed) return repair_utf8(typed.err().message).text;
  return {};
}

class repair_session {
 public:
  explicit repair_session(connection& db) : db_(db) {}

  result<void> prepare() {
    PARLEY_TRY(db_.exec(kQuarantineTable));
    PARLEY_TRY(prepare_into(
        db_, keep_,
        std::string("INSERT INTO quarantined_events SELECT e.id, e.dialog_id, e.seq, e.type, coalesce(CAST(") +
            kEventPayloadSql + " AS BLOB), e.stored_payload), ?2, ?3, ?4 FROM events_stored AS e WHERE e.id = ?1"));
    PARLEY_TRY(prepare_into(
        db_, keep_dialog_,
        std::string("INSERT INTO quarantined_events SELECT e.id, e.dialog_id, e.seq, e.type, coalesce(CAST(") +
            kEventPayloadSql +
            " AS BLOB), e.stored_payload), ?2, ?3, ?4 FROM events_stored AS e WHERE e.dialog_id = ?1"));
    PARLEY_TRY(prepare_into(db_, rewrite_, "UPDATE events SET type = ?2, payload = ?3 WHERE id = ?1"));
    PARLEY_TRY(prepare_into(db_, drop_dialog_, "DELETE FROM events WHERE dialog_id = ?1"));
    return prepare_into(db_, count_dialog_, "SELECT count(*) FROM events WHERE dialog_id = ?1");
  }

  result<std::string> repair(const damaged_event& damaged, std::string_view text) {
    std::string repairs;
    auto repaired = parse_json_repairing(text, repairs);
    // Rewritten only when the repaired object also decodes: a field the codec refuses stays
    // refused however its bytes are mended.
    if (repaired && repaired->is_object() && decode_payload(damaged.type, repaired->get_object())) {
      std::string action = "rewritten: " + repairs;
      PARLEY_TRY(keep(damaged, action));
      PARLEY_TRY(rewrite(damaged.event_id, damaged.type, boost::json::serialize(*repaired)));
      return action;
    }
    if (damaged.seq == 1) return quarantine_dialog(damaged);
    const std::string action = "quarantined: replaced by an event_quarantined event that changes nothing";
    PARLEY_TRY(keep(damaged, action));
    boost::json::object stub{{"originalType", repair_utf8(damaged.type).text}, {"problem", damaged.problem}};
    PARLEY_TRY(rewrite(damaged.event_id, event_type::event_quarantined, boost::json::serialize(stub)));
    return action;
  }

 private:
  result<void> keep(const damaged_event& damaged, const std::string& action) {
    keep_.bind_int(1, damaged.event_id);
    keep_.bind_text(2, damaged.problem);
    keep_.bind_text(3, action);
    keep_.bind_int(4, now_ms());
    return keep_.run();
  }

  result<void> rewrite(std::int64_t event_id, std::string_view type, const std::string& payload) {
    rewrite_.bind_int(1, event_id);
    rewrite_.bind_text(2, type);
    rewrite_.bind_text(3, payload);
    return rewrite_.run();
  }

  // The event that created a dialog is what every later event of it builds on: without it the
  // dialog cannot be replayed, so all of it goes to the quarantine table.
  result<std::string> quarantine_dialog(const damaged_event& damaged) {
    std::int64_t events = 0;
    {
      reset_guard guard(count_dialog_);
      count_dialog_.bind_text(1, damaged.dialog_id);
      auto row = count_dialog_.step();
      if (!row) return std::move(row).err();
      events = count_dialog_.int_at(0);
    }
    const std::string action =
        "quarantined with its dialog (" + std::to_string(events) + " events), since the unreadable event created it";
    keep_dialog_.bind_text(1, damaged.dialog_id);
    keep_dialog_.bind_text(2, damaged.problem);
    keep_dialog_.bind_text(3, action);
    keep_dialog_.bind_int(4, now_ms());
    PARLEY_TRY(keep_dialog_.run());
    drop_dialog_.bind_text(1, damaged.dialog_id);
    PARLEY_TRY(drop_dialog_.run());
    return action;
  }

  connection& db_;
  statement keep_;
  statement keep_dialog_;
  statement rewrite_;
  statement drop_dialog_;
  statement count_dialog_;
};

// Events of `event_log` whose dialog key, root key or type code has no row in its map (schema
// version 17, compact_log.hpp). The `events` view joins the maps, so such an event would be
// missing from every read without a word; nothing deletes from the maps, so only damage does this.
result<std::vector<damaged_event>> events_without_keys(connection& db) {
  auto orphans = db.prepare(
      "SELECT l.id, l.seq, l.dialog_key, l.root, l.type_code, "
      "(SELECT id FROM dialog_keys WHERE key = l.dialog_key) IS NULL, "
      "l.root IS NOT NULL AND (SELECT id FROM dialog_keys WHERE key = l.root) IS NULL, "
      "(SELECT name FROM event_types WHERE code = l.type_code) IS NULL "
      // A row's root is its own or, NULL, its dialog's (schema version 24, log_bases.hpp).
      "FROM (SELECT id, seq, dialog_key, type_code, coalesce(root_key, (SELECT root_key FROM dialog_keys AS d "
      "WHERE d.key = event_log.dialog_key)) AS root FROM event_log) AS l "
      "WHERE NOT EXISTS (SELECT 1 FROM dialog_keys WHERE key = l.dialog_key) "
      "OR (l.root IS NOT NULL AND NOT EXISTS (SELECT 1 FROM dialog_keys WHERE key = l.root)) "
      "OR NOT EXISTS (SELECT 1 FROM event_types WHERE code = l.type_code) ORDER BY l.id",
      false);
  if (!orphans) return std::move(orphans).err();
  reset_guard guard(*orphans);
  std::vector<damaged_event> found;
  for (;;) {
    auto row = orphans->step();
    if (!row) return std::move(row).err();
    if (!*row) return found;
    std::string missing;
    const auto name = [&](int column, const char* what, int value_column) {
      if (orphans->int_at(column) == 0) return;
      if (!missing.empty()) missing += ", ";
      missing += what + std::to_string(orphans->int_at(value_column));
    };
    name(5, "dialog key ", 2);
    name(6, "root key ", 3);
    name(7, "type code ", 4);
    found.push_back({orphans->int_at(0), "dialog key " + std::to_string(orphans->int_at(2)), orphans->int_at(1),
                     "type code " + std::to_string(orphans->int_at(4)),
                     "the log's maps (dialog_keys, event_types) have no row for its " + missing +
                         ", so the events view leaves it out"});
  }
}

}  // namespace

result<std::vector<damaged_event>> find_damaged_events(connection& db) {
  // The payload as appended (a shared prompt text put back), so an event reads here as it does
  // everywhere else.
  auto scan = db.prepare(
      "SELECT e.id, e.dialog_id, e.seq, e.type, " + event_payload_column() + " FROM events_stored AS e ORDER BY e.id",
      false);
  if (!scan) return std::move(scan).err();
  reset_guard guard(*scan);
  auto found = events_without_keys(db);
  if (!found) return found;
  for (;;) {
    auto row = scan->step();
    if (!row) return std::move(row).err();
    if (!*row) return found;
    auto text = stored_payload_text(*scan, 4);
    std::string problem = text ? payload_problem(scan->text_view_at(3), *text) : text.err().message;
    if (problem.empty()) continue;
    found->push_back({scan->int_at(0), repair_utf8(scan->text_view_at(1)).text, scan->int_at(2),
                      repair_utf8(scan->text_view_at(3)).text, std::move(problem)});
  }
}

result<std::vector<repaired_event>> repair_damaged_events(const std::string& dir) {
  const std::string path = (std::filesystem::path(dir) / "parley.db").string();
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return make_error(errc::not_found, "no store at " + path);
  // A repair writes: never while another process (a running server) holds the store.
  auto lock = data_dir_lock::acquire(dir, "repair");
  if (!lock) return std::move(lock).err();
  auto db = connection::open_read_write(path);
  if (!db) return std::move(db).err();
  PARLEY_TRY(db->exec("BEGIN IMMEDIATE"));
  auto done = [&]() -> result<std::vector<repaired_event>> {
    auto damaged = find_damaged_events(*db);
    if (!damaged) return std::move(damaged).err();
    std::vector<repaired_event> out;
    if (damaged->empty()) return out;
    // A damaged blob reads as NULL now, while a msgId index may still hold what it read before the
    // damage: made again first, so the changes below find the entries they remove.
    PARLEY_TRY(db->exec("REINDEX events_by_input_msg_id; REINDEX events_by_flow_input_msg_id;"));
    repair_session session(*db);
    PARLEY_TRY(session.prepare());
    auto text_of = db->prepare(std::string("SELECT ") + kEventPayloadSql + " FROM events AS e WHERE e.id = ?1", false);
    if (!text_of) return std::move(text_of).err();
    for (auto& event : *damaged) {
      reset_guard guard(*text_of);
      text_of->bind_int(1, event.event_id);
      auto row = text_of->step();
      if (!row) return std::move(row).err();
      if (!*row) continue;  // went with its dialog, quarantined earlier in this pass
      const std::string text = text_of->text_at(0);
      text_of->reset();
      auto action = session.repair(event, text);
      if (!action) return std::move(action).err();
      out.push_back({std::move(event), std::move(*action)});
    }
    return out;
  }();
  if (!done) {
    (void)db->exec("ROLLBACK");
    return done;
  }
  PARLEY_TRY(db->exec("COMMIT"));
  return done;
}

}  // namespace parley::sqlite
