// Game of 24 as a ToT task plugin: a thought is one step "a op b = c (left: …)", checked in exact
// arithmetic against its parent's numbers (a wrong step is pruned with the reason, never valued);
// two steps that leave the same numbers are the same state; a final state's value is known
// (24 or not) without a model; the answer is written from the path and checked by the verifier.
// Also the symbolic generator and evaluator that stand in for a model: they propose every step,
// steps that can still reach 24 first, and value a state by whether it can.
#pragma once

#include <memory>
#include <vector>

#include "parley/tot/agents.hpp"
#include "parley/tot/game24/solver.hpp"
#include "parley/tot/game24/state.hpp"

namespace parley::tot::game24 {

class game24_task final : public task_plugin {
 public:
  result<thought_node> make_root(const std::string& problem) override;
  result<accepted_step> accept(const thought_node& parent, const thought_candidate& candidate) override;
  std::optional<node_evaluation> known_evaluation(const thought_node& node) override;
  bool is_solution(const thought_node& node) override;
  bool can_expand(const thought_node& node) override;
  std::optional<final_solution> synthesize(const std::string& problem, const std::vector<thought_node>& path) override;
  std::optional<solution_verification> check_answer(const std::string& problem, const std::string& answer) override;
  std::string goal() const override { return "24"; }
  std::vector<std::string> constraints() const override;
};

// The state a node holds (its metadata), or the puzzle's for a root without metadata.
result<state> state_of(const thought_node& node, std::string_view problem = {});

class symbolic_generator final : public thought_generator {
 public:
  boost::asio::awaitable<agent_answer<generated_thoughts>> generate(const generate_thoughts& request) override;

 private:
  solver solver_;
};

class symbolic_evaluator final : public thought_evaluator {
 public:
  boost::asio::awaitable<agent_answer<evaluation_results>> evaluate(const evaluate_thoughts& request) override;
  std::int64_t states_valued() const noexcept { return states_valued_; }

 private:
  solver solver_;
  std::int64_t states_valued_ = 0;
};

}  // namespace parley::tot::game24
