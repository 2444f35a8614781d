#include "parley/engine/dialog_runtime.hpp"

#include "parley/core/time.hpp"
#include "parley/model/projection.hpp"

namespace parley::engine {

namespace {

// A new message's calls as the model adapters take them.
std::vector<llm::tool_call> tool_calls_of_new(const message_row& message) {
  std::vector<llm::tool_call> calls;
  calls.reserve(message.tool_calls.size());
  for (const auto& call : message.tool_calls) calls.push_back({call.id, call.name, call.arguments});
  return calls;
}

}  // namespace

result<std::unique_ptr<dialog_runtime>> dialog_runtime::replay(const std::vector<event>& events) {
  auto runtime = std::make_unique<dialog_runtime>();
  for (const auto& ev : events) PARLEY_TRY(runtime->apply(ev));
  if (runtime->row_.id.empty()) return make_error(errc::not_found, "dialog has no events");
  return runtime;
}

result<void> dialog_runtime::apply(const event& ev) {
  auto step = apply_event(ev, row_);
  if (!step) return std::move(step).err();
  if (step->course_reset) {
    messages_.clear();
    tool_calls_.clear();
  }
  if (step->new_message) {
    tool_calls_.push_back(tool_calls_of_new(*step->new_message));
    messages_.push_back(std::move(*step->new_message));
  }
  apply_state_event(ev, state_);
  return ok();
}

result<void> dialog_runtime::stage(events::event_payload payload, std::string_view dialog_id,
                                   std::string_view root_id) {
  event ev;
  ev.dialog_id = row_.id.empty() ? std::string(dialog_id) : row_.id;
  ev.root_id = row_.root_id.empty() ? std::string(root_id) : row_.root_id;
  ev.seq = row_.last_seq + 1;
  ev.payload = std::move(payload);
  ev.ts_ms = now_ms();
  PARLEY_TRY(apply(ev));
  staged_.push_back(std::move(ev));
  return ok();
}

std::vector<llm::tool_call> dialog_runtime::unanswered_tool_calls() const {
  // The newest assistant message, behind the tool results that answer it. Asked on every turn of
  // the drive loop, and most often the answer is "none": that is found without allocating.
  std::size_t newest = messages_.size();
  while (newest > 0 && messages_[newest - 1].role == events::message_role::tool) --newest;
  if (newest == 0) return {};
  const message_row& assistant = messages_[newest - 1];
  if (assistant.role != events::message_role::assistant || assistant.interrupted) return {};
  // A handful of calls and results at most: linear scans beat building a set.
  auto answered = [&](const std::string& call_id) {
    for (const auto& awaited : state_.awaited) {
      if (awaited.call_id == call_id) return true;
    }
    for (const auto& question : state_.questions) {
      if (question.call_id == call_id) return true;
    }
    for (std::size_t i = newest; i < messages_.size(); ++i) {
      if (messages_[i].tool_call_id == call_id) return true;
    }
    return false;
  };
  std::vector<llm::tool_call> pending;
  for (const auto& call : tool_calls_[newest - 1]) {
    if (!answered(call.id)) pending.push_back(call);
  }
  return pending;
}

llm::generation_control& dialog_runtime::begin_generation() {
  generation_ = std::make_unique<llm::generation_control>();
  return *generation_;
}

}  // namespace parley::engine
