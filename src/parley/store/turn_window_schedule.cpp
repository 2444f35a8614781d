#include "parley/store/turn_window_schedule.hpp"

namespace parley {

void turn_window_schedule::set(const pending_turn& turn) {
  erase(turn.dialog_id);
  by_dialog_[turn.dialog_id] = turn;
  by_deadline_.emplace(turn.deadline_ms, turn.dialog_id);
}

void turn_window_schedule::erase(const std::string& dialog_id) {
  const auto found = by_dialog_.find(dialog_id);
  if (found == by_dialog_.end()) return;
  by_deadline_.erase({found->second.deadline_ms, dialog_id});
  by_dialog_.erase(found);
}

std::vector<pending_turn> turn_window_schedule::take_due(std::int64_t now_ms) {
  std::vector<pending_turn> due;
  while (!by_deadline_.empty() && by_deadline_.begin()->first <= now_ms) {
    const std::string dialog_id = by_deadline_.begin()->second;
    due.push_back(by_dialog_.at(dialog_id));
    erase(dialog_id);
  }
  return due;
}

std::optional<std::int64_t> turn_window_schedule::next_deadline() const {
  if (by_deadline_.empty()) return std::nullopt;
  return by_deadline_.begin()->first;
}

}  // namespace parley
