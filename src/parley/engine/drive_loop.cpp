// The drive loop (drive_loop.hpp): scheduling, the rounds of a drive, generation and tool runs.
#include "parley/engine/drive_loop.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/json/serialize.hpp>

#include "parley/core/ids.hpp"
#include "parley/core/json_fields.hpp"
#include "parley/core/text.hpp"
#include "parley/core/time.hpp"
#include "parley/engine/context_builder.hpp"
#include "parley/engine/dialog_tools.hpp"
#include "parley/engine/idempotency_key.hpp"
#include "parley/engine/member_toolsets.hpp"
#include "parley/engine/prompts.hpp"
#include "parley/engine/replay_oracle.hpp"
#include "parley/engine/stream_relay.hpp"
#include "parley/engine/text_tellask.hpp"
#include "parley/engine/tool_run_records.hpp"
#include "parley/model/conversation_reducer.hpp"
#include "parley/tools/json_schema.hpp"

namespace parley::engine {

namespace asio = boost::asio;

namespace {

// Long enough that ordinary generations never checkpoint; short enough that a crash loses little.
constexpr std::chrono::seconds kCheckpointEvery{2};

events::generation_finished finished_payload(const dialog_runtime& dialog, const std::string& model,
                                             std::int64_t genseq, const llm::model_response& response,
                                             bool interrupted) {
  events::generation_finished out;
  out.course = dialog.row().course;
  out.genseq = genseq;
  out.thinking = response.thinking;
  out.thinking_signature = response.thinking_signature;
  out.saying = response.saying;
  out.tool_calls.reserve(response.tool_calls.size());
  for (const auto& call : response.tool_calls) out.tool_calls.push_back({call.id, call.name, call.arguments});
  out.finish_reason = interrupted ? std::string("interrupted") : response.finish_reason;
  out.model = model;
  // Counts the provider did not report are 0, and 0 is not written.
  out.usage = {response.usage.input_tokens, response.usage.output_tokens,
               std::max<std::int64_t>(0, response.usage.cached_tokens),
               std::max<std::int64_t>(0, response.usage.reasoning_tokens)};
  out.interrupted = interrupted;
  out.input_arrived = dialog.state().input_during_generation;
  if (dialog.is_group()) out.member_id = dialog.speaking_member();
  return out;
}

bool is_final(const llm::model_response& response, bool interrupted) {
  return !interrupted && response.tool_calls.empty();
}

// A text-syntax member's Tellasks (seed 000) become the calls a function-calling model would have
// made. Returns the syntax errors to tell the model, or "".
std::string calls_from_text(const dialog_runtime& dialog, std::int64_t genseq, llm::model_response& response) {
  auto parsed = parse_text_tellasks(response.saying);
  int index = 0;
  for (auto& call : parsed.calls) {
    // Seed 000's tolerated fallback: a subdialog that addresses its tellasker's agent asks back.
    const auto& assigned = dialog.state().assigned;
    json_fields text_call(call.arguments);
    const auto target = text_call.optional_string("targetAgentId");  // a text Tellask always names one
    if (call.name == dialog_tool::tellask_sessionless && assigned && target == assigned->caller_member_id) {
      call.name = std::string(dialog_tool::tellask_back);
      call.arguments.erase("targetAgentId");
    }
    response.tool_calls.push_back({"text-" + std::to_string(genseq) + "-" + std::to_string(++index), call.name,
                                   boost::json::serialize(call.arguments)});
  }
  if (parsed.errors.empty()) return {};
  std::string out = "Your Tellask text could not be read:";
  for (const auto& problem : parsed.errors) out += "\nline " + std::to_string(problem.line) + ": " + problem.message;
  return out + "\nWrite the Tellask again in the !?@member syntax.";
}

tools::tool* find_tool(const std::vector<tools::tool*>& tools, std::string_view name) {
  for (auto* candidate : tools) {
    if (candidate->spec().name == name) return candidate;
  }
  return nullptr;
}

// A call may run before the model output that made it is durable when it changes nothing outside
// the log: a dialog tool (Tellask, Q4H, reminders…) acts on the log alone and run_tools commits
// the round with what it does; a member tool without effects only reads; an unknown tool is only
// answered with an error. If the process dies first, the output is made again — and so are the
// calls, which is harmless for exactly these.
bool runs_before_durable(const std::vector<tools::tool*>& member_tools, const llm::tool_call& call) {
  if (is_dialog_tool(call.name)) return true;
  const tools::tool* found = find_tool(member_tools, call.name);
  return found == nullptr || !found->has_effects();
}

}  // namespace

drive_loop::drive_loop(asio::any_io_executor executor, const config::team_config& team, dialog_host& dialogs,
                       const member_roster& members, tellask_router& router, working_memory& memory)
    : executor_(std::move(executor)),
      team_(team),
      dialogs_(dialogs),
      members_(members),
      router_(router),
      memory_(memory) {
  dialogs_.on_poisoned([this](dialog_runtime& dialog) { note_stalled(dialog); });
}

void drive_loop::set_protected_dirs(std::vector<tools::protected_dir> dirs) {
  // Compared with canonical paths: resolve links now (a folder not created yet keeps its
  // normalised absolute form, which is what it will have).
  for (auto& dir : dirs) {
    std::error_code ec;
    auto canonical = std::filesystem::weakly_canonical(std::filesystem::absolute(dir.path, ec), ec);
    if (!ec) dir.path = std::move(canonical);
  }
  protected_dirs_ = std::move(dirs);
}

void drive_loop::schedule_drive(dialog_runtime& dialog) {
  if (dialog.drive_scheduled) return;
  dialog.drive_scheduled = true;
  dialogs_.cache().note_use(dialog);
  ++tree(dialog.row().root_id).active_drives;
  asio::co_spawn(executor_, drive(dialog), asio::detached);
}

void drive_loop::schedule_if_drivable(dialog_runtime& dialog) {
  if (dialog.poisoned || dialog.row().dead || dialog.row().status != events::dialog_status::running) return;
  if ((dialog.can_drive() && dialog.row().needs_drive) || !dialog.unanswered_tool_calls().empty()) {
    schedule_drive(dialog);
  }
}

asio::awaitable<result<void>> drive_loop::commit_round(dialog_runtime& dialog, round_effects& fx, durability when) {
  if (fx.touched.empty() && when == durability::before_going_on) co_return co_await dialogs_.commit(dialog);
  // One batch, one transaction: a Tellask and the subdialog it creates, a reply and the wait it
  // ends, are durable together or not at all.
  if (when == durability::in_order) {
    // What follows only calls models and writes more events to the same log, which reach the
    // store after these: if the process dies first, the log ends before this round and the
    // dialogs resume from there. Whoever is told of the round hears of it once it is durable, and
    // a refused batch fails the next commit of each of its dialogs (log_writer).
    dialogs_.send_together(dialog, fx);
    for (auto* other : fx.to_drive) {
      if (other != &dialog) schedule_if_drivable(*other);
    }
    co_return ok();
  }
  auto committed = co_await dialogs_.commit_together(dialog, fx);
  if (!committed) co_return committed;
  for (auto* other : fx.to_drive) {
    if (other != &dialog) schedule_if_drivable(*other);
  }
  co_return ok();
}

asio::awaitable<void> drive_loop::answer_owed_calls(dialog_runtime& dialog) {
  const auto owed = dialog.unanswered_tool_calls();
  if (owed.empty()) co_return;
  const auto* member = members_.find(dialog.speaking_member());
  if (member != nullptr) co_await run_tools(dialog, *member, owed);
}

result<void> drive_loop::recover_interrupted_generation(dialog_runtime& dialog) {
  // The process ended while this generation streamed. It is closed as interrupted, keeping what
  // its last checkpoint logged, and run again.
  events::generation_finished closed;
  closed.course = dialog.row().course;
  closed.genseq = dialog.row().last_genseq;
  closed.thinking = dialog.state().partial_thinking;
  closed.saying = dialog.state().partial_saying;
  closed.finish_reason = "process_exit";
  closed.interrupted = true;
  PARLEY_TRY(dialogs_.stage(dialog, std::move(closed)));
  PARLEY_TRY(dialogs_.stage(dialog, events::drive_resumed{}));
  dialogs_.send(dialog);
  return ok();
}

asio::awaitable<void> drive_loop::drive(dialog_runtime& dialog) {
  {
    auto guard = co_await dialog.lock().acquire();
    co_await drive_locked(dialog);
    dialog.drive_scheduled = false;
  }
  note_stalled(dialog);
  // A reply or an answer that came while the drive made its last round durable found the drive
  // still scheduled and did not schedule another: the dialog is looked at once more.
  schedule_if_drivable(dialog);
  dialog.became_idle.notify_all();
  for (auto* observer : dialogs_.observers()) observer->on_drive_finished(dialog.id());
  // Counted from schedule_drive on, so a subdialog scheduled by this drive keeps the tree busy.
  auto& hierarchy = tree(dialog.row().root_id);
  if (--hierarchy.active_drives == 0) {
    hierarchy.settled.notify_all();
    // At rest: a store shared by several processes may let another take the tree up (the lease
    // goes back after every batch this drive appended).
    dialogs_.log().release_tree(dialog.row().root_id);
  }
}

// A drive that cannot go on ends here, with its reason recorded (drive_failed) — the one place a
// drive's failure is written, whatever step failed.
asio::awaitable<void> drive_loop::drive_locked(dialog_runtime& dialog) {
  if (auto driven = co_await drive_rounds(dialog); !driven) co_await record_failure(dialog, driven.err().message);
}

asio::awaitable<result<void>> drive_loop::drive_rounds(dialog_runtime& dialog) {
  const auto* member = members_.find(dialog.speaking_member());
  if (member == nullptr) {
    co_return make_error(errc::not_found, "member '" + dialog.speaking_member() + "' is not in the team");
  }
  const auto& root_id = dialog.row().root_id;
  if (dialogs_.cache().is_replay_root(root_id) && (replay_ == nullptr || replay_->root_id() != root_id)) {
    // Driven under the served team it would run the origin's model in the origin's workspace.
    co_return make_error(errc::conflict, "dialog " + dialog.id() + " belongs to replay " + root_id +
                                             ", which runs only with its change and record: `parley resume " + root_id +
                                             "` while no `parley serve` holds the data directory");
  }
  if (dialog.row().generating) PARLEY_CO_TRY(recover_interrupted_generation(dialog));
  std::int64_t round = 0;
  while (dialog.row().status == events::dialog_status::running && !dialog.row().dead) {
    const auto owed = dialog.unanswered_tool_calls();
    if (!owed.empty()) {
      PARLEY_CO_TRY(co_await run_tool_calls(dialog, *member, owed));
      continue;
    }
    if (round > 0 && !dialog.row().needs_drive && memory_.push_diligence(dialog, *member->config)) {
      PARLEY_CO_TRY(co_await dialogs_.commit(dialog));
      continue;
    }
    // Suspended: a subdialog, the tellasker or the human will revive it through the log.
    if (!dialog.can_drive() || !dialog.row().needs_drive) break;
    if (memory_.context_stayed_critical(dialog)) {
      PARLEY_CO_TRY(
          memory_.stage_course_start(dialog, context_full_course_prompt(team_.language, dialog.row().course + 1)));
      PARLEY_CO_TRY(co_await dialogs_.commit(dialog));
      continue;
    }
    if (++round > member->config->max_tool_rounds) {
      co_return make_error(errc::limit_exceeded, "stopped after " + std::to_string(round - 1) +
                                                     " model rounds without a final answer (max_tool_rounds)");
    }
    // The member's MCP servers are started and listed first (each within its start_timeout): their
    // tools are in the request only once they are known. One that cannot start is left out of this
    // round (mcp_servers.hpp says why and logs it).
    if (member->mcp.any() && !dialog.is_fbr()) co_await members_.prepare_mcp(*member);
    PARLEY_CO_TRY(co_await generate(dialog, *member, round));
  }
  // Tool results of the last round may still be in flight; make them durable before going idle —
  // unless another drive of the tree is under way: the tree settles only when its last drive ends,
  // and that drive's commit makes every earlier batch durable (the store commits in order), so no
  // one is told the tree is done before its events are durable.
  if (tree(dialog.row().root_id).active_drives > 1) {
    dialogs_.send(dialog);
    co_return ok();
  }
  co_return co_await dialogs_.commit(dialog);
}

asio::awaitable<result<void>> drive_loop::generate(dialog_runtime& dialog, const member_setup& member,
                                                   std::int64_t round) {
  const std::int64_t genseq = dialog.genseq_made_here = dialog.row().last_genseq + 1;  // its calls: not a crash's
  PARLEY_CO_TRY(dialogs_.stage(dialog, events::generation_started{dialog.row().course, genseq, round}));
  // Not written on its own: nothing outside the process acts on a generation's start (observers saw
  // it as it was staged), so it becomes durable with the first checkpoint of a long generation or
  // with the generation's end — one commit per model call instead of two. A crash before either
  // leaves no trace of the generation, which is then simply made again.

  const auto request = members_.request_for(dialog, member, round);
  // Seed 002's ActivePromptLog: the prompt's text is logged when its version changes.
  std::string prompt_version = prompt_versions_.version_of(request);
  if (prompt_version != dialog.state().prompt_version) {
    events::prompt_logged logged{dialog.row().course, prompt_version, request.system_prompt, {}, request.model};
    if (request.tools) {
      for (const auto& spec : *request.tools) logged.tools.push_back(spec.name);
    }
    PARLEY_CO_TRY(dialogs_.stage(dialog, std::move(logged)));
  }
  auto& control = dialog.begin_generation();
  stream_relay relay(dialogs_.observers(), dialog.id(), dialog.row().root_id, dialog.row().course, genseq, control);
  relay.on_checkpoint(
      kCheckpointEvery, [this, &dialog, genseq](const std::string& thinking, const std::string& saying) {
        if (!dialogs_.stage(dialog, events::generation_progress{dialog.row().course, genseq, thinking, saying})) {
          return;
        }
        dialogs_.send(dialog);
      });
  relay.on_discarded([this, &dialog, genseq](std::string_view reason) {
    if (!dialogs_.stage(dialog, events::generation_discarded{dialog.row().course, genseq, std::string(reason)})) {
      return;
    }
    dialogs_.send(dialog);
  });
  auto response = co_await member.provider->stream(request, relay, control);
  const bool interrupted = control.stopped() && relay.violation().empty();
  const std::string stop_reason = control.stop_reason();
  dialog.end_generation();
  if (!relay.violation().empty()) co_return make_error(errc::provider_error, relay.violation());
  if (!response) co_return std::move(response).err();
  if (interrupted) response->tool_calls.clear();  // a stopped generation's calls never run
  std::string syntax_errors;
  if (member.config->tellask_syntax == config::tellask_syntax::text && !interrupted) {
    syntax_errors = calls_from_text(dialog, genseq, *response);
  }

  // The dialogs a final saying goes to are read first, off the loop (tellask_router.hpp).
  if (is_final(*response, interrupted)) {
    co_await router_.prefetch_for_final_saying(dialog, dialogs_.reads());
  }
  const bool deliver =
      is_final(*response, interrupted) && !dialog.state().input_during_generation && syntax_errors.empty();
  // Read before generation_finished marks the assignment replied.
  const bool owes_reply = dialog.state().assigned && !dialog.state().assigned->replied;
  auto finished = finished_payload(dialog, member.config->model, genseq, *response, interrupted);
  if (interrupted && !stop_reason.empty()) finished.stop_reason = stop_reason;
  finished.prompt_version = std::move(prompt_version);
  PARLEY_CO_TRY(dialogs_.stage(dialog, std::move(finished)));
  if (!interrupted) PARLEY_CO_TRY(memory_.stage_context_health(dialog, member, genseq, response->usage.input_tokens));
  if (!syntax_errors.empty()) {
    // Told like a tool error, so the model can write the Tellask again.
    events::user_message told;
    told.course = dialog.row().course;
    told.content = std::move(syntax_errors);
    told.msg_id = new_uuid();
    told.origin = events::message_origin::system;
    PARLEY_CO_TRY(dialogs_.stage(dialog, std::move(told)));
  }
  round_effects fx;
  if (deliver) PARLEY_CO_TRY(router_.deliver_final_saying(dialog, response->saying, owes_reply, fx));
  // Durable before any of its tool calls runs — unless no call has effects outside the log.
  const auto& calls = response->tool_calls;
  const bool without_effects =
      !calls.empty() && std::all_of(calls.begin(), calls.end(), [this, &member](const llm::tool_call& call) {
        return runs_before_durable(member.tools, call) && members_.find_mcp_tool(member, call.name) == nullptr;
      });
  if (without_effects && fx.touched.empty()) co_return ok();
  const bool effects_next = !calls.empty() && !without_effects;
  co_return co_await commit_round(dialog, fx, effects_next ? durability::before_going_on : durability::in_order);
}

asio::awaitable<void> drive_loop::run_tools(dialog_runtime& dialog, const member_setup& member,
                                            const std::vector<llm::tool_call>& calls) {
  if (auto ran = co_await run_tool_calls(dialog, member, calls); !ran)
    co_await record_failure(dialog, ran.err().message);
}

asio::awaitable<result<void>> drive_loop::run_tool_calls(dialog_runtime& dialog, const member_setup& member,
                                                         const std::vector<llm::tool_call>& calls) {
  // drive_control::stop during the round kills a running command; the calls after it are not run and the
  // drive ends with a drive_failed that says so (a resume goes on from there).
  auto& run_control = dialog.begin_tools_run();
  struct tools_run_end {
    dialog_runtime& dialog;
    ~tools_run_end() { (void)dialog.end_tools_run(); }
  } run_end{dialog};
  tools::tool_context context{dialog.id(),      member.config->id,     team_.workspace,    &member.config->access,
                              &protected_dirs_, &member.config->shell, run_control.slot(), member.config->vision};
  // The calls' generation_finished is durable before any call with effects runs (generate), so
  // each key below is read from the log, and a process that runs these calls again after a
  // takeover computes the same ones (idempotency_key.hpp).
  const call_origin origin = origin_of_calls(dialog);
  // Calls of a generation this runtime did not make were left by a process that died.
  const bool left_by_crash = origin.genseq != dialog.genseq_made_here;
  round_effects fx;
  // clear_mind ends the course, so the round's other calls are answered first.
  const llm::tool_call* clear_mind_call = nullptr;
  for (const auto& call : calls) {
    // A replay answers a member tool call the origin made the same way (replay_oracle.hpp).
    if (replay_ != nullptr && !dialog.is_fbr() && !is_dialog_tool(call.name) && !run_control.stopped()) {
      auto replayed = replay_->answer_tool(dialog, call);
      if (replayed) {
        PARLEY_CO_TRY(stage_replayed_call(dialogs_, dialog, std::move(*replayed)));
        continue;
      }
    }
    tool_call_record record;
    auto& outcome = record.outcome;
    if (dialog.is_fbr()) {
      outcome = {false, "a Fresh Boots Reasoning dialog has no tools and cannot Tellask; answer in text"};
    } else if (call.name == dialog_tool::clear_mind && clear_mind_call == nullptr) {
      clear_mind_call = &call;
      continue;
    } else if (is_dialog_tool(call.name)) {
      // A replay answers a question the origin's human answered (replay_oracle.hpp).
      result<bool> replayed_question = false;
      if (replay_ != nullptr) replayed_question = replay_->answer_question(dialogs_, dialog, call);
      if (!replayed_question) co_return std::move(replayed_question).err();
      if (*replayed_question) continue;
      // What the routing loads is read first, off the loop (tellask_router.hpp).
      co_await router_.prefetch_for_call(dialog, call, dialogs_.reads());
      auto handled = handle_dialog_tool(dialog, call, fx);
      if (!handled) co_return std::move(handled).err();
      if (!handled->has_value()) continue;  // waits for another dialog or the human
      outcome = std::move(**handled);
    } else if (run_control.stopped()) {
      outcome = {false, "not run: the dialog was stopped before this call"};
    } else {
      const std::int64_t started_ms = now_ms();
      context.idempotency_key = idempotency_key(origin, call.id);
      record = co_await run_member_tool(dialog, member, call, context, left_by_crash);
      make_loggable(outcome);
      if (dialog.is_self_reflection()) {
        PARLEY_CO_TRY(dialogs_.stage(dialog, introspection_of(dialog, call, outcome, started_ms, now_ms())));
      }
    }
    PARLEY_CO_TRY(
        dialogs_.stage(dialog, tool_result_of(dialog.row().course, dialog.row().last_genseq, call, std::move(record))));
  }
  if (run_control.stopped()) {
    const std::string why = run_control.stop_reason().empty() ? "" : " (" + run_control.stop_reason() + ")";
    PARLEY_CO_TRY(dialogs_.stage(
        dialog, events::drive_failed{dialog.row().course,
                                     "stopped while its tools ran" + why + "; resume the dialog to go on"}));
  } else if (clear_mind_call != nullptr) {
    PARLEY_CO_TRY(memory_.start_new_course(dialog, *clear_mind_call));
  }
  if (fx.touched.empty()) {
    dialogs_.send(dialog);
    co_return ok();
  }
  // Subdialogs created or revived: their first events go to the store in one batch with the call
  // that made them, ahead of anything the subdialogs will say; nothing outside the log acts on
  // them, and every read of the store waits for the batches sent before it, so the REST views of
  // the tree never list a subdialog's question before the subdialog.
  co_return co_await commit_round(dialog, fx, durability::in_order);
}

asio::awaitable<void> drive_loop::record_failure(dialog_runtime& dialog, std::string message) {
  if (dialog.poisoned) co_return;  // the log refused an earlier batch; only a reload can help
  if (!dialogs_.stage(dialog, events::drive_failed{dialog.row().course, message})) {
    co_return;
  }
  (void)co_await dialogs_.commit(dialog);
}

}  // namespace parley::engine
