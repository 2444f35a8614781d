// Exhaustive Game of 24 search over exact rationals: whether a set of numbers can still make 24,
// and one expression that does. The symbolic evaluator and the noisy model's judgement use it as
// the ground truth; it remembers every set it has decided (at most a few thousand per puzzle).
#pragma once

#include <map>
#include <optional>
#include <string>

#include "parley/tot/game24/state.hpp"

namespace parley::tot::game24 {

class solver {
 public:
  bool can_reach_24(const state& s);
  // An expression over the state's numbers that equals 24, if any.
  std::optional<std::string> solve(const state& s);

 private:
  std::map<std::string, bool, std::less<>> reachable_;
};

}  // namespace parley::tot::game24
