#include "parley/tot/protocol_names.hpp"

#include <array>
#include <utility>

namespace parley::tot {
namespace {

template <class Enum, std::size_t N>
using name_table = std::array<std::pair<Enum, std::string_view>, N>;

constexpr name_table<task_type, 5> kTaskTypes{{{task_type::math_reasoning, "math_reasoning"},
                                               {task_type::creative_writing, "creative_writing"},
                                               {task_type::planning, "planning"},
                                               {task_type::debugging, "debugging"},
                                               {task_type::architecture_design, "architecture_design"}}};
constexpr name_table<search_strategy, 2> kStrategies{{{search_strategy::bfs, "BFS"}, {search_strategy::dfs, "DFS"}}};
constexpr name_table<generation_strategy, 2> kGenerations{
    {{generation_strategy::independent_sampling, "independent_sampling"},
     {generation_strategy::sequential_proposal, "sequential_proposal"}}};
constexpr name_table<evaluation_strategy, 2> kEvaluations{
    {{evaluation_strategy::independent_scoring, "independent_scoring"},
     {evaluation_strategy::comparative_voting, "comparative_voting"}}};
constexpr name_table<node_status, 4> kStatuses{{{node_status::pending, "pending"},
                                                {node_status::expanded, "expanded"},
                                                {node_status::pruned, "pruned"},
                                                {node_status::terminal, "terminal"}}};
constexpr name_table<agent_role, 6> kRoles{{{agent_role::orchestrator, "orchestrator"},
                                            {agent_role::decomposer, "decomposer"},
                                            {agent_role::generator, "generator"},
                                            {agent_role::evaluator, "evaluator"},
                                            {agent_role::explorer, "explorer"},
                                            {agent_role::synthesizer, "synthesizer"}}};
constexpr name_table<error_code, 4> kErrorCodes{{{error_code::invalid_format, "INVALID_FORMAT"},
                                                 {error_code::generation_failed, "GENERATION_FAILED"},
                                                 {error_code::evaluation_timeout, "EVALUATION_TIMEOUT"},
                                                 {error_code::search_exhausted, "SEARCH_EXHAUSTED"}}};

template <class Enum, std::size_t N>
std::string_view lookup(const name_table<Enum, N>& table, Enum value) {
  for (const auto& [item, name] : table) {
    if (item == value) return name;
  }
  return "?";
}

template <class Enum, std::size_t N>
result<Enum> parse(const name_table<Enum, N>& table, std::string_view text, std::string_view field) {
  std::string allowed;
  for (const auto& [item, name] : table) {
    if (name == text) return item;
    allowed += allowed.empty() ? "" : ", ";
    allowed += name;
  }
  std::string shown(text.substr(0, 60));
  return make_error(errc::invalid_argument, std::string(field) + ": '" + shown + "' is not one of " + allowed);
}

}  // namespace

std::string_view name_of(task_type value) { return lookup(kTaskTypes, value); }
std::string_view name_of(search_strategy value) { return lookup(kStrategies, value); }
std::string_view name_of(generation_strategy value) { return lookup(kGenerations, value); }
std::string_view name_of(evaluation_strategy value) { return lookup(kEvaluations, value); }
std::string_view name_of(node_status value) { return lookup(kStatuses, value); }
std::string_view name_of(agent_role value) { return lookup(kRoles, value); }
std::string_view name_of(error_code value) { return lookup(kErrorCodes, value); }

std::string_view type_name_of(const message_payload& payload) {
  static constexpr std::array<std::string_view, 10> kTypes{
      "decompose_task",     "decomposition_result", "generate_thoughts", "generated_thoughts",  "evaluate_thoughts",
      "evaluation_results", "initialize_search",    "search_complete",   "synthesize_solution", "final_solution"};
  return kTypes.at(payload.index());
}

result<task_type> parse_task_type(std::string_view text, std::string_view field) {
  return parse(kTaskTypes, text, field);
}
result<search_strategy> parse_search_strategy(std::string_view text, std::string_view field) {
  return parse(kStrategies, text, field);
}
result<generation_strategy> parse_generation_strategy(std::string_view text, std::string_view field) {
  return parse(kGenerations, text, field);
}
result<evaluation_strategy> parse_evaluation_strategy(std::string_view text, std::string_view field) {
  return parse(kEvaluations, text, field);
}
result<node_status> parse_node_status(std::string_view text, std::string_view field) {
  return parse(kStatuses, text, field);
}
result<agent_role> parse_agent_role(std::string_view text, std::string_view field) {
  return parse(kRoles, text, field);
}
result<error_code> parse_error_code(std::string_view text, std::string_view field) {
  return parse(kErrorCodes, text, field);
}

}  // namespace parley::tot
