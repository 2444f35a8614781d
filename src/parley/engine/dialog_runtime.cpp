#include "parley/engine/dialog_runtime.hpp"

#include <boost/json/parse.hpp>

#include <set>

#include "parley/core/json.hpp"
#include "parley/core/time.hpp"
#include "parley/model/projection.hpp"

namespace parley::engine {

result<std::unique_ptr<dialog_runtime>> dialog_runtime::replay(const std::vector<event>& events) {
  auto runtime = std::make_unique<dialog_runtime>();
  for (const auto& ev : events) PARLEY_TRY(runtime->apply(ev));
  if (runtime->row_.id.empty()) return make_error(errc::not_found, "dialog has no events");
  return runtime;
}

result<void> dialog_runtime::apply(const event& ev) {
  auto step = apply_event(ev, row_);
  if (!step) return std::move(step).err();
  if (step->course_reset) messages_.clear();
  if (step->new_message) messages_.push_back(std::move(*step->new_message));
  apply_state_event(ev, state_);
  return ok();
}

result<void> dialog_runtime::stage(std::string_view type, boost::json::object payload, std::string_view dialog_id,
                                   std::string_view root_id) {
  event ev;
  ev.dialog_id = row_.id.empty() ? std::string(dialog_id) : row_.id;
  ev.root_id = row_.root_id.empty() ? std::string(root_id) : row_.root_id;
  ev.seq = row_.last_seq + 1;
  ev.type = std::string(type);
  ev.payload = std::move(payload);
  ev.ts_ms = now_ms();
  PARLEY_TRY(apply(ev));
  staged_.push_back(std::move(ev));
  return ok();
}

std::vector<llm::tool_call> dialog_runtime::unanswered_tool_calls() const {
  // The newest assistant message, behind the tool results that answer it. Asked on every turn of
  // the drive loop, and most often the answer is "none": that is found without allocating.
  auto newest = messages_.rbegin();
  while (newest != messages_.rend() && newest->role == "tool") ++newest;
  if (newest == messages_.rend() || newest->role != "assistant" || newest->tool_calls_json.empty() ||
      newest->interrupted) {
    return {};
  }
  boost::system::error_code ec;
  const auto calls = boost::json::parse(newest->tool_calls_json, ec);
  if (ec || !calls.is_array()) return {};
  std::set<std::string, std::less<>> answered;
  for (const auto& awaited : state_.awaited) answered.insert(awaited.call_id);
  for (const auto& question : state_.questions) answered.insert(question.call_id);
  for (auto it = messages_.rbegin(); it != newest; ++it) answered.insert(it->tool_call_id);
  std::vector<llm::tool_call> pending;
  for (const auto& value : calls.get_array()) {
    if (!value.is_object()) continue;
    const auto& call = value.get_object();
    llm::tool_call tc{json_string_or(call, "id"), json_string_or(call, "name"), json_string_or(call, "arguments")};
    if (answered.count(tc.id) == 0) pending.push_back(std::move(tc));
  }
  return pending;
}

llm::generation_control& dialog_runtime::begin_generation() {
  generation_ = std::make_unique<llm::generation_control>();
  return *generation_;
}

}  // namespace parley::engine
