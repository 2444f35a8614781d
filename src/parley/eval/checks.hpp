// The checks of a case evaluated on its tree (docs/eval.md "Checks"). Each gives pass, fail or
// error: an error is a check that could not be evaluated (a cost with unpriced calls, a judge that
// answered nonsense), never counted as a pass.
#pragma once

#include <string>
#include <string_view>

#include "parley/eval/suite.hpp"
#include "parley/eval/tree_summary.hpp"

namespace parley::eval {

enum class verdict { pass, fail, error };
const char* verdict_name(verdict value) noexcept;

struct check_result {
  std::string check;  // check_spec::label()
  std::string where;  // FILE:LINE:COLUMN of the check
  verdict outcome = verdict::error;
  std::string message;     // why it failed or could not be evaluated; what it found when it passed
  std::string reasons;     // a judge's reasons, as it gave them
  std::string judge_root;  // the judge's root dialog in the store
};

// Every kind but `judge`, which runs a model (the runner's); `tree` is the case's root tree.
check_result evaluate_check(const check_spec& check, const tree_summary& tree);

// What the judge member is told: the rubric, the task and the answer, and the one reply it may give.
std::string judge_prompt(const check_spec& check, std::string_view task, std::string_view answer);
// The judge's reply read strictly: a JSON object {"verdict": "pass"|"fail", "reasons": "..."} (in
// a ```json fence or not). Anything else is a judge error naming what was wrong.
check_result read_judge_verdict(const check_spec& check, std::string_view reply);

}  // namespace parley::eval
