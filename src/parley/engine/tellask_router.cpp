// The Tellask family (seed 001), in the order of the seed's flowchart: route() asks its questions,
// then one function per path — Type A tellaskBack, Type B tellask (registered sessions), Type C
// tellaskSessionless, Fresh Boots Reasoning, seed 002's selfReflect, askHuman (Q4H) — and the way
// back: the final saying, the superseded caller, the dead subdialog. A call that waits is recorded
// on the caller (tellask_called / question_asked) in the same transaction as the subdialog's
// assignment; the reply comes back through the log (reply_received), never through a callback,
// so a crash at any point leaves a consistent state that the next start continues from.

#include "parley/engine/tellask_router.hpp"

#include <regex>

#include "parley/core/ids.hpp"
#include "parley/core/json.hpp"
#include "parley/core/json_read.hpp"
#include "parley/core/text.hpp"
#include "parley/core/time.hpp"
#include "parley/engine/dialog_title.hpp"
#include "parley/engine/dialog_tool_args.hpp"
#include "parley/engine/dialog_tools.hpp"
#include "parley/engine/prompts.hpp"

namespace parley::engine {
namespace {

tool_reply refuse(std::string message) { return tools::tool_outcome{false, std::move(message)}; }

bool valid_slug(std::string_view slug) {
  static const std::regex grammar("[a-zA-Z][a-zA-Z0-9_-]*");
  return std::regex_match(slug.begin(), slug.end(), grammar);
}

// A subdialog's tellaskSessionless whose target is the member of its current tellasker (seed 001's
// flowchart: "Is this a subdialog Tellasking its direct supdialog?" → Type A). With a slug it
// stays Type B: the flowchart starts from tellaskSessionless.
bool aims_at_tellasker(const dialog_runtime& dialog, std::string_view call, const boost::json::object& args) {
  const auto& assigned = dialog.state().assigned;
  if (call != dialog_tool::tellask_sessionless || !dialog.is_sub() || !assigned) return false;
  const auto decoded = read_teammate_call_args(call, args);
  return decoded && decoded->target_agent_id == assigned->caller_member_id;
}

std::string first_line(std::string_view text) {
  const auto end = text.find('\n');
  return std::string(text.substr(0, end));
}

}  // namespace

result<tool_reply> tellask_router::route(dialog_runtime& caller, const llm::tool_call& call,
                                         const boost::json::object& args, round_effects& fx) {
  // Seed 001's flowchart asks first: "Is this a subdialog Tellasking its direct supdialog
  // (tellasker dialog for TYPE A)?" — then the call is Type A, whatever tool named it.
  if (aims_at_tellasker(caller, call.name, args)) return call_tellasker(caller, call, args, fx);
  if (call.name == dialog_tool::tellask_back) return call_tellasker(caller, call, args, fx);
  // "Is sessionSlug present?" — yes: Type B; no: Type C.
  if (call.name == dialog_tool::tellask) return call_registered_session(caller, call, args, fx);
  if (call.name == dialog_tool::tellask_sessionless) return call_sessionless(caller, call, args, fx);
  if (call.name == dialog_tool::fresh_boots_reasoning) return call_fresh_boots(caller, call, args, fx);
  if (call.name == dialog_tool::self_reflect) return call_self_reflection(caller, call, args, fx);
  if (call.name == dialog_tool::ask_human) return ask_human(caller, call, args);
  return refuse("tool '" + call.name + "' does not call a teammate");
}

result<tool_reply> tellask_router::call_tellasker(dialog_runtime& sub, const llm::tool_call& call,
                                                  const boost::json::object& args, round_effects& fx) {
  // Seed 001 Type A: "Current subdialog suspends; Driver switches to drive the tellasker dialog;
  // Tellasker dialog response flows back to the subdialog". No registry lookup: the tellasker is
  // the caller the subdialog's assignment (assignmentFromSup) names.
  const auto& assigned = sub.state().assigned;
  if (!assigned) return refuse("tellaskBack has no tellasker to go to: this subdialog has no assignment");
  auto loaded = dialogs_.load(assigned->caller_id);
  if (!loaded || (*loaded)->row().dead) {
    return refuse("your tellasker (dialog " + assigned->caller_id + ") is gone; finish with what you have");
  }
  auto& tellasker = **loaded;
  auto decoded = read_teammate_call_args(call.name, args);
  if (!decoded) return refuse(decoded.err().message);
  const std::string content = with_marker(kTellaskBackMarker, decoded->tellask_content);
  // The question is the reply to the tellasker's waiting call (seed 001: the subdialog's response
  // with the 【tellaskBack】 marker); its answer comes back as this call's result.
  std::string waiting_call;
  events::call_kind waiting_name = events::call_kind::tellask_back;
  bool waits = false;
  for (const auto& awaited : tellasker.state().awaited) {
    if (awaited.dialog_id == sub.id()) {
      waiting_call = awaited.call_id;
      waiting_name = awaited.name;
      waits = true;
      break;
    }
  }
  // What the call became: a tellaskSessionless aimed at the tellasker is a tellaskBack too.
  PARLEY_TRY(stage(
      sub, events::tellask_called{sub.row().course, sub.row().last_genseq, call.id, events::call_kind::tellask_back,
                                  tellasker.id(), tellasker.speaking_member(), std::nullopt, content}));
  PARLEY_TRY(stage(tellasker, events::reply_received{tellasker.row().course, waiting_call, waiting_name, waits,
                                                     sub.id(), sub.row().member_id, events::reply_kind::tellask_back,
                                                     true, content, call.id}));
  fx.touch(tellasker, true);
  return tool_reply{};
}

result<tool_reply> tellask_router::call_registered_session(dialog_runtime& caller, const llm::tool_call& call,
                                                           const boost::json::object& args, round_effects& fx) {
  auto decoded = read_teammate_call_args(call.name, args);
  if (!decoded) return refuse(decoded.err().message);
  const teammate_call tellask{call.id, events::call_kind::tellask, decoded->target_agent_id, decoded->session_slug,
                              decoded->tellask_content};
  if (auto refused = refusal_of_teammate_call(caller, tellask.target, &tellask.slug)) return std::move(*refused);
  // Seed 001 Type B: "1. Check registry for existing subdialog with key agentId!sessionSlug;
  // 2. If exists: Resume the registered subdialog; 3. If not exists: Create NEW subdialog AND
  // register it with key agentId!sessionSlug".
  const std::string key = tellask.target + "!" + tellask.slug;
  dialog_runtime* session = registered_session(caller.row().root_id, key);
  if (session == &caller) return refuse("a dialog cannot tellask its own session '" + key + "'");
  if (session == nullptr) {
    auto made =
        create_subdialog(caller, tellask.target, tellask.kind, tellask.slug, title_from_message(tellask.content));
    if (!made) return std::move(made).err();
    session = *made;
    dialogs_.tree(caller.row().root_id).registry[key] = session->id();
  }
  PARLEY_TRY(supersede_waiting_caller(*session, tellask.target, fx));
  // Seed 001: "On every TYPE B Tellask (new or resumed), the parent-provided tellaskContent is
  // appended to the subdialog as a new user message" — with the role header at the start of a
  // course, or for a caller the session has not heard from before ("responses route back to the
  // latest caller").
  const bool new_caller = !session->state().assigned || session->state().assigned->caller_id != caller.id();
  std::string prompt = tellask.content;
  if (session->messages().empty() || new_caller) {
    prompt = course_header(team_.language, caller.speaking_member(), false) + "\n\n" + tellask.content;
  }
  return assign(caller, *session, tellask, std::move(prompt), fx);
}

result<tool_reply> tellask_router::call_sessionless(dialog_runtime& caller, const llm::tool_call& call,
                                                    const boost::json::object& args, round_effects& fx) {
  auto decoded = read_teammate_call_args(call.name, args);
  if (!decoded) return refuse(decoded.err().message);
  const teammate_call tellask{
      call.id, events::call_kind::tellask_sessionless, decoded->target_agent_id, {}, decoded->tellask_content};
  if (auto refused = refusal_of_teammate_call(caller, tellask.target, nullptr)) return std::move(*refused);
  // Seed 001 Type C: "No registry lookup - always creates a new subdialog; Not registered".
  auto made = create_subdialog(caller, tellask.target, tellask.kind, tellask.slug, title_from_message(tellask.content));
  if (!made) return std::move(made).err();
  // "At the start of every subdialog course, the runtime must prepend a role header".
  std::string prompt = course_header(team_.language, caller.speaking_member(), false) + "\n\n" + tellask.content;
  return assign(caller, **made, tellask, std::move(prompt), fx);
}

result<tool_reply> tellask_router::call_fresh_boots(dialog_runtime& caller, const llm::tool_call& call,
                                                    const boost::json::object& args, round_effects& fx) {
  // Seed 001: "freshBootsReasoning targets the current dialog's agentId and creates a new ephemeral
  // subdialog routed to the same agentId", tool-less (engine::tools_for gives it none).
  auto decoded = read_teammate_call_args(call.name, args);
  if (!decoded) return refuse(decoded.err().message);
  const teammate_call tellask{
      call.id, events::call_kind::fresh_boots_reasoning, caller.speaking_member(), {}, decoded->tellask_content};
  if (auto refused = refusal_of_teammate_call(caller, tellask.target, nullptr)) return std::move(*refused);
  auto made = create_subdialog(caller, tellask.target, tellask.kind, tellask.slug, title_from_message(tellask.content));
  if (!made) return std::move(made).err();
  // "FBR is a self-subdialog and must keep a dedicated header to avoid confusion".
  std::string prompt = course_header(team_.language, caller.speaking_member(), true) + "\n\n" + tellask.content;
  return assign(caller, **made, tellask, std::move(prompt), fx);
}

result<tool_reply> tellask_router::call_self_reflection(dialog_runtime& caller, const llm::tool_call& call,
                                                        const boost::json::object& args, round_effects& fx) {
  // Seed 002's self-reflection, opened like an FBR: a new subdialog of the caller's own member,
  // recorded as a self-reflection session (the records reducer reads its reflection spec).
  auto decoded = read_self_reflect_args(args);
  if (!decoded) return refuse(decoded.err().message);
  const teammate_call tellask{call.id, events::call_kind::self_reflect, caller.speaking_member(), {}, decoded->goal};
  if (auto refused = refusal_of_teammate_call(caller, tellask.target, nullptr)) return std::move(*refused);
  const std::string& mood = decoded->mood_state;
  auto made = create_subdialog(caller, tellask.target, tellask.kind, tellask.slug, title_from_message(tellask.content),
                               events::reflection_spec{"task_reflection", tellask.content, mood});
  if (!made) return std::move(made).err();
  return assign(caller, **made, tellask, reflection_prompt(team_.language, tellask.content, mood), fx);
}

result<tool_reply> tellask_router::ask_human(dialog_runtime& dialog, const llm::tool_call& call,
                                             const boost::json::object& args) {
  // Seed 001 Q4H: "append HumanQuestion entry to q4h.yaml (index); questions_count_update; dialog
  // becomes non-driveable until answered" — the index is the dialog's state, derived from this event.
  auto decoded = read_teammate_call_args(call.name, args);
  if (!decoded) return refuse(decoded.err().message);
  const std::string& content = decoded->tellask_content;
  const auto previous = static_cast<std::int64_t>(dialog.state().questions.size());
  PARLEY_TRY(stage(dialog, events::question_asked{dialog.row().course, dialog.row().last_genseq, call.id, new_uuid(),
                                                  first_line(content), content, format_iso8601_ms(now_ms())}));
  notify_questions(dialog, previous);
  return tool_reply{};
}

void tellask_router::notify_questions(const dialog_runtime& dialog, std::int64_t previous_count) const {
  const questions_count_update update{previous_count, static_cast<std::int64_t>(dialog.state().questions.size()),
                                      dialog.id(), dialog.row().root_id, dialog.row().course};
  for (auto* observer : observers_) observer->on_questions_count(update);
}

result<void> tellask_router::deliver_final_saying(dialog_runtime& dialog, const std::string& saying, bool owes_reply,
                                                  round_effects& fx) {
  // The state before this generation_finished was applied decides: answer owed tellaskBacks first.
  // (apply_state_event marks the assignment replied only when nothing is owed.)
  if (!dialog.state().owed.empty()) return answer_owed_tellask_backs(dialog, saying, fx);
  if (!owes_reply || !dialog.state().assigned) return ok();
  return reply_to_tellasker(dialog, saying, fx);
}

result<void> tellask_router::answer_owed_tellask_backs(dialog_runtime& dialog, const std::string& saying,
                                                       round_effects& fx) {
  // Seed 001 Type A: "Tellasker dialog response flows back to the subdialog; Subdialog resumes
  // with tellasker dialog's response in context".
  const auto owed = dialog.state().owed;
  for (const auto& answer : owed) {
    auto loaded = dialogs_.load(answer.dialog_id);
    if (!loaded || (*loaded)->row().dead) continue;
    auto& asker = **loaded;
    const bool waits = asker.state().awaits_call(answer.call_id);
    PARLEY_TRY(
        stage(asker, events::reply_received{asker.row().course, waits ? answer.call_id : std::string(),
                                            events::call_kind::tellask_back, waits, dialog.id(), dialog.row().member_id,
                                            events::reply_kind::answer, true, saying, std::nullopt}));
    PARLEY_TRY(stage(dialog, events::answer_delivered{dialog.row().course, asker.id(), answer.call_id}));
    fx.touch(asker, true);
  }
  return ok();
}

result<void> tellask_router::reply_to_tellasker(dialog_runtime& dialog, const std::string& saying, round_effects& fx) {
  // Seed 001: "When a subdialog produces a final saying content block (no pending Q4H), that
  // message is treated as the response to the current caller recorded in assignmentFromSup".
  const auto& assigned = dialog.state().assigned;
  auto loaded = dialogs_.load(assigned->caller_id);
  if (!loaded || (*loaded)->row().dead) return ok();
  auto& caller = **loaded;
  // Seed 001's first-line markers belong to the Tellask sidelines (Type B/C, FBR); a
  // self-reflection (seed 002) delivers its summary as written.
  const std::string delivered = dialog.is_self_reflection() ? saying : with_delivery_marker(saying, dialog.is_fbr());
  std::string call_id;
  bool waits = false;
  for (const auto& awaited : caller.state().awaited) {
    if (awaited.dialog_id == dialog.id() && (awaited.call_id == assigned->call_id || awaited.call_id.empty())) {
      call_id = awaited.call_id;
      waits = true;
      break;
    }
  }
  PARLEY_TRY(stage(caller, events::reply_received{caller.row().course, call_id, assigned->call_name, waits, dialog.id(),
                                                  dialog.row().member_id, events::reply_kind::final_saying, true,
                                                  delivered, std::nullopt}));
  fx.touch(caller, true);
  // A one-off subdialog is done once it has replied; a registered session stays for the next call
  // (seed 001: "Registered subdialogs persist in the registry until root completion").
  if (dialog.row().call_kind != events::call_kind::tellask) {
    PARLEY_TRY(stage(dialog, events::status_changed{events::dialog_status::completed}));
  }
  return ok();
}

result<void> tellask_router::supersede_waiting_caller(dialog_runtime& session, const std::string& target,
                                                      round_effects& fx) {
  // Seed 001: on every Type B Tellask "the current caller dialog ID" is updated "so responses route
  // back to the latest caller". An earlier caller still waiting would wait forever, so it is told
  // now that its reply goes elsewhere.
  const auto& previous = session.state().assigned;
  if (!previous || previous->replied) return ok();
  auto loaded = dialogs_.load(previous->caller_id);
  if (!loaded || (*loaded)->row().dead) return ok();
  auto& old_caller = **loaded;
  const bool waits = old_caller.state().awaits_call(previous->call_id);
  PARLEY_TRY(stage(
      old_caller,
      events::reply_received{old_caller.row().course, waits ? previous->call_id : std::string(), previous->call_name,
                             waits, session.id(), target, events::reply_kind::superseded, false,
                             "@" + target + " (session " + previous->session_slug +
                                 ") was tellasked again by another dialog before it "
                                 "replied; its reply goes to that dialog.",
                             std::nullopt}));
  fx.touch(old_caller, true);
  return ok();
}

result<void> tellask_router::forget_dead_subdialog(dialog_runtime& sub, const std::string& reason, round_effects& fx) {
  // Its Type B entry goes, so the same agentId!sessionSlug starts a brand-new session next time.
  auto& hierarchy = dialogs_.tree(sub.row().root_id);
  for (auto it = hierarchy.registry.begin(); it != hierarchy.registry.end();) {
    it = it->second == sub.id() ? hierarchy.registry.erase(it) : std::next(it);
  }
  // The caller that waits for it gets a failed result and goes on.
  if (const auto& assigned = sub.state().assigned; assigned && !assigned->replied) {
    if (auto caller = dialogs_.load(assigned->caller_id); caller && !(*caller)->row().dead) {
      auto& waiting = **caller;
      std::string call_id;
      bool waits = false;
      for (const auto& awaited : waiting.state().awaited) {
        if (awaited.dialog_id == sub.id()) {
          call_id = awaited.call_id;
          waits = true;
          break;
        }
      }
      PARLEY_TRY(stage(waiting, events::reply_received{waiting.row().course, call_id, assigned->call_name, waits,
                                                       sub.id(), sub.row().member_id, events::reply_kind::dead, false,
                                                       "the subdialog of @" + sub.row().member_id +
                                                           " was declared dead by a human (" + reason +
                                                           "); it will not reply. Continue without it.",
                                                       std::nullopt}));
      fx.touch(waiting, true);
    }
  }
  return ok();
}

std::optional<tool_reply> tellask_router::refusal_of_teammate_call(const dialog_runtime& caller,
                                                                   const std::string& target,
                                                                   const std::string* slug) const {
  // The schema's enum refused any id outside the team already; this guards the lookups below.
  if (team_.find_member(target) == nullptr) {
    return refuse("unknown targetAgentId '" + target + "'" + did_you_mean(target, team_.member_ids()) +
                  "; the team's members are: " + join(team_.member_ids(), ", "));
  }
  // Seed 001: "<tellaskSession> uses the same identifier schema as <mention-id>: [a-zA-Z][a-zA-Z0-9_-]*".
  if (slug != nullptr && !valid_slug(*slug)) {
    return refuse("sessionSlug '" + *slug + "' is malformed: it must match [a-zA-Z][a-zA-Z0-9_-]*");
  }
  const auto* caller_member = team_.find_member(caller.speaking_member());
  if (caller_member == nullptr) return refuse("unknown member '" + caller.speaking_member() + "'");
  if (caller.row().depth + 1 > caller_member->max_tellask_depth) {
    return refuse("Tellask depth limit reached: this dialog is at depth " + std::to_string(caller.row().depth) +
                  " and max_tellask_depth is " + std::to_string(caller_member->max_tellask_depth) +
                  ". Do the work here or reply to your tellasker.");
  }
  return std::nullopt;
}

dialog_runtime* tellask_router::registered_session(const std::string& root_id, const std::string& key) {
  const auto& registry = dialogs_.tree(root_id).registry;
  const auto hit = registry.find(key);
  if (hit == registry.end()) return nullptr;
  // A session that is dead, or whose log the store refused, is not resumed: the slug starts afresh.
  auto loaded = dialogs_.load(hit->second);
  if (!loaded || (*loaded)->row().dead || (*loaded)->poisoned) return nullptr;
  return *loaded;
}

result<tool_reply> tellask_router::assign(dialog_runtime& caller, dialog_runtime& sub, const teammate_call& tellask,
                                          std::string prompt, round_effects& fx) {
  // Seed 001: "Parent dialog suspends while subdialog runs" — the caller's tellask_called is the
  // wait, the subdialog's assignment (assignmentFromSup) names where its reply goes; both commit
  // in the round's batch, and the subdialog is driven once it is durable.
  events::user_message assigned;
  assigned.course = sub.row().course;
  assigned.content = std::move(prompt);
  assigned.msg_id = new_uuid();
  assigned.origin = events::message_origin::tellask;
  assigned.assigned = events::assignment{caller.id(),  caller.speaking_member(), tellask.call_id, tellask.kind,
                                         tellask.slug, tellask.content};
  PARLEY_TRY(stage(sub, std::move(assigned)));
  events::tellask_called called{
      caller.row().course, caller.row().last_genseq, tellask.call_id, tellask.kind, sub.id(), tellask.target,
      std::nullopt,        tellask.content};
  if (tellask.kind == events::call_kind::tellask) called.session_slug = tellask.slug;
  PARLEY_TRY(stage(caller, std::move(called)));
  fx.touch(sub, true);
  return tool_reply{};
}

result<dialog_runtime*> tellask_router::create_subdialog(dialog_runtime& caller, const std::string& member_id,
                                                         events::call_kind call_kind, std::string_view session_slug,
                                                         std::string title,
                                                         std::optional<events::reflection_spec> reflection) {
  const std::string id = new_dialog_id();
  auto runtime = dialog_runtime::empty();
  events::dialog_created created;
  created.member_id = member_id;
  created.kind = events::dialog_kind::sub;
  created.parent_id = caller.id();
  created.depth = caller.row().depth + 1;
  created.call = call_kind;
  created.task_doc_path = caller.row().task_doc_path;
  created.session_slug = std::string(session_slug);
  created.title = std::move(title);
  created.reflection = std::move(reflection);
  windows_.add_to(created);
  PARLEY_TRY(runtime->stage(std::move(created), id, caller.row().root_id));
  for (auto* observer : observers_) observer->on_event(runtime->last_staged());
  return &dialogs_.add(std::move(runtime));
}

result<std::vector<registry_entry>> tellask_router::registry(std::string_view root_id) {
  auto root = dialogs_.load(root_id);
  if (!root) return std::move(root).err();
  if ((*root)->is_sub()) {
    return make_error(errc::invalid_argument, "dialog " + std::string(root_id) +
                                                  " is a subdialog; the registry belongs to its root " +
                                                  (*root)->row().root_id);
  }
  std::vector<registry_entry> out;
  for (const auto& [key, sub_id] : dialogs_.tree(std::string(root_id)).registry) {
    auto sub = dialogs_.load(sub_id);
    if (!sub) return std::move(sub).err();
    out.push_back(entry_of(key, **sub));
  }
  return out;
}

registry_entry tellask_router::entry_of(const std::string& key, dialog_runtime& sub) {
  const auto& row = sub.row();
  std::int64_t last_accessed = row.created_at_ms;
  for (const auto& message : sub.messages()) {
    if (message.origin == events::message_origin::tellask) last_accessed = message.ts_ms;
  }
  return {key, sub.id(), row.member_id, row.session_slug, row.created_at_ms, last_accessed, sub.lock().locked()};
}

result<void> tellask_router::stage(dialog_runtime& dialog, events::event_payload payload) {
  PARLEY_TRY(dialog.stage(std::move(payload)));
  for (auto* observer : observers_) observer->on_event(dialog.last_staged());
  return ok();
}

}  // namespace parley::engine
