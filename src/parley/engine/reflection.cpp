// Self-reflection roots (seed 002's AI ⇄ self, "自省 Dialogue: AI-002 × “周总结” 自省窗口（按类型唯一）"):
// one dialogue per member and kind of reflection, with a new self-reflection session inside it for
// each reflection. The kind is the goal (a weekly summary is one kind whether a schedule or a
// human asked for it); how one reflection came about is its session's trigger_source and
// `triggered_by`. The dialogue is found in the log each time, never remembered, so a restart finds
// the same one.
#include <algorithm>

#include "parley/core/ids.hpp"
#include "parley/core/text.hpp"
#include "parley/engine/engine.hpp"
#include "parley/engine/prompts.hpp"
#include "parley/model/records_write_rules.hpp"
#include "parley/store/records_query.hpp"

namespace parley::engine {

namespace asio = boost::asio;

namespace {

// The seed's `triggered_by` (POST /api/sessions) for a reflection's trigger_source.
std::string triggered_by_of(std::string_view trigger) {
  if (trigger == "schedule") return "schedule";
  if (trigger == "human_guidance") return "human";
  if (trigger == "task_reflection") return "ai";
  return "system";
}

events::record_session_opened reflection_session(const std::string& trigger, const std::string& goal) {
  events::record_session_opened opened;
  opened.session_id = new_uuid();
  opened.session_type = "self_reflection";
  opened.created_by = "ai";  // seed 002: a self-reflection session is the AI's own undertaking
  opened.metadata = boost::json::object{{"triggered_by", triggered_by_of(trigger)}};
  opened.trigger_source = trigger;
  opened.goal = goal;
  return opened;
}

events::record_turn_closed stale_turn_expired(std::string turn_id) {
  events::record_turn_closed closed;
  closed.turn_id = std::move(turn_id);
  closed.status = "unresponded";
  closed.outcome = "expired";
  closed.closed_by = "system";
  return closed;
}

// Clears the member's kind from the starts under way when start_reflection returns.
class starting_guard {
 public:
  starting_guard(std::set<std::string>& starting, std::string key) : starting_(starting), key_(std::move(key)) {}
  ~starting_guard() { starting_.erase(key_); }
  starting_guard(const starting_guard&) = delete;
  starting_guard& operator=(const starting_guard&) = delete;

 private:
  std::set<std::string>& starting_;
  std::string key_;
};

// The member's running reflection root on `goal`, read from the store (a read of the read thread:
// it touches nothing but the store).
result<std::optional<std::string>> find_reflection_dialog(store& log, const std::string& member_id,
                                                          const std::string& goal) {
  dialog_filter filter;
  filter.status = events::dialog_status::running;
  filter.member_id = member_id;
  filter.roots_only = true;
  auto rows = log.list_dialogs(filter);
  if (!rows) return std::move(rows).err();
  std::optional<std::string> newest;
  for (const auto& row : *rows) {
    if (row.call_kind != events::call_kind::self_reflect || row.dead) continue;
    // The kind is in the root's first event; a reflection root is one per kind, so few are read.
    auto logged = log.read_events(row.id);
    if (!logged) return std::move(logged).err();
    if (logged->empty()) continue;
    const auto* created = logged->front().as<events::dialog_created>();
    if (created == nullptr || !created->reflection || created->reflection->goal != goal) continue;
    if (!newest || row.id > *newest) newest = row.id;  // ids begin with their creation time
  }
  return newest;
}

}  // namespace

asio::awaitable<result<reflection_started>> engine::start_reflection(std::string member_id, std::string trigger,
                                                                     std::string goal) {
  const auto* member = team_.find_member(member_id);
  if (member == nullptr) co_return make_error(errc::not_found, "unknown member '" + member_id + "'");
  if (!member->self_reflection) {
    co_return make_error(errc::conflict, "member '" + member_id + "' does not reflect (self_reflection is off)");
  }
  if (goal.empty()) co_return make_error(errc::invalid_argument, "goal: is empty");
  const auto& triggers = records_rules::kTriggerSources;
  if (std::find(triggers.begin(), triggers.end(), trigger) == triggers.end()) {
    co_return make_error(errc::invalid_argument,
                         "trigger: expected schedule, task_reflection, human_guidance or api, got '" + trigger + "'");
  }
  // Two starts of one kind at once would both find no dialogue, or both reuse a resting one.
  const std::string key = member_id + '\n' + goal;
  if (!reflections_starting_.insert(key).second) {
    co_return make_error(errc::conflict,
                         "member '" + member_id + "' is already starting a reflection on '" + goal + "'");
  }
  const starting_guard guard(reflections_starting_, key);
  auto find = [&log = dialogs_.log(), member_id, goal] { return find_reflection_dialog(log, member_id, goal); };
  auto existing = co_await read_off_loop(dialogs_.reads(), std::move(find));
  if (!existing) co_return std::move(existing).err();
  reflection_started started;
  if (*existing) {
    auto loaded = co_await dialogs_.load_async(**existing);
    if (!loaded) co_return std::move(loaded).err();
    if (const auto work = lifecycle_.work_in_flight(**loaded); !work.empty()) {
      co_return make_error(errc::conflict, "member '" + member_id + "' is still reflecting on '" + goal +
                                               "' in dialog " + **existing + " (" + join(work, "; ") +
                                               "): nothing was started");
    }
    started.dialog_id = **existing;
    started.reused = true;
  } else {
    new_dialog spec;
    spec.member_id = member_id;
    spec.title = "self-reflection: " + goal;
    spec.reflection = events::reflection_spec{trigger, goal, std::nullopt};
    auto id = co_await create_root_dialog(std::move(spec));
    if (!id) co_return std::move(id).err();
    started.dialog_id = std::move(*id);
  }
  auto opened = reflection_session(trigger, goal);
  started.session_id = opened.session_id;
  session_opener open = [this, &opened,
                         &dialog_id = started.dialog_id]() -> result<std::vector<events::event_payload>> {
    std::vector<events::event_payload> opening;
    // A turn left waiting by an earlier reflection whose drive failed would keep the records
    // from opening the session (a turn never spans two); it expired unanswered.
    if (auto* records = dialogs_.log().records(); records != nullptr) {
      auto pending = records->pending_turn_of(dialog_id);
      if (!pending) return std::move(pending).err();
      if (*pending) opening.emplace_back(stale_turn_expired((*pending)->turn_id));
    }
    opening.emplace_back(std::move(opened));
    return opening;
  };
  std::string prompt = reflection_prompt(team_.language, goal, "");
  std::string msg_id = new_uuid();
  std::string from;  // the reflection's goal comes from the system, not a human
  std::optional<events::attachment> no_media;
  auto posted =
      co_await post_input(started.dialog_id, std::move(prompt), std::move(msg_id), events::message_origin::system,
                          std::move(from), std::move(no_media), std::move(open));
  if (!posted) co_return std::move(posted).err();
  co_return std::move(started);
}

}  // namespace parley::engine
