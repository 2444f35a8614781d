#include "parley/store/memory_store.hpp"

#include <algorithm>

#include "parley/model/projection.hpp"
#include "parley/store/append_check.hpp"

namespace parley {

result<void> memory_store::apply_batch(std::span<const event> batch, projections& into) {
  // Rows and messages are staged beside the real ones so a failing event leaves `into` untouched.
  std::map<std::string, dialog_row, std::less<>> staged;
  std::map<std::string, fork_rest, std::less<>> staged_rests;
  std::vector<message_row> new_messages;
  std::vector<std::pair<std::string, fork_checkpoint>> new_checkpoints;
  for (const event& ev : batch) {
    if (ev.dialog_id.empty())
      return make_error(errc::invalid_argument, "event " + std::string(ev.type()) + " has no dialog id");
    auto row = staged.find(ev.dialog_id);
    if (row == staged.end()) {
      const auto existing = into.dialogs.find(ev.dialog_id);
      row = staged.emplace(ev.dialog_id, existing != into.dialogs.end() ? existing->second : dialog_row{}).first;
    }
    auto step = apply_event(ev, row->second);
    if (!step) return std::move(step).err();
    if (step->new_message) new_messages.push_back(std::move(*step->new_message));
    auto rest = staged_rests.find(ev.dialog_id);
    if (rest == staged_rests.end()) {
      const auto existing = into.rests.find(ev.dialog_id);
      rest = staged_rests.emplace(ev.dialog_id, existing != into.rests.end() ? existing->second : fork_rest{}).first;
    }
    rest->second.apply(ev);
    if (auto checkpoint = fork_checkpoint_after(ev, row->second, rest->second)) {
      new_checkpoints.emplace_back(ev.dialog_id, std::move(*checkpoint));
    }
  }
  for (auto& [id, row] : staged) into.dialogs.insert_or_assign(id, std::move(row));
  for (auto& [id, rest] : staged_rests) into.rests.insert_or_assign(id, std::move(rest));
  for (auto& [id, checkpoint] : new_checkpoints) into.checkpoints[id].push_back(std::move(checkpoint));
  for (auto& msg : new_messages) into.messages[msg.dialog_id].push_back(std::move(msg));
  return ok();
}

void memory_store::append(std::vector<event> batch, append_callback on_durable) {
  result<void> outcome = check_appendable(batch);
  if (outcome) {
    parley::lock_guard lock(mutex_);
    outcome = apply_batch(batch, projections_);
    if (outcome) {
      stats_.events += static_cast<std::int64_t>(batch.size());
      ++stats_.transactions;
      for (const event& ev : batch) remember_input(ev);
      std::move(batch.begin(), batch.end(), std::back_inserter(events_));
    }
  }
  // Outside the lock, so a callback may read from or append to this store.
  if (on_durable) on_durable(std::move(outcome));
}

void memory_store::remember_input(const event& ev) {
  if (const auto* input = ev.as<events::user_message>(); input != nullptr && !input->msg_id.empty()) {
    inputs_.try_emplace(input->msg_id,
                        input_record{input_kind::message, ev.dialog_id, ev.seq, input->from, input->content, {}});
  } else if (const auto* answer = ev.as<events::question_answered>(); answer != nullptr && !answer->msg_id.empty()) {
    inputs_.try_emplace(answer->msg_id, input_record{input_kind::answer, ev.dialog_id, ev.seq, answer->from,
                                                     answer->content, answer->question_id});
  } else if (const auto* flow = flow_input_of(ev); flow != nullptr && !flow->msg_id.empty()) {
    inputs_.try_emplace(flow->msg_id,
                        input_record{input_kind::message, ev.dialog_id, ev.seq, flow->from, flow->content, {}});
  }
}

result<std::optional<input_record>> memory_store::find_input(std::string_view msg_id) {
  parley::lock_guard lock(mutex_);
  const auto found = inputs_.find(msg_id);
  if (found == inputs_.end()) return std::optional<input_record>{};
  return std::optional<input_record>{found->second};
}

result<std::vector<event>> memory_store::read_events(std::string_view dialog_id, std::int64_t after_seq) {
  parley::lock_guard lock(mutex_);
  std::vector<event> out;
  for (const event& ev : events_) {
    if (ev.dialog_id == dialog_id && ev.seq > after_seq) out.push_back(ev);
  }
  return out;
}

result<std::vector<event>> memory_store::read_event_range(std::string_view dialog_id, std::int64_t after_seq,
                                                          std::int64_t through_seq) {
  parley::lock_guard lock(mutex_);
  std::vector<event> out;
  for (const event& ev : events_) {
    if (ev.dialog_id == dialog_id && ev.seq > after_seq && ev.seq <= through_seq) out.push_back(ev);
  }
  std::sort(out.begin(), out.end(), [](const event& a, const event& b) { return a.seq < b.seq; });
  return out;
}

result<std::optional<fork_checkpoint>> memory_store::fork_checkpoint_before(std::string_view dialog_id,
                                                                            std::int64_t max_seq,
                                                                            std::int64_t max_ts_ms) {
  parley::lock_guard lock(mutex_);
  const auto found = projections_.checkpoints.find(dialog_id);
  if (found == projections_.checkpoints.end()) return std::optional<fork_checkpoint>{};
  for (auto it = found->second.rbegin(); it != found->second.rend(); ++it) {
    if (it->seq <= max_seq && it->ts_ms <= max_ts_ms) return std::optional<fork_checkpoint>{*it};
  }
  return std::optional<fork_checkpoint>{};
}

result<std::optional<std::int64_t>> memory_store::next_fork_checkpoint(std::string_view dialog_id,
                                                                       std::int64_t after_seq) {
  parley::lock_guard lock(mutex_);
  const auto found = projections_.checkpoints.find(dialog_id);
  if (found == projections_.checkpoints.end()) return std::optional<std::int64_t>{};
  for (const fork_checkpoint& checkpoint : found->second) {
    if (checkpoint.seq > after_seq) return std::optional<std::int64_t>{checkpoint.seq};
  }
  return std::optional<std::int64_t>{};
}

result<std::vector<event>> memory_store::read_all_events() {
  parley::lock_guard lock(mutex_);
  return events_;
}

result<std::vector<dialog_row>> memory_store::list_dialogs(const dialog_filter& filter) {
  parley::lock_guard lock(mutex_);
  std::vector<dialog_row> out;
  for (const auto& [id, row] : projections_.dialogs) {
    if (filter.status && row.status != *filter.status) continue;
    if (!filter.member_id.empty() && row.member_id != filter.member_id) continue;
    if (!filter.root_id.empty() && row.root_id != filter.root_id) continue;
    if (filter.roots_only && !row.parent_id.empty()) continue;
    if (filter.needing_recovery && !row.generating && !row.needs_drive) continue;
    if (filter.failed && row.last_error.empty()) continue;
    if (filter.with_open_questions && row.open_questions <= 0) continue;
    out.push_back(row);
  }
  std::sort(out.begin(), out.end(), [](const dialog_row& a, const dialog_row& b) {
    return a.created_at_ms != b.created_at_ms ? a.created_at_ms < b.created_at_ms : a.id < b.id;
  });
  const auto offset = static_cast<std::size_t>(std::max<std::int64_t>(filter.offset, 0));
  out.erase(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(std::min(offset, out.size())));
  if (filter.limit > 0 && out.size() > static_cast<std::size_t>(filter.limit)) {
    out.resize(static_cast<std::size_t>(filter.limit));
  }
  return out;
}

result<std::optional<dialog_row>> memory_store::get_dialog(std::string_view dialog_id) {
  parley::lock_guard lock(mutex_);
  const auto found = projections_.dialogs.find(dialog_id);
  if (found == projections_.dialogs.end()) return std::optional<dialog_row>{};
  return std::optional<dialog_row>{found->second};
}

result<std::vector<message_row>> memory_store::messages(std::string_view dialog_id, std::int64_t course) {
  if (course < 0) return make_error(errc::invalid_argument, "course " + std::to_string(course) + " is negative");
  parley::lock_guard lock(mutex_);
  std::vector<message_row> out;
  const auto found = projections_.messages.find(dialog_id);
  if (found == projections_.messages.end()) return out;
  for (const message_row& msg : found->second) {
    if (course == 0 || msg.course == course) out.push_back(msg);
  }
  return out;
}

result<void> memory_store::rebuild_projections() {
  parley::lock_guard lock(mutex_);
  projections rebuilt;
  for (const event& ev : events_) {
    auto applied = apply_batch({&ev, 1}, rebuilt);
    if (!applied) return make_error(errc::corrupt, "the log does not replay: " + applied.err().message);
  }
  projections_ = std::move(rebuilt);
  return ok();
}

store_stats memory_store::stats() const {
  parley::lock_guard lock(mutex_);
  return stats_;
}

std::unique_ptr<store> make_memory_store() { return std::make_unique<memory_store>(); }

}  // namespace parley
