// The replay's record of its origin (replay_oracle.hpp): read once from the log when the replay
// is driven, consulted call by call.
#include "parley/engine/replay_oracle.hpp"

#include <boost/json/parse.hpp>

#include "parley/core/ids.hpp"
#include "parley/core/time.hpp"
#include "parley/engine/dialog_host.hpp"
#include "parley/engine/dialog_tool_args.hpp"
#include "parley/engine/dialog_tools.hpp"
#include "parley/store/fork_history.hpp"
#include "parley/store/store.hpp"

namespace parley::engine {

namespace {

replay_oracle::recorded_call* recorded_call_with_id(replay_oracle::origin_dialog& origin, std::string_view call_id) {
  for (auto& call : origin.calls) {
    if (call.call_id == call_id) return &call;
  }
  return nullptr;
}

// An askHuman call's question text, or nullopt when its arguments are not a well-formed call
// (the router then refuses it as it would anywhere).
std::optional<std::string> replay_question_text(const llm::tool_call& call) {
  boost::system::error_code ec;
  auto parsed = boost::json::parse(call.arguments, ec);
  if (ec || !parsed.is_object()) return std::nullopt;
  auto decoded = read_teammate_call_args(call.name, parsed.as_object());
  if (!decoded) return std::nullopt;
  return decoded->tellask_content;
}

// The calls origin dialog `origin_id` made after the fork's cut at `through_seq`, with their
// recorded results and answers.
result<std::vector<replay_oracle::recorded_call>> recorded_calls_after(store& log, const std::string& origin_id,
                                                                       std::int64_t through_seq) {
  std::vector<event> history;
  PARLEY_TRY_ASSIGN(history, read_dialog_history(log, origin_id));
  replay_oracle::origin_dialog origin;
  for (const auto& ev : history) {
    if (ev.seq <= through_seq) continue;
    if (const auto* finished = ev.as<events::generation_finished>()) {
      for (const auto& call : finished->tool_calls) {
        if (is_dialog_tool(call.name) && call.name != dialog_tool::ask_human) continue;
        origin.calls.push_back({call.id, call.name, call.arguments, std::nullopt, {}, std::nullopt, false});
      }
    } else if (const auto* result = ev.as<events::tool_result>()) {
      auto* call = recorded_call_with_id(origin, result->call_id);
      if (call != nullptr && call->name != dialog_tool::ask_human && !result->interrupted) call->result = *result;
    } else if (const auto* asked = ev.as<events::question_asked>()) {
      if (auto* call = recorded_call_with_id(origin, asked->call_id)) call->question = asked->tellask_content;
    } else if (const auto* answered = ev.as<events::question_answered>()) {
      if (auto* call = recorded_call_with_id(origin, answered->call_id)) call->answer = *answered;
    }
  }
  return std::move(origin.calls);
}

}  // namespace

bool same_call_arguments(std::string_view a, std::string_view b) {
  boost::system::error_code ec_a;
  boost::system::error_code ec_b;
  const auto parsed_a = boost::json::parse(a, ec_a);
  const auto parsed_b = boost::json::parse(b, ec_b);
  if (ec_a || ec_b) return a == b;
  return parsed_a == parsed_b;  // Boost.JSON compares objects member by member, whatever the order
}

result<std::optional<replay_oracle>> replay_oracle::load(store& log, std::string_view fork_root_id) {
  std::vector<event> own;
  PARLEY_TRY_ASSIGN(own, log.read_events(fork_root_id, 0));
  const events::dialog_forked* forked = nullptr;
  const events::replay_started* started = nullptr;
  for (const auto& ev : own) {
    if (const auto* f = ev.as<events::dialog_forked>()) forked = f;
    if (const auto* s = ev.as<events::replay_started>()) started = s;
  }
  if (started == nullptr) return std::optional<replay_oracle>{};
  if (forked == nullptr) {
    return make_error(errc::internal, "replay " + std::string(fork_root_id) + " has no dialog_forked event");
  }
  replay_oracle oracle;
  oracle.root_id_ = std::string(fork_root_id);
  oracle.spec_ = *started;
  for (const auto& ids : forked->dialogs) {
    std::vector<event> fork_events;
    PARLEY_TRY_ASSIGN(fork_events, log.read_events(ids.fork, 0));
    std::int64_t through_seq = 0;
    for (const auto& ev : fork_events) {
      if (const auto* f = ev.as<events::dialog_forked>()) through_seq = f->through_seq;
    }
    origin_dialog origin{ids.origin, {}};
    PARLEY_TRY_ASSIGN(origin.calls, recorded_calls_after(log, ids.origin, through_seq));
    // The calls this replay answered from the record already, before a stop and a resume.
    for (const auto& ev : fork_events) {
      const auto* marker = ev.as<events::call_replayed>();
      if (marker == nullptr) continue;
      if (auto* call = recorded_call_with_id(origin, marker->origin_call_id)) call->used = true;
    }
    oracle.dialogs_.emplace(ids.fork, std::move(origin));
  }
  return std::optional<replay_oracle>{std::move(oracle)};
}

replay_oracle::recorded_call* replay_oracle::find_unused(const dialog_runtime& dialog, const llm::tool_call& call,
                                                         bool question, const std::string& text) {
  const auto found = dialogs_.find(dialog.id());
  if (found == dialogs_.end()) return nullptr;
  for (auto& recorded : found->second.calls) {
    if (recorded.used || recorded.name != call.name) continue;
    if (question ? recorded.answer && recorded.question == text
                 : recorded.result && same_call_arguments(recorded.arguments, call.arguments)) {
      return &recorded;
    }
  }
  return nullptr;
}

std::optional<replayed_call> replay_oracle::answer_tool(const dialog_runtime& dialog, const llm::tool_call& call) {
  if (dialog.row().root_id != root_id_) return std::nullopt;
  if (auto* recorded = find_unused(dialog, call, false, {})) {
    recorded->used = true;
    const auto& origin_id = dialogs_.find(dialog.id())->second.origin_id;
    replayed_call out{events::call_replayed{call.id, call.name, origin_id, recorded->call_id}, *recorded->result};
    out.result.call_id = call.id;  // the replay's own call, answered with the origin's result
    return out;
  }
  if (spec_.tools == events::replay_tools::live) return std::nullopt;
  return replayed_call{std::nullopt,
                       events::tool_result{0, 0, call.id, call.name, false,
                                           "no recorded result for this call: this replay runs no tool for real "
                                           "(--tools recorded), and the original made no call of '" +
                                               call.name + "' with these arguments here"}};
}

result<bool> replay_oracle::answer_question(dialog_host& dialogs, dialog_runtime& dialog, const llm::tool_call& call) {
  if (dialog.row().root_id != root_id_ || call.name != dialog_tool::ask_human) return false;
  const auto text = replay_question_text(call);
  if (!text) return false;
  auto* recorded = find_unused(dialog, call, true, *text);
  if (recorded == nullptr) return false;  // asked as usual: the replay waits for the human
  recorded->used = true;
  const auto& origin_id = dialogs_.find(dialog.id())->second.origin_id;
  const std::string question_id = new_uuid();
  const std::string mention = text->substr(0, text->find('\n'));
  PARLEY_TRY(dialogs.stage(dialog, events::call_replayed{call.id, call.name, origin_id, recorded->call_id}));
  PARLEY_TRY(dialogs.stage(dialog, events::question_asked{dialog.row().course, dialog.row().last_genseq, call.id,
                                                          question_id, mention, *text, format_iso8601_ms(now_ms())}));
  PARLEY_TRY(
      dialogs.stage(dialog, events::question_answered{dialog.row().course, question_id, call.id,
                                                      recorded->answer->content, new_uuid(), recorded->answer->from}));
  return true;
}

result<void> stage_replayed_call(dialog_host& dialogs, dialog_runtime& dialog, replayed_call call) {
  if (call.marker) PARLEY_TRY(dialogs.stage(dialog, std::move(*call.marker)));
  call.result.course = dialog.row().course;
  call.result.genseq = dialog.row().last_genseq;
  return dialogs.stage(dialog, std::move(call.result));
}

}  // namespace parley::engine
