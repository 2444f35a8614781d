#include "parley/tot/task_defaults.hpp"

namespace parley::tot {

const task_defaults& defaults_for(task_type type) {
  // | type | granularity | depth | strategy | evaluation |, breadth and threshold from the /tot command.
  static const task_defaults kMath{"equation",
                                   {search_strategy::bfs, 3, 5, 5.0},
                                   generation_strategy::sequential_proposal,
                                   evaluation_strategy::independent_scoring,
                                   8};
  static const task_defaults kCreative{"paragraph",
                                       {search_strategy::bfs, 2, 3, 6.0},
                                       generation_strategy::independent_sampling,
                                       evaluation_strategy::comparative_voting,
                                       3};
  static const task_defaults kPlanning{"action_step",
                                       {search_strategy::dfs, 4, 3, 5.5},
                                       generation_strategy::sequential_proposal,
                                       evaluation_strategy::independent_scoring,
                                       4};
  // The seed leaves debugging's depth open ("不定"); 4 bounds the run.
  static const task_defaults kDebugging{"hypothesis",
                                        {search_strategy::dfs, 4, 3, 5.0},
                                        generation_strategy::sequential_proposal,
                                        evaluation_strategy::independent_scoring,
                                        4};
  static const task_defaults kArchitecture{"component",
                                           {search_strategy::bfs, 2, 3, 6.5},
                                           generation_strategy::independent_sampling,
                                           evaluation_strategy::comparative_voting,
                                           3};
  switch (type) {
    case task_type::math_reasoning:
      return kMath;
    case task_type::creative_writing:
      return kCreative;
    case task_type::planning:
      return kPlanning;
    case task_type::debugging:
      return kDebugging;
    case task_type::architecture_design:
      return kArchitecture;
  }
  return kMath;
}

}  // namespace parley::tot
