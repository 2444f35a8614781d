// The task plugin of open-ended tasks (creative writing, planning, debugging, architecture):
// any non-empty thought is accepted; two thoughts are equivalent when they say the same (case and
// spacing aside) after the same parent; values come from the evaluator; the best thought at
// max_depth is the solution and the synthesizer member writes the answer.
#pragma once

#include "parley/tot/agents.hpp"

namespace parley::tot {

class text_task final : public task_plugin {
 public:
  result<thought_node> make_root(const std::string& problem) override;
  result<accepted_step> accept(const thought_node& parent, const thought_candidate& candidate) override;
  std::optional<node_evaluation> known_evaluation(const thought_node&) override { return std::nullopt; }
  bool is_solution(const thought_node&) override { return false; }
  bool can_expand(const thought_node&) override { return true; }
  std::optional<final_solution> synthesize(const std::string&, const std::vector<thought_node>&) override {
    return std::nullopt;
  }
  bool solution_at_max_depth() const override { return true; }
  std::string goal() const override { return "a complete, well-founded answer to the problem"; }
  std::vector<std::string> constraints() const override { return {}; }
};

}  // namespace parley::tot
