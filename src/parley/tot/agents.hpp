// What the explorer calls: a generator of candidate thoughts, an evaluator of them, and the task
// plugin that knows what a thought means for its task (Game of 24 checks arithmetic exactly; a
// text task takes any content). Each answer is the seed's message, or the seed's error.
#pragma once

#include <boost/asio/awaitable.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/tot/protocol.hpp"

namespace parley::tot {

template <class T>
using agent_answer = std::variant<T, protocol_error>;

class thought_generator {
 public:
  virtual ~thought_generator() = default;
  virtual boost::asio::awaitable<agent_answer<generated_thoughts>> generate(const generate_thoughts& request) = 0;
  virtual std::int64_t model_calls() const { return 0; }
};

class thought_evaluator {
 public:
  virtual ~thought_evaluator() = default;
  virtual boost::asio::awaitable<agent_answer<evaluation_results>> evaluate(const evaluate_thoughts& request) = 0;
  virtual std::int64_t model_calls() const { return 0; }
};

// A candidate the task accepted as a step from its parent.
struct accepted_step {
  std::string content;           // as the tree shows it (may be normalised)
  boost::json::object metadata;  // the task's state after the step
  std::string state_key;         // equal keys are equivalent states: merged, valued once
};

class task_plugin {
 public:
  virtual ~task_plugin() = default;
  // The root thought; fails when the problem is not one of this task (wrong number count ...).
  virtual result<thought_node> make_root(const std::string& problem) = 0;
  // Accepts a candidate as a step from `parent`, or says why it is not one.
  virtual result<accepted_step> accept(const thought_node& parent, const thought_candidate& candidate) = 0;
  // A score known without asking a model (a final Game of 24 state is 24 or it is not).
  virtual std::optional<node_evaluation> known_evaluation(const thought_node& node) = 0;
  virtual bool is_solution(const thought_node& node) = 0;
  // Whether a node can have children (false for a finished state).
  virtual bool can_expand(const thought_node& node) = 0;
  // The answer from a path, when the task can write it itself; nullopt: ask the synthesizer.
  virtual std::optional<final_solution> synthesize(const std::string& problem,
                                                   const std::vector<thought_node>& path) = 0;
  // Checks a synthesizer's answer where the task can (Game of 24: the expression uses the four
  // numbers once and equals 24); nullopt: the task has no test, the synthesizer's verification stands.
  virtual std::optional<solution_verification> check_answer(const std::string& /*problem*/,
                                                            const std::string& /*answer*/) {
    return std::nullopt;
  }
  // Open-ended tasks have no test of a solution: a thought that reaches max_depth above the
  // threshold is one.
  virtual bool solution_at_max_depth() const { return false; }
  virtual std::string goal() const = 0;
  virtual std::vector<std::string> constraints() const = 0;
};

}  // namespace parley::tot
