#include "parley/eval/compare.hpp"

namespace parley::eval {
namespace {

const case_report* compare_find(const eval_run& run, const std::string& name) {
  for (const auto& one : run.cases) {
    if (one.name == name) return &one;
  }
  return nullptr;
}

result<tree_summary> compare_tree(store& log, const std::string& root_id) {
  auto events = read_tree(log, root_id);
  if (!events) return std::move(events).err();
  return summarize_tree(root_id, *events, nullptr);
}

void compare_trees(const case_report& before, const case_report& after, store& log, case_comparison& out) {
  if (before.attempts.empty() || after.attempts.empty()) return;
  const std::string& a = before.attempts.front().root_id;
  const std::string& b = after.attempts.front().root_id;
  if (a.empty() || b.empty()) return;  // an attempt that never made a tree
  auto tree_a = compare_tree(log, a);
  auto tree_b = compare_tree(log, b);
  if (!tree_a || !tree_b) {
    out.diff_problem = (!tree_a ? tree_a.err() : tree_b.err()).message;
    return;
  }
  auto diff = diff_trees(*tree_a, *tree_b);
  if (!diff.identical()) out.diff = std::move(diff);
}

}  // namespace

std::vector<case_comparison> compare_runs(const eval_run& earlier, const eval_run& now, store& log) {
  std::vector<case_comparison> out;
  for (const auto& after : now.cases) {
    case_comparison row;
    row.name = after.name;
    row.after = after.pass_rate();
    const auto* before = compare_find(earlier, after.name);
    if (before == nullptr) {
      row.change = "new";
      out.push_back(std::move(row));
      continue;
    }
    row.before = before->pass_rate();
    row.change = *row.after > *row.before ? "better" : (*row.after < *row.before ? "worse" : "same");
    compare_trees(*before, after, log, row);
    out.push_back(std::move(row));
  }
  for (const auto& before : earlier.cases) {
    if (compare_find(now, before.name) == nullptr) {
      out.push_back({before.name, "gone", before.pass_rate(), std::nullopt, std::nullopt, {}});
    }
  }
  return out;
}

}  // namespace parley::eval
