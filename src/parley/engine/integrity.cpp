#include "parley/engine/integrity.hpp"

#include <map>
#include <set>

#include "parley/model/dialog_state.hpp"
#include "parley/model/projection.hpp"

namespace parley::engine {
namespace {

struct replayed {
  dialog_row stored;
  dialog_row row;
  dialog_state state;
  bool unreadable = false;  // its log could not be read: only its place in the hierarchy is checked
};

void compare_rows(const std::string& id, const dialog_row& stored, const dialog_row& row,
                  std::vector<std::string>& problems) {
  if (stored == row) return;
  std::vector<std::string> fields;
  if (stored.status != row.status) fields.push_back("status");
  if (stored.course != row.course) fields.push_back("course");
  if (stored.last_seq != row.last_seq) fields.push_back("last_seq");
  if (stored.open_questions != row.open_questions) fields.push_back("open_questions");
  if (stored.pending_subdialogs != row.pending_subdialogs) fields.push_back("pending_subdialogs");
  if (stored.needs_drive != row.needs_drive) fields.push_back("needs_drive");
  if (stored.generating != row.generating) fields.push_back("generating");
  if (stored.dead != row.dead) fields.push_back("dead");
  if (stored.caller_id != row.caller_id) fields.push_back("caller_id");
  if (stored.message_count != row.message_count) fields.push_back("message_count");
  std::string list;
  for (const auto& field : fields) list += (list.empty() ? "" : ", ") + field;
  problems.push_back("dialog " + id + ": the stored projection differs from its log" +
                     (list.empty() ? std::string() : " in " + list));
}

void check_hierarchy(const std::string& id, const replayed& d, const std::map<std::string, replayed>& all,
                     std::vector<std::string>& problems) {
  const auto& row = d.row;
  if (row.kind == events::dialog_kind::root) {
    if (row.root_id != id || !row.parent_id.empty()) {
      problems.push_back("dialog " + id + ": a root dialog must be its own root and have no parent");
    }
    return;
  }
  const auto parent = all.find(row.parent_id);
  if (parent == all.end()) {
    problems.push_back("subdialog " + id + ": its parent " + row.parent_id + " does not exist");
    return;
  }
  if (parent->second.row.root_id != row.root_id) {
    problems.push_back("subdialog " + id + ": root " + row.root_id + " differs from its parent's root " +
                       parent->second.row.root_id);
  }
  if (row.depth != parent->second.row.depth + 1) {
    problems.push_back("subdialog " + id + ": depth " + std::to_string(row.depth) + " is not its parent's + 1");
  }
  if (all.find(row.root_id) == all.end()) {
    problems.push_back("subdialog " + id + ": its root " + row.root_id + " does not exist");
  }
}

void check_waits(const std::string& id, const replayed& d, const std::map<std::string, replayed>& all,
                 std::vector<std::string>& problems) {
  if (d.row.open_questions != static_cast<std::int64_t>(d.state.questions.size())) {
    problems.push_back("dialog " + id + ": its Q4H index counts " + std::to_string(d.row.open_questions) +
                       " open question(s) but its log has " + std::to_string(d.state.questions.size()));
  }
  if (d.row.pending_subdialogs != static_cast<std::int64_t>(d.state.awaited.size())) {
    problems.push_back("dialog " + id + ": it counts " + std::to_string(d.row.pending_subdialogs) +
                       " pending subdialog(s) but its log waits for " + std::to_string(d.state.awaited.size()));
  }
  for (const auto& awaited : d.state.awaited) {
    const auto other = all.find(awaited.dialog_id);
    if (other == all.end()) {
      problems.push_back("dialog " + id + ": waits for dialog " + awaited.dialog_id + ", which does not exist");
      continue;
    }
    if (other->second.row.dead) {
      problems.push_back("dialog " + id + ": waits for dialog " + awaited.dialog_id + ", which is dead");
    }
    if (awaited.name == events::call_kind::tellask_back || awaited.call_id.empty()) continue;
    const auto& assigned = other->second.state.assigned;
    if (!assigned || assigned->caller_id != id || assigned->call_id != awaited.call_id) {
      problems.push_back("dialog " + id + ": waits for subdialog " + awaited.dialog_id + " on call " + awaited.call_id +
                         ", but that subdialog's assignment is from another call");
    }
  }
}

// A client's msgId names one input (input_retry.hpp): a second user message, answer or message to
// a flow with it is a retry that was taken twice.
class input_ids {
 public:
  void note(const std::string& dialog_id, const event& ev, std::vector<std::string>& problems) {
    const std::string* msg_id = nullptr;
    if (const auto* message = ev.as<events::user_message>()) msg_id = &message->msg_id;
    if (const auto* answer = ev.as<events::question_answered>()) msg_id = &answer->msg_id;
    if (const auto* flow = flow_input_of(ev)) msg_id = &flow->msg_id;
    if (msg_id == nullptr || msg_id->empty()) return;
    const std::string here = "dialog " + dialog_id + " event " + std::to_string(ev.seq);
    const auto [first, fresh] = first_.emplace(*msg_id, here);
    if (!fresh) {
      problems.push_back(here + ": msgId '" + *msg_id + "' was already taken by " + first->second +
                         " (a retried input taken twice)");
    }
  }

 private:
  std::map<std::string, std::string> first_;  // msgId → where it was first taken
};

}  // namespace

result<integrity_report> check_integrity(store& log) {
  auto rows = log.list_dialogs({});
  if (!rows) return std::move(rows).err();
  integrity_report report;
  auto damaged = log.damaged_events();
  if (!damaged) return std::move(damaged).err();
  for (const auto& bad : *damaged) {
    report.problems.push_back("dialog " + bad.dialog_id + ": event " + std::to_string(bad.seq) + " (" + bad.type +
                              ", log id " + std::to_string(bad.event_id) + ") is stored as text that does not read " +
                              "back (" + bad.problem + "); `parley repair` rewrites or quarantines it");
  }
  std::map<std::string, replayed> all;
  input_ids inputs;
  for (const auto& stored : *rows) {
    auto events = log.read_events(stored.id);
    replayed d;
    d.stored = stored;
    if (!events) {
      // Reported, and the dialog's stored row stands in for its replay, so that the checks of
      // its subdialogs and callers still run.
      if (events.err().code != errc::corrupt) return std::move(events).err();
      report.problems.push_back("dialog " + stored.id + ": " + events.err().message);
      d.row = stored;
      d.unreadable = true;
      all.emplace(stored.id, std::move(d));
      continue;
    }
    for (const auto& ev : *events) {
      auto step = apply_event(ev, d.row);
      if (!step) {
        report.problems.push_back("dialog " + stored.id + ": event " + std::to_string(ev.seq) + " (" +
                                  std::string(ev.type()) + ") does not replay: " + step.err().message);
        break;
      }
      apply_state_event(ev, d.state);
      inputs.note(stored.id, ev, report.problems);
    }
    report.events += static_cast<std::int64_t>(events->size());
    all.emplace(stored.id, std::move(d));
  }
  report.dialogs = static_cast<std::int64_t>(all.size());
  std::map<std::string, std::string> registry;  // rootId agentId!sessionSlug → subdialog id
  for (const auto& [id, d] : all) {
    check_hierarchy(id, d, all, report.problems);
    if (d.unreadable) continue;
    compare_rows(id, d.stored, d.row, report.problems);
    check_waits(id, d, all, report.problems);
    if (d.row.kind == events::dialog_kind::sub && !d.row.dead && !d.row.session_slug.empty()) {
      const std::string key = d.row.member_id + "!" + d.row.session_slug;
      const auto [it, fresh] = registry.emplace(d.row.root_id + " " + key, id);
      if (!fresh) {
        report.problems.push_back("root " + d.row.root_id + ": registry key " + key + " names two live subdialogs, " +
                                  it->second + " and " + id);
      }
    }
  }
  return report;
}

}  // namespace parley::engine
