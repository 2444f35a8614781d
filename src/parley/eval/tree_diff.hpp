// `parley diff`: two root trees aligned and compared (docs/eval.md "Diff"). The alignment is
// deterministic: the roots are paired; a dialog's subdialogs are paired by member and Type B
// sessionSlug, or, without a slug, by member and the order that member's subdialogs were made in
// (the second sessionless Tellask to @researcher pairs with the other tree's second); steps (tool
// calls, Tellasks, questions to the human) are paired by their order within the dialog. Where the
// trees first part is the first differing step pair (or lone dialog) in depth-first order, the
// root first and a dialog's subdialogs in A's order, B's unpaired ones after.
#pragma once

#include <boost/json/object.hpp>

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "parley/eval/text_diff.hpp"
#include "parley/eval/tree_summary.hpp"

namespace parley::eval {

struct step_pair {
  std::optional<tree_step> a;
  std::optional<tree_step> b;
  bool same() const { return a && b && *a == *b; }
};

struct aligned_dialog {
  std::string path;       // "@lead", "@lead/@researcher#1", "@lead/@researcher!slug"
  std::string member_id;  // from A when A has it
  std::string a_id;       // "" when only B has the dialog
  std::string b_id;       // "" when only A has it
  std::vector<step_pair> steps;
  std::optional<std::size_t> first_parting;  // the first step pair that differs
  bool same() const { return !a_id.empty() && !b_id.empty() && !first_parting; }
};

struct tree_parting {
  std::string path;
  std::optional<std::size_t> step;  // none: the dialog itself is in one tree only
};

struct tree_diff {
  std::string a_root;
  std::string b_root;
  std::vector<aligned_dialog> dialogs;  // depth-first, the roots first
  std::optional<tree_parting> first_parting;
  std::string a_answer;  // the roots' final answers
  std::string b_answer;
  std::vector<diff_line> answer_diff;
  std::map<std::string, std::pair<member_stats, member_stats>, std::less<>> members;  // A's, B's
  member_stats total_a;
  member_stats total_b;
  bool identical() const { return !first_parting && a_answer == b_answer; }
};

tree_diff diff_trees(const tree_summary& a, const tree_summary& b);

// The --json shape (and GET /api/diff's): docs/eval.md lists its fields.
boost::json::object diff_to_json(const tree_diff& diff);
// The terminal's: every text from the log made safe (core/terminal_text.hpp); its own words in
// `language` (core/messages.hpp), the step kinds, ids and figures as they are.
std::string diff_to_text(const tree_diff& diff, std::string_view language = "en");

}  // namespace parley::eval
