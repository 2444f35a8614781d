// Seed 001's Tellask routing: where a member's call to a teammate, to its tellasker or to the human
// goes, and where a dialog's final saying is delivered. Read it beside the seed's flowchart ("3-Type
// Teammate Tellask Taxonomy"): a subdialog Tellasking its tellasker is Type A (tellaskBack); a call
// with a sessionSlug is Type B (the root's registry resumes or creates the session); one without is
// Type C (always a new subdialog); Fresh Boots Reasoning is a tool-less Type C of the caller itself;
// askHuman raises a Q4H.
//
// The router decides and stages; it never commits, drives or waits. Each dialog it stages on is
// named in the round's effects, which the engine commits with the round in one batch and then
// drives: a Tellask and the subdialog it creates are durable together, and a reply comes back
// through the log (reply_received), never through a callback, so a crash at any point leaves a
// consistent state that the next start continues from.
//
// It is given only what routing needs: the loaded dialogs and their trees (whose registry it
// keeps), the team (members, depth limits, language), who hears of staged events, and the record
// windows a subdialog is created with. Runs on the engine's executor, like the engine. Its loads
// find their dialogs in memory: the drive awaits the prefetch_for_* of the path first, which reads
// what is missing on the store's read thread (tellask_prefetch.cpp).
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parley/config/team.hpp"
#include "parley/core/result.hpp"
#include "parley/engine/dialog_cache.hpp"
#include "parley/engine/dialog_runtime.hpp"
#include "parley/engine/observer.hpp"
#include "parley/engine/record_windows.hpp"
#include "parley/engine/round_effects.hpp"
#include "parley/engine/store_reads.hpp"
#include "parley/llm/provider.hpp"
#include "parley/tools/tool.hpp"

namespace parley::engine {

// A dialog tool's result for the model, or nothing when the call waits for another dialog or the
// human (its answer comes back later through the log).
using tool_reply = std::optional<tools::tool_outcome>;

struct registry_entry {  // seed 001 SubdialogRegistry entry
  std::string key;       // agentId!sessionSlug
  std::string subdialog_id;
  std::string agent_id;
  std::string session_slug;
  std::int64_t created_at_ms = 0;
  std::int64_t last_accessed_ms = 0;
  bool locked = false;  // being driven right now
};

class tellask_router {
 public:
  // Keeps references to all four; they outlive the router (the engine owns them all).
  tellask_router(dialog_cache& dialogs, const config::team_config& team, const std::vector<engine_observer*>& observers,
                 const record_windows& windows)
      : dialogs_(dialogs), team_(team), observers_(observers), windows_(windows) {}

  // A Tellask-family call (is_tellask_call) whose arguments the tool's schema already accepted.
  result<tool_reply> route(dialog_runtime& caller, const llm::tool_call& call, const boost::json::object& args,
                           round_effects& fx);
  // A final saying: answers the tellaskBacks the dialog owes, else replies to its assignment.
  // `owes_reply`: read before this generation's generation_finished marked the assignment replied.
  result<void> deliver_final_saying(dialog_runtime& dialog, const std::string& saying, bool owes_reply,
                                    round_effects& fx);
  // A subdialog a human declared dead (its declared_dead staged): its Type B entry goes, and the
  // caller that waits for it gets a failed result.
  result<void> forget_dead_subdialog(dialog_runtime& sub, const std::string& reason, round_effects& fx);
  // Stages a new subdialog of `caller` and keeps it loaded. `title`: what it is for, shown in the
  // tree; `reflection`: a selfReflect's (seed 002 self-reflection session).
  result<dialog_runtime*> create_subdialog(dialog_runtime& caller, const std::string& member_id,
                                           events::call_kind call_kind, std::string_view session_slug,
                                           std::string title,
                                           std::optional<events::reflection_spec> reflection = std::nullopt);
  // The Type B registry of a root (seed 001 registry.yaml), sorted by key; dialogs not in memory
  // are read right here (a CLI verb, a test).
  result<std::vector<registry_entry>> registry(std::string_view root_id);
  // The same for a coroutine: what is not in memory is read on `reads` (null: right here).
  boost::asio::awaitable<result<std::vector<registry_entry>>> load_registry(std::string root_id, store_reads* reads);

  // What the routing of a call, a final saying or a dead subdialog will load — a caller, a Type B
  // session and its earlier caller, the tellaskBacks owed, the tree's registry — read into memory
  // first, on `reads`, so the routing itself (synchronous) never reads the store on the loop. What
  // is loaded here stays: the routing runs in a drive of the same tree (or with the subdialog
  // locked), and the cache drops nothing of a tree with a drive under way, nor a tree with a
  // dialog loaded. A read that fails is left to the routing, which meets the same failure.
  boost::asio::awaitable<void> prefetch_for_call(const dialog_runtime& caller, const llm::tool_call& call,
                                                 store_reads* reads);
  boost::asio::awaitable<void> prefetch_for_final_saying(const dialog_runtime& dialog, store_reads* reads);
  boost::asio::awaitable<void> prefetch_for_dead(const dialog_runtime& sub, store_reads* reads);
  // Tells observers that the dialog's open questions (the Q4H index) changed from `previous_count`.
  void notify_questions(const dialog_runtime& dialog, std::int64_t previous_count) const;

 private:
  // What a call to a teammate names, read from its arguments by the path that takes it.
  struct teammate_call {
    std::string call_id;
    events::call_kind kind;
    std::string target;   // the member whose subdialog answers
    std::string slug;     // Type B's sessionSlug; empty for the others
    std::string content;  // what the caller asks (a selfReflect's goal)
  };

  // One function per path of seed 001's flowchart (tellask_router.cpp quotes the rules).
  // Type A: a subdialog asks its tellasker (tellaskBack, or tellaskSessionless aimed at it).
  result<tool_reply> call_tellasker(dialog_runtime& sub, const llm::tool_call& call, const boost::json::object& args,
                                    round_effects& fx);
  // Type B: `tellask` with a sessionSlug, resumed from or registered in the root's registry.
  result<tool_reply> call_registered_session(dialog_runtime& caller, const llm::tool_call& call,
                                             const boost::json::object& args, round_effects& fx);
  // Type C: `tellaskSessionless`, always a new subdialog, never registered.
  result<tool_reply> call_sessionless(dialog_runtime& caller, const llm::tool_call& call,
                                      const boost::json::object& args, round_effects& fx);
  // Fresh Boots Reasoning: a new tool-less subdialog of the caller's own member.
  result<tool_reply> call_fresh_boots(dialog_runtime& caller, const llm::tool_call& call,
                                      const boost::json::object& args, round_effects& fx);
  // Seed 002's selfReflect: a self-reflection session of the caller's own member.
  result<tool_reply> call_self_reflection(dialog_runtime& caller, const llm::tool_call& call,
                                          const boost::json::object& args, round_effects& fx);
  // Q4H: askHuman records an open question; the dialog waits for the human's answer.
  result<tool_reply> ask_human(dialog_runtime& dialog, const llm::tool_call& call, const boost::json::object& args);
  // The final saying's two paths: answers owed to tellaskBacks, else the reply to the assignment.
  result<void> answer_owed_tellask_backs(dialog_runtime& dialog, const std::string& saying, round_effects& fx);
  result<void> reply_to_tellasker(dialog_runtime& dialog, const std::string& saying, round_effects& fx);
  // A Type B session's earlier caller that still waits is told `superseded`.
  result<void> supersede_waiting_caller(dialog_runtime& session, const std::string& target, round_effects& fx);

  // The refusal of a call to `target` (an unknown member, a malformed Type B `slug`, the caller's
  // max_tellask_depth), or nullopt when the call may go on.
  std::optional<tool_reply> refusal_of_teammate_call(const dialog_runtime& caller, const std::string& target,
                                                     const std::string* slug) const;
  // The live session the root's registry holds for `key` (agentId!sessionSlug), or null.
  dialog_runtime* registered_session(const std::string& root_id, const std::string& key);
  // Stages the subdialog's assignment (its next user message, `prompt`) and the caller's wait.
  result<tool_reply> assign(dialog_runtime& caller, dialog_runtime& sub, const teammate_call& tellask,
                            std::string prompt, round_effects& fx);
  static registry_entry entry_of(const std::string& key, dialog_runtime& sub);
  // Stages an event on the dialog and tells observers at once (before it is durable).
  result<void> stage(dialog_runtime& dialog, events::event_payload payload);

  dialog_cache& dialogs_;
  const config::team_config& team_;
  const std::vector<engine_observer*>& observers_;
  const record_windows& windows_;
};

}  // namespace parley::engine
