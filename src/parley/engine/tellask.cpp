// The Tellask family (seed 001): Type A tellaskBack, Type B tellask (registered sessions), Type C
// tellaskSessionless, Fresh Boots Reasoning, and askHuman (Q4H). A call that waits is recorded on
// the caller (tellask_called / question_asked) in the same transaction as the subdialog's
// assignment; the reply comes back through the log (reply_received), never through a callback,
// so a crash at any point leaves a consistent state that the next start continues from.

#include <regex>

#include "parley/core/ids.hpp"
#include "parley/core/json.hpp"
#include "parley/core/json_read.hpp"
#include "parley/core/text.hpp"
#include "parley/core/time.hpp"
#include "parley/engine/dialog_title.hpp"
#include "parley/engine/dialog_tools.hpp"
#include "parley/engine/engine.hpp"
#include "parley/engine/prompts.hpp"
#include "parley/tools/json_schema.hpp"

namespace parley::engine {
namespace {

using tool_reply = std::optional<tools::tool_outcome>;

tool_reply refuse(std::string message) { return tools::tool_outcome{false, std::move(message)}; }

bool valid_slug(std::string_view slug) {
  static const std::regex grammar("[a-zA-Z][a-zA-Z0-9_-]*");
  return std::regex_match(slug.begin(), slug.end(), grammar);
}

// Checks made before the schema, for mistakes the seed names: a clearer message than "unknown field".
std::optional<std::string> misplaced_field(std::string_view call, const boost::json::object& raw) {
  if (call == dialog_tool::tellask_back && raw.contains("sessionSlug")) {
    return "tellaskBack takes no sessionSlug: it always goes to your tellasker. Use tellask(...) to reach a "
           "registered session.";
  }
  if (call == dialog_tool::fresh_boots_reasoning && (raw.contains("sessionSlug") || raw.contains("mentionList"))) {
    return "freshBootsReasoning takes neither sessionSlug nor mentionList: it always starts a new tool-less "
           "subdialog of yourself.";
  }
  if (call == dialog_tool::tellask_sessionless && raw.contains("sessionSlug")) {
    return "tellaskSessionless takes no sessionSlug; use tellask(...) for a registered session.";
  }
  return std::nullopt;
}

// A subdialog's tellaskSessionless whose target is the member of its current tellasker (seed 001's
// flowchart: "Is this a subdialog Tellasking its direct supdialog?" → Type A). With a slug it
// stays Type B: the flowchart starts from tellaskSessionless.
bool aims_at_tellasker(const dialog_runtime& dialog, std::string_view call, const boost::json::object& args) {
  const auto& assigned = dialog.state().assigned;
  return call == dialog_tool::tellask_sessionless && dialog.is_sub() && assigned &&
         json_string_or(args, "targetAgentId") == assigned->caller_member_id;
}

std::string first_line(std::string_view text) {
  const auto end = text.find('\n');
  return std::string(text.substr(0, end));
}

}  // namespace

result<tool_reply> engine::handle_dialog_tool(dialog_runtime& dialog, const llm::tool_call& call, round_effects& fx) {
  // The team's version: its targetAgentId enum refuses an id that is not a member's.
  const auto* spec = dialog_spec(call.name);
  // A text-syntax member makes the same calls through its text, so what it may call is the
  // function-calling set of its place.
  const dialog_place place = dialog.is_fbr()   ? dialog_place::fbr
                             : dialog.is_sub() ? dialog_place::sub
                                               : dialog_place::root;
  const auto member = members_.find(dialog.speaking_member());
  const bool may_reflect = member != members_.end() && member->second.config->self_reflection;
  const auto& offered = dialog_tool_specs(place, false, may_reflect);
  const bool is_offered =
      std::any_of(offered.begin(), offered.end(), [&](const llm::tool_spec& s) { return s.name == call.name; });
  if (is_offered && member != members_.end() && !member->second.offers_dialog_tool(call.name)) {
    return refuse("tool '" + call.name + "' is not offered to member '" + member->first + "' (team.yaml dialog_tools)");
  }
  if (!is_offered) {
    if (call.name == dialog_tool::tellask_back) {
      return refuse(
          "tellaskBack is only available inside a subdialog; this is a root dialog. Use askHuman to ask "
          "the human.");
    }
    if (call.name == dialog_tool::change_mind) {
      return refuse(
          "change_mind is only available in the root dialog; ask your tellasker with tellaskBack to update "
          "the Taskdoc.");
    }
    return refuse("tool '" + call.name + "' is not available in this dialog");
  }
  boost::system::error_code ec;
  const auto raw = read_json(call.arguments.empty() ? std::string_view("{}") : call.arguments, ec);
  if (!ec && raw.is_object()) {
    if (auto problem = misplaced_field(call.name, raw.get_object())) return refuse(*problem);
  }
  auto args = tools::parse_tool_arguments(call.arguments.empty() ? "{}" : call.arguments, spec->parameters);
  if (!args) {
    return refuse("invalid arguments for " + call.name + ": " + args.err().message + ". Fix them and call again.");
  }
  // Seed 001's flowchart asks first whether a subdialog is Tellasking its tellasker: then the call
  // is Type A, whatever tool named it.
  if (aims_at_tellasker(dialog, call.name, *args)) return call_tellasker(dialog, call, *args, fx);
  if (call.name == dialog_tool::tellask || call.name == dialog_tool::tellask_sessionless ||
      call.name == dialog_tool::fresh_boots_reasoning || call.name == dialog_tool::self_reflect) {
    return call_teammate(dialog, call, *args, fx);
  }
  if (call.name == dialog_tool::tellask_back) return call_tellasker(dialog, call, *args, fx);
  if (call.name == dialog_tool::ask_human) return ask_human(dialog, call, *args);
  if (call.name == dialog_tool::change_mind) return change_mind(dialog, *args);
  return edit_reminders(dialog, call, *args);
}

result<dialog_runtime*> engine::create_subdialog(dialog_runtime& caller, const std::string& member_id,
                                                 events::call_kind call_kind, std::string_view session_slug,
                                                 std::string title, std::optional<events::reflection_spec> reflection) {
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
  add_record_windows(created);
  PARLEY_TRY(runtime->stage(std::move(created), id, caller.row().root_id));
  for (auto* observer : observers_) observer->on_event(runtime->last_staged());
  return &dialogs_.add(std::move(runtime));
}

result<tool_reply> engine::call_teammate(dialog_runtime& caller, const llm::tool_call& call,
                                         const boost::json::object& args, round_effects& fx) {
  const bool fbr = call.name == dialog_tool::fresh_boots_reasoning;
  const bool reflect = call.name == dialog_tool::self_reflect;
  const bool registered = call.name == dialog_tool::tellask;
  const auto kind = events::from_wire<events::call_kind>(call.name);
  if (!kind) return refuse("tool '" + call.name + "' does not call a teammate");
  const std::string content = reflect ? json_string_or(args, "goal") : json_string_or(args, "tellaskContent");
  const std::string target = fbr || reflect ? caller.speaking_member() : json_string_or(args, "targetAgentId");
  const std::string slug = registered ? json_string_or(args, "sessionSlug") : std::string();
  // The schema's enum refused any id outside the team already; this guards the lookups below.
  if (members_.find(target) == members_.end()) {
    return refuse("unknown targetAgentId '" + target + "'" + did_you_mean(target, team_.member_ids()) +
                  "; the team's members are: " + join(team_.member_ids(), ", "));
  }
  if (registered && !valid_slug(slug)) {
    return refuse("sessionSlug '" + slug + "' is malformed: it must match [a-zA-Z][a-zA-Z0-9_-]*");
  }
  const auto& caller_member = *members_.at(caller.speaking_member()).config;
  if (caller.row().depth + 1 > caller_member.max_tellask_depth) {
    return refuse("Tellask depth limit reached: this dialog is at depth " + std::to_string(caller.row().depth) +
                  " and max_tellask_depth is " + std::to_string(caller_member.max_tellask_depth) +
                  ". Do the work here or reply to your tellasker.");
  }

  // Type B: the root's registry decides between resuming and creating (seed 001).
  auto& hierarchy = tree(caller.row().root_id);
  const std::string key = target + "!" + slug;
  dialog_runtime* sub = nullptr;
  if (registered) {
    if (const auto hit = hierarchy.registry.find(key); hit != hierarchy.registry.end()) {
      auto loaded = load(hit->second);
      if (loaded && !(*loaded)->row().dead && !(*loaded)->poisoned) sub = *loaded;
    }
    if (sub == &caller) return refuse("a dialog cannot tellask its own session '" + key + "'");
  }
  const bool created = sub == nullptr;
  if (created) {
    // A reflection is recorded as seed 002's self-reflection session (the records reducer reads this).
    std::optional<events::reflection_spec> reflection;
    if (reflect) reflection = events::reflection_spec{"task_reflection", content, json_string_or(args, "moodState")};
    // Named by its task, so a tree of subdialogs of one member can be told apart.
    auto made = create_subdialog(caller, target, *kind, slug, title_from_message(content), std::move(reflection));
    if (!made) return std::move(made).err();
    sub = *made;
    if (registered) hierarchy.registry[key] = sub->id();
  }

  // A registered session re-tellasked while an earlier caller still waits for it: the reply goes
  // to the latest caller, so the earlier one is told now instead of waiting forever.
  if (const auto& previous = sub->state().assigned; previous && !previous->replied) {
    if (auto loaded = load(previous->caller_id); loaded && !(*loaded)->row().dead) {
      auto& old_caller = **loaded;
      const bool waits = old_caller.state().awaits_call(previous->call_id);
      PARLEY_TRY(stage(
          old_caller,
          events::reply_received{old_caller.row().course, waits ? previous->call_id : std::string(),
                                 previous->call_name, waits, sub->id(), target, events::reply_kind::superseded, false,
                                 "@" + target + " (session " + previous->session_slug +
                                     ") was tellasked again by another dialog before it "
                                     "replied; its reply goes to that dialog.",
                                 std::nullopt}));
      fx.touch(old_caller, true);
    }
  }

  // Every course starts with the role header; so does a message from a caller the subdialog has
  // not heard from before.
  const bool new_caller = !sub->state().assigned || sub->state().assigned->caller_id != caller.id();
  std::string prompt = content;
  if (reflect) {
    prompt = reflection_prompt(team_.language, content, json_string_or(args, "moodState"));
  } else if (sub->messages().empty() || new_caller) {
    prompt = course_header(team_.language, caller.speaking_member(), fbr) + "\n\n" + content;
  }
  events::user_message tellask;
  tellask.course = sub->row().course;
  tellask.content = std::move(prompt);
  tellask.msg_id = new_uuid();
  tellask.origin = events::message_origin::tellask;
  tellask.assigned = events::assignment{caller.id(), caller.speaking_member(), call.id, *kind, slug, content};
  PARLEY_TRY(stage(*sub, std::move(tellask)));
  events::tellask_called called{
      caller.row().course, caller.row().last_genseq, call.id, *kind, sub->id(), target, std::nullopt, content};
  if (registered) called.session_slug = slug;
  PARLEY_TRY(stage(caller, std::move(called)));
  fx.touch(*sub, true);
  return tool_reply{};
}

result<tool_reply> engine::call_tellasker(dialog_runtime& sub, const llm::tool_call& call,
                                          const boost::json::object& args, round_effects& fx) {
  const auto& assigned = sub.state().assigned;
  if (!assigned) return refuse("tellaskBack has no tellasker to go to: this subdialog has no assignment");
  auto loaded = load(assigned->caller_id);
  if (!loaded || (*loaded)->row().dead) {
    return refuse("your tellasker (dialog " + assigned->caller_id + ") is gone; finish with what you have");
  }
  auto& tellasker = **loaded;
  const std::string content = with_marker(kTellaskBackMarker, json_string_or(args, "tellaskContent"));
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

result<void> engine::deliver_final_saying(dialog_runtime& dialog, const std::string& saying, bool owes_reply,
                                          round_effects& fx) {
  // The state before this generation_finished was applied decides: answer owed tellaskBacks first.
  // (apply_state_event marks the assignment replied only when nothing is owed.)
  if (!dialog.state().owed.empty()) {
    const auto owed = dialog.state().owed;
    for (const auto& answer : owed) {
      auto loaded = load(answer.dialog_id);
      if (!loaded || (*loaded)->row().dead) continue;
      auto& asker = **loaded;
      const bool waits = asker.state().awaits_call(answer.call_id);
      PARLEY_TRY(stage(
          asker, events::reply_received{asker.row().course, waits ? answer.call_id : std::string(),
                                        events::call_kind::tellask_back, waits, dialog.id(), dialog.row().member_id,
                                        events::reply_kind::answer, true, saying, std::nullopt}));
      PARLEY_TRY(stage(dialog, events::answer_delivered{dialog.row().course, asker.id(), answer.call_id}));
      fx.touch(asker, true);
    }
    return ok();
  }
  const auto& assigned = dialog.state().assigned;
  if (!owes_reply || !assigned) return ok();
  auto loaded = load(assigned->caller_id);
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
  // A one-off subdialog is done once it has replied; a registered session stays for the next call.
  if (dialog.row().call_kind != events::call_kind::tellask) {
    PARLEY_TRY(stage(dialog, events::status_changed{events::dialog_status::completed}));
  }
  return ok();
}

result<tool_reply> engine::ask_human(dialog_runtime& dialog, const llm::tool_call& call,
                                     const boost::json::object& args) {
  const std::string content = json_string_or(args, "tellaskContent");
  const auto previous = static_cast<std::int64_t>(dialog.state().questions.size());
  PARLEY_TRY(stage(dialog, events::question_asked{dialog.row().course, dialog.row().last_genseq, call.id, new_uuid(),
                                                  first_line(content), content, format_iso8601_ms(now_ms())}));
  notify_questions(dialog, previous);
  return tool_reply{};
}

void engine::notify_questions(const dialog_runtime& dialog, std::int64_t previous_count) {
  const questions_count_update update{previous_count, static_cast<std::int64_t>(dialog.state().questions.size()),
                                      dialog.id(), dialog.row().root_id, dialog.row().course};
  for (auto* observer : observers_) observer->on_questions_count(update);
}

}  // namespace parley::engine
