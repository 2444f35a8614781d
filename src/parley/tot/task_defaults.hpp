// Seed 003's task-type table: thought granularity, depth, strategy and evaluation method per task
// type, with the /tot command's breadth and pruning threshold (notes/tot-reference.md §5).
#pragma once

#include <cstdint>
#include <string_view>

#include "parley/tot/protocol.hpp"

namespace parley::tot {

struct task_defaults {
  std::string_view granularity;  // equation, paragraph, action_step, hypothesis, component
  search_config config;
  generation_strategy generation = generation_strategy::sequential_proposal;
  evaluation_strategy evaluation = evaluation_strategy::independent_scoring;
  std::int64_t num_candidates = 5;  // per generation
};

const task_defaults& defaults_for(task_type type);

}  // namespace parley::tot
