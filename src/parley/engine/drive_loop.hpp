// The drive loop (seed 001, "Backend Coroutine Driving Loop"): a dialog with work is scheduled, and
// its drive — under the dialog's lock — answers any tool calls still owed, then calls the model
// while the dialog needs driving: it generates, runs the round's tools (the dialog tools through
// the Tellask router and working memory), and commits each round so that every model output is
// durable before a tool with effects outside the log runs (write-ahead). Every exit path leaves
// the log consistent; a failure is recorded as drive_failed in one place (drive_locked).
//
// A drive that ends because the log refused a write leaves its dialog stalled; with retries on
// (set_store_retry) the loop tries again with backoff (store_stalls.cpp).
//
// Owns the scheduling of drives, the stalled dialogs, the prompt versions it has logged and the
// folders no file tool may touch. Defined in drive_loop.cpp (scheduling, rounds, generation, tool
// runs), member_tool_calls.cpp (a member's own tool calls), dialog_tool_calls.cpp (which dialog tool
// a call is, and where it goes) and store_stalls.cpp (the retry of stalled dialogs). Runs on the
// engine's executor.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "parley/config/team.hpp"
#include "parley/core/result.hpp"
#include "parley/engine/dialog_host.hpp"
#include "parley/engine/member_roster.hpp"
#include "parley/engine/prompt_versions.hpp"
#include "parley/engine/round_effects.hpp"
#include "parley/engine/tellask_router.hpp"
#include "parley/engine/tool_call_record.hpp"
#include "parley/engine/working_memory.hpp"
#include "parley/tools/tool.hpp"

namespace parley::engine {

class replay_oracle;

class drive_loop {
 public:
  // Keeps references to all; they outlive the loop (the engine owns them all).
  drive_loop(boost::asio::any_io_executor executor, const config::team_config& team, dialog_host& dialogs,
             const member_roster& members, tellask_router& router, working_memory& memory);
  drive_loop(const drive_loop&) = delete;
  drive_loop& operator=(const drive_loop&) = delete;

  // Spawns the dialog's drive unless one is scheduled already.
  void schedule_drive(dialog_runtime& dialog);
  // schedule_drive for a dialog that can go on: running, alive, with input or owed tool calls.
  void schedule_if_drivable(dialog_runtime& dialog);
  // When a round's events must be durable: before the drive goes on (a tool with effects runs
  // next), or only in log order, before anything later is (the drive goes on at once).
  enum class durability { before_going_on, in_order };
  // Commits the dialog's round with the other dialogs it touched, in one batch, then schedules
  // those it marked to drive.
  boost::asio::awaitable<result<void>> commit_round(dialog_runtime& dialog, round_effects& fx, durability when);
  // Tool calls owed since a crash, answered before new input is taken (the caller holds the lock),
  // so the model never sees a call without its result followed by a new question.
  boost::asio::awaitable<void> answer_owed_calls(dialog_runtime& dialog);

  // Folders no file tool may read or write, wherever they are (the data directory, the uploads):
  // kept in canonical form. Set before the first drive.
  void set_protected_dirs(std::vector<tools::protected_dir> dirs);
  const std::vector<tools::protected_dir>& protected_dirs() const noexcept { return protected_dirs_; }
  // A drive that ends because the log refused a write (a full disk, a failing device) leaves its
  // dialog stalled. With retries on (`parley serve` turns them on; a one-shot CLI run does not
  // wait for the disk), the loop tries again after 1 s, doubling to 60 s: once the log takes
  // writes, it records the failure (drive_failed) and drives the dialog again.
  void set_store_retry(bool on) { store_retry_ = on; }
  std::size_t stalled_dialogs() const noexcept { return stalled_.size(); }
  // A replay's record (replay_oracle.hpp; docs/fork.md "Replay"), asked before a tool call or a
  // question of the replay's tree runs; null (the default): every call runs. Not owned.
  void set_replay(replay_oracle* oracle) noexcept { replay_ = oracle; }

 private:
  root_tree& tree(const std::string& root_id) { return dialogs_.cache().tree(root_id); }
  boost::asio::awaitable<void> drive(dialog_runtime& dialog);
  boost::asio::awaitable<void> drive_locked(dialog_runtime& dialog);
  // The drive's rounds until the dialog waits or is done; an error ends the drive (drive_locked
  // records it).
  boost::asio::awaitable<result<void>> drive_rounds(dialog_runtime& dialog);
  boost::asio::awaitable<result<void>> generate(dialog_runtime& dialog, const member_setup& member, std::int64_t round);
  // Runs a round's tool calls and stages their results; run_tools records a failure itself.
  boost::asio::awaitable<void> run_tools(dialog_runtime& dialog, const member_setup& member,
                                         const std::vector<llm::tool_call>& calls);
  boost::asio::awaitable<result<void>> run_tool_calls(dialog_runtime& dialog, const member_setup& member,
                                                      const std::vector<llm::tool_call>& calls);
  // One call of a member's own tool (member_tool_calls.cpp); `left_by_crash`: the call was owed
  // by a generation this runtime did not make, so a tool that is not run again after a crash is
  // recorded as interrupted instead of called. `dialog` holds the scratch pads a file tool may
  // write from (dominds_pads.hpp).
  boost::asio::awaitable<tool_call_record> run_member_tool(const dialog_runtime& dialog, const member_setup& member,
                                                           const llm::tool_call& call,
                                                           const tools::tool_context& context, bool left_by_crash);
  boost::asio::awaitable<void> record_failure(dialog_runtime& dialog, std::string message);
  result<void> recover_interrupted_generation(dialog_runtime& dialog);
  // Dialog tools (dialog_tool_calls.cpp; the Tellask family in tellask_router, the rest in
  // working_memory). A handler stages its events and returns the call's result, or nothing when
  // the call waits for another dialog or the human.
  result<tool_reply> handle_dialog_tool(dialog_runtime& dialog, const llm::tool_call& call, round_effects& fx);
  // Stalled dialogs (set_store_retry): noted when their drive ends, retried with backoff.
  void note_stalled(dialog_runtime& dialog);
  boost::asio::awaitable<void> retry_stalled();
  boost::asio::awaitable<result<void>> recover_stalled(std::string dialog_id, std::string problem);
  // recover_stalled once the tree may be written: the dialog read again and its drive resumed.
  boost::asio::awaitable<result<void>> reload_stalled(std::string dialog_id, std::string problem);

  boost::asio::any_io_executor executor_;
  const config::team_config& team_;
  dialog_host& dialogs_;
  const member_roster& members_;
  tellask_router& router_;
  working_memory& memory_;
  prompt_versions prompt_versions_;
  std::vector<tools::protected_dir> protected_dirs_;
  std::map<std::string, std::string, std::less<>> stalled_;  // dialog id → the log's refusal
  bool store_retry_ = false;
  replay_oracle* replay_ = nullptr;
  bool retrying_stalled_ = false;  // retry_stalled is running
};

}  // namespace parley::engine
