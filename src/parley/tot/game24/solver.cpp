#include "parley/tot/game24/solver.hpp"

namespace parley::tot::game24 {

bool solver::can_reach_24(const state& s) {
  if (s.is_final()) return s.is_solved();
  const std::string key = s.key();
  if (const auto found = reachable_.find(key); found != reachable_.end()) return found->second;
  bool reachable = false;
  for (const auto& move : s.moves()) {
    auto next = s.apply(move);
    if (next && can_reach_24(*next)) {
      reachable = true;
      break;
    }
  }
  reachable_.emplace(key, reachable);
  return reachable;
}

std::optional<std::string> solver::solve(const state& s) {
  if (s.is_final()) return s.is_solved() ? std::optional(s.numbers()[0].expression) : std::nullopt;
  for (const auto& move : s.moves()) {
    auto next = s.apply(move);
    if (next && can_reach_24(*next)) return solve(*next);
  }
  return std::nullopt;
}

}  // namespace parley::tot::game24
