// What a root tree did, read from its log: each dialog's steps (tool calls, Tellasks, questions to
// the human) in order, its final answer, and tokens, cost, latency and rounds per member. The
// shape `parley diff` aligns and `parley eval`'s checks read; pure, no I/O (read_tree does the reads).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "parley/config/team.hpp"
#include "parley/core/result.hpp"
#include "parley/model/event.hpp"
#include "parley/store/store.hpp"

namespace parley::eval {

enum class step_kind { tool_call, tellask, question };
const char* step_kind_name(step_kind kind) noexcept;

struct tree_step {
  step_kind kind = step_kind::tool_call;
  std::string name;          // the tool's name; a Tellask's call kind (tellask, tellaskSessionless, ...); "askHuman"
  std::string detail;        // the tool's arguments text; the Tellask's target (and "!slug"); the question's text
  std::string subdialog_id;  // a Tellask's subdialog
  bool operator==(const tree_step& other) const {
    return kind == other.kind && name == other.name && detail == other.detail;
  }
};

struct member_stats {
  std::int64_t rounds = 0;  // model calls (generations finished)
  std::int64_t input_tokens = 0;
  std::int64_t output_tokens = 0;
  double cost_usd = 0.0;
  std::int64_t unpriced_calls = 0;  // calls of a model without a declared price (or no team to price them)
  std::int64_t latency_ms = 0;      // summed from each generation's start to its finish
  void add(const member_stats& other);
};

struct dialog_node {
  std::string id;
  std::string parent_id;
  std::string member_id;
  std::string call_kind;     // how a subdialog was made ("" for the root)
  std::string session_slug;  // a Type B subdialog's
  std::vector<tree_step> steps;
  std::string final_answer;           // the last saying of the dialog's generations ("" when none)
  std::string last_error;             // why its last drive failed ("" when it did not)
  std::vector<std::size_t> children;  // indexes into tree_summary::dialogs, in the order they were made
};

struct tree_summary {
  std::string root_id;
  std::vector<dialog_node> dialogs;  // the root first, then the others in the order they were made
  std::map<std::string, member_stats, std::less<>> by_member;
  member_stats total;
  std::vector<std::string> tools_called() const;   // every tool name called anywhere in the tree
  std::vector<std::string> members_asked() const;  // every member a Tellask reached
};

// `events`: each dialog's events in seq order, dialogs in the order they were made (read_tree's).
// `prices`: the team whose model declarations price the calls; null leaves every call unpriced.
tree_summary summarize_tree(const std::string& root_id, const std::vector<event>& events,
                            const config::team_config* prices);

// Every event of the root's tree: the root's, then each subdialog's in creation order. not_found
// when `root_id` is not a stored root dialog.
result<std::vector<event>> read_tree(store& log, const std::string& root_id);

}  // namespace parley::eval
