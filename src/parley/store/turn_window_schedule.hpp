// The response windows still open, ordered by deadline: at most one per dialog (its open turn).
// Plain data for the server's window timers; the caller supplies "now", so tests choose the time.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "parley/store/records_query.hpp"

namespace parley {

class turn_window_schedule {
 public:
  // Replaces what was known of the dialog's open turn.
  void set(const pending_turn& turn);
  void erase(const std::string& dialog_id);
  // Removes and returns every window whose deadline is at or before `now_ms`, earliest first.
  std::vector<pending_turn> take_due(std::int64_t now_ms);
  std::optional<std::int64_t> next_deadline() const;
  std::size_t size() const noexcept { return by_dialog_.size(); }

 private:
  std::map<std::string, pending_turn> by_dialog_;
  std::set<std::pair<std::int64_t, std::string>> by_deadline_;
};

}  // namespace parley
