#include "parley/tot/personas.hpp"

#include "parley/tot/protocol_names.hpp"
#include "parley/tot/task_defaults.hpp"

namespace parley::tot {
namespace {

std::string task_hint(task_type type) {
  switch (type) {
    case task_type::math_reasoning:
      return "The task is mathematical reasoning: a thought is one equation step; be exact, every number counts.";
    case task_type::creative_writing:
      return "The task is creative writing: a thought is a paragraph or a plan for one; value coherence.";
    case task_type::planning:
      return "The task is planning: a thought is one action step; value feasibility and progress to the goal.";
    case task_type::debugging:
      return "The task is debugging: a thought is one hypothesis about the cause; value evidence and testability.";
    case task_type::architecture_design:
      return "The task is architecture design: a thought is one component decision; value trade-offs stated.";
  }
  return {};
}

std::string role_text(agent_role role) {
  switch (role) {
    case agent_role::orchestrator:
      return "You are the orchestrator of a Tree of Thoughts run: you choose the task type and search settings.";
    case agent_role::decomposer:
      return "You are the decomposer: given decompose_task, reply with decomposition_result "
             "{thought_granularity, intermediate_steps, depth_estimate, constraints, success_criteria}.";
    case agent_role::explorer:
      return "You are the explorer: you run the search and report search_complete.";
    case agent_role::generator:
      return "You are the generator: given generate_thoughts, propose num_candidates distinct next thoughts from "
             "parent_node and reply with generated_thoughts {candidates: [{temp_id, content, action_type}]}. "
             "For Game of 24 write each step as 'a op b = c (left: remaining numbers)'.";
    case agent_role::evaluator:
      return "You are the evaluator: given evaluate_thoughts, score every candidate 0-10 (10: certainly leads to a "
             "solution, 0: cannot) with confidence 0-1 and reasoning, and reply with evaluation_results "
             "{evaluations: [{node_id, score, confidence, reasoning, dimension_scores}], ranking, "
             "pruning_suggestions}. Use only the candidates' node ids.";
    case agent_role::synthesizer:
      return "You are the synthesizer: given synthesize_solution, write final_solution {answer, reasoning_trace, "
             "confidence, verification: {is_valid, validation_errors}, alternative_solutions} from best_path.";
  }
  return {};
}

}  // namespace

std::string default_persona(agent_role role, task_type type) {
  return role_text(role) + "\n" + task_hint(type) +
         " Thought granularity: " + std::string(defaults_for(type).granularity) +
         ".\nReply with exactly one JSON object {\"type\": ..., \"payload\": {...}} of seed 003's ToT protocol and "
         "nothing else: no prose, no fields the protocol does not list.";
}

std::string general_persona(agent_role role) {
  return role_text(role) +
         "\nThe request names the task type; a thought is one step of the granularity that type asks for.\n"
         "Reply with exactly one JSON object {\"type\": ..., \"payload\": {...}} of seed 003's ToT protocol and "
         "nothing else: no prose, no fields the protocol does not list.";
}

}  // namespace parley::tot
