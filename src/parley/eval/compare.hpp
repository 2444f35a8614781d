// `parley eval --compare RUN`: a run beside an earlier one, case by case (matched by name). A case
// is better when its pass rate rose, worse when it fell, same otherwise; `new` and `gone` when only
// one run has it. For a case in both, the first attempts' trees are diffed (tree_diff.hpp) and the
// diff kept when the trees differ.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "parley/eval/runner.hpp"
#include "parley/eval/tree_diff.hpp"
#include "parley/store/store.hpp"

namespace parley::eval {

struct case_comparison {
  std::string name;
  std::string change;            // better, worse, same, new, gone
  std::optional<double> before;  // the earlier run's pass rate
  std::optional<double> after;
  std::optional<tree_diff> diff;  // when both trees are in the store and differ
  std::string diff_problem;       // why there is no diff when one was wanted (a tree not in the store)
};

std::vector<case_comparison> compare_runs(const eval_run& earlier, const eval_run& now, store& log);

}  // namespace parley::eval
