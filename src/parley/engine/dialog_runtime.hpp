// The in-memory side of one dialog: its projection row, the messages of its current course, its
// FIFO drive lock and the events staged for the next append. Always rebuilt from the log with the
// same reducer the stores use, so memory and disk cannot disagree.
#pragma once

#include <boost/json/object.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/engine/async_lock.hpp"
#include "parley/engine/async_signal.hpp"
#include "parley/llm/provider.hpp"
#include "parley/model/dialog_state.hpp"
#include "parley/model/event.hpp"
#include "parley/model/records.hpp"

namespace parley::engine {

class dialog_runtime {
 public:
  // Replays a dialog's events (in seq order) into a runtime.
  static result<std::unique_ptr<dialog_runtime>> replay(const std::vector<event>& events);
  static std::unique_ptr<dialog_runtime> empty() { return std::make_unique<dialog_runtime>(); }

  const dialog_row& row() const noexcept { return row_; }
  const std::vector<message_row>& messages() const noexcept { return messages_; }
  // The tool calls of messages()[index] (none unless it is an assistant's), parsed once when the
  // message arrived rather than at every prompt that shows it.
  const std::vector<llm::tool_call>& tool_calls_of(std::size_t index) const { return tool_calls_[index]; }
  const dialog_state& state() const noexcept { return state_; }
  bool is_sub() const noexcept { return row_.kind == events::dialog_kind::sub; }
  bool is_fbr() const noexcept { return row_.call_kind == events::call_kind::fresh_boots_reasoning; }
  bool is_self_reflection() const noexcept { return row_.call_kind == events::call_kind::self_reflect; }
  // The gates of seed 001, derived from the log: running, not dead, nothing awaited.
  bool can_drive() const noexcept {
    return row_.status == events::dialog_status::running && !row_.dead && !state_.suspended();
  }
  const std::string& id() const noexcept { return row_.id; }
  // A root several AI members or humans share (seed 002's group dialogue types).
  bool is_group() const noexcept { return !row_.members.empty() || row_.humans.size() > 1; }
  // Who generates next: in a group, the member the last human message asked; else the dialog's.
  const std::string& speaking_member() const noexcept {
    return state_.responder.empty() ? row_.member_id : state_.responder;
  }

  // Builds the next event of this dialog, folds it into row/messages and queues it for the log.
  // `dialog_id`/`root_id` are only needed for the dialog_created event.
  result<void> stage(events::event_payload payload, std::string_view dialog_id = {}, std::string_view root_id = {});
  std::vector<event> take_staged() { return std::exchange(staged_, {}); }
  const event& last_staged() const { return staged_.back(); }

  // Tool calls of the last assistant message that have no result yet and wait for nothing (a
  // crash or a stop between the generation and its tools leaves these behind).
  std::vector<llm::tool_call> unanswered_tool_calls() const;

  async_lock& lock() noexcept { return lock_; }
  llm::generation_control* generation() noexcept { return generation_.get(); }
  llm::generation_control& begin_generation();
  void end_generation() { generation_.reset(); }
  // While member tools run: stopping it kills a running command (shell_cmd); the round then ends
  // the drive (engine::run_tools).
  llm::generation_control* tools_run() noexcept { return tools_run_.get(); }
  bool running_tools() const noexcept { return tools_run_ != nullptr; }
  llm::generation_control& begin_tools_run() {
    tools_run_ = std::make_unique<llm::generation_control>();
    return *tools_run_;
  }
  // True when the run was stopped.
  bool end_tools_run() {
    const bool stopped = tools_run_ != nullptr && tools_run_->stopped();
    tools_run_.reset();
    return stopped;
  }

  // Nothing holds it across an await: no drive, generation, lock holder or waiter, commit in
  // flight or staged event. The engine may then drop it and load it again from the log.
  bool unused() noexcept {
    return !drive_scheduled && generation_ == nullptr && tools_run_ == nullptr && !lock_.locked() &&
           lock_.waiting() == 0 && commits_in_flight == 0 && staged_.empty() && !became_idle.has_waiters();
  }

  bool drive_scheduled = false;       // a drive coroutine is queued or running for this dialog
  int commits_in_flight = 0;          // engine::commit and commit_round awaiting the log for it
  std::uint64_t last_used = 0;        // the engine's use clock when it was last loaded or driven
  std::int64_t diligence_pushes = 0;  // sent to this root since it was loaded (engine/diligence.hpp)
  bool poisoned = false;              // a commit failed: memory is ahead of the log, reload before use
  std::string store_error;            // why the log refused it, while poisoned
  async_signal became_idle;           // notified when a drive ends and no other is scheduled
  // The genseq of the last generation this runtime made (0: none since it was read from the log).
  // Tool calls owed by any other generation were left by a process that died while, or before,
  // running them: drive_loop::run_member_tool does not call them again when their tool says so.
  std::int64_t genseq_made_here = 0;

 private:
  result<void> apply(const event& ev);

  dialog_row row_;
  std::vector<message_row> messages_;
  std::vector<std::vector<llm::tool_call>> tool_calls_;  // one entry per message
  dialog_state state_;
  std::vector<event> staged_;
  async_lock lock_;
  std::unique_ptr<llm::generation_control> generation_;
  std::unique_ptr<llm::generation_control> tools_run_;
};

}  // namespace parley::engine
