// Writers of seed 003's messages: field names and spellings exactly as the seed, optional fields
// left out when empty so that what is written reads back through protocol_read.cpp unchanged.
#include <boost/json/serialize.hpp>

#include "parley/tot/protocol_json.hpp"
#include "parley/tot/protocol_names.hpp"

namespace parley::tot {
namespace {

json::array strings(const std::vector<std::string>& items) {
  json::array out;
  for (const auto& item : items) out.emplace_back(item);
  return out;
}

json::value name(std::string_view text) { return json::value(json::string(text)); }

template <class T>
json::array list(const std::vector<T>& items);

json::value to_value(const thought_candidate& c) {
  json::object out{{"temp_id", c.temp_id}, {"content", c.content}, {"action_type", c.action_type}};
  if (!c.metadata.empty()) out["metadata"] = c.metadata;
  return out;
}

json::value to_value(const thought_evaluation& e) {
  json::object out{
      {"node_id", e.node_id}, {"score", e.score}, {"confidence", e.confidence}, {"reasoning", e.reasoning}};
  if (!e.dimension_scores.empty()) {
    json::object dims;
    for (const auto& [key, value] : e.dimension_scores) dims[key] = value;
    out["dimension_scores"] = std::move(dims);
  }
  return out;
}

json::value to_value(const thought_node& node) { return to_json(node); }

template <class T>
json::array list(const std::vector<T>& items) {
  json::array out;
  for (const auto& item : items) out.push_back(to_value(item));
  return out;
}

json::value to_value(const decompose_task& m) {
  return json::object{{"problem", m.problem}, {"task_type", name(name_of(m.task_type))}};
}
json::value to_value(const decomposition_result& m) {
  return json::object{{"thought_granularity", m.thought_granularity},
                      {"intermediate_steps", strings(m.intermediate_steps)},
                      {"depth_estimate", m.depth_estimate},
                      {"constraints", strings(m.constraints)},
                      {"success_criteria", m.success_criteria}};
}
json::value to_value(const generate_thoughts& m) {
  return json::object{{"parent_node", to_json(m.parent_node)},
                      {"generation_strategy", name(name_of(m.generation_strategy))},
                      {"num_candidates", m.num_candidates},
                      {"context", json::object{{"problem", m.context.problem},
                                               {"goal", m.context.goal},
                                               {"constraints", strings(m.context.constraints)}}}};
}
json::value to_value(const generated_thoughts& m) { return json::object{{"candidates", list(m.candidates)}}; }
json::value to_value(const evaluate_thoughts& m) {
  return json::object{{"candidates", list(m.candidates)},
                      {"evaluation_strategy", name(name_of(m.evaluation_strategy))},
                      {"evaluation_criteria", strings(m.evaluation_criteria)},
                      {"context", json::object{{"problem", m.context.problem},
                                               {"goal", m.context.goal},
                                               {"current_depth", m.context.current_depth},
                                               {"max_depth", m.context.max_depth}}}};
}
json::value to_value(const evaluation_results& m) {
  return json::object{{"evaluations", list(m.evaluations)},
                      {"ranking", strings(m.ranking)},
                      {"pruning_suggestions", strings(m.pruning_suggestions)}};
}
json::value to_value(const initialize_search& m) {
  return json::object{{"problem", m.problem},
                      {"task_type", name(name_of(m.task_type))},
                      {"search_config", to_json(m.search_config)},
                      {"decomposition_result", m.decomposition_result}};
}
json::value to_value(const search_complete& m) {
  return json::object{{"best_path", list(m.best_path)},
                      {"tree", to_json(m.tree)},
                      {"stats", json::object{{"total_nodes", m.stats.total_nodes},
                                             {"total_backtracks", m.stats.total_backtracks},
                                             {"llm_calls", m.stats.llm_calls}}}};
}
json::value to_value(const synthesize_solution& m) {
  return json::object{
      {"best_path", list(m.best_path)}, {"problem", m.problem}, {"task_type", name(name_of(m.task_type))}};
}
json::value to_value(const final_solution& m) {
  json::object verification{{"is_valid", m.verification.is_valid},
                            {"validation_errors", strings(m.verification.validation_errors)}};
  return json::object{{"answer", m.answer},
                      {"reasoning_trace", strings(m.reasoning_trace)},
                      {"confidence", m.confidence},
                      {"verification", std::move(verification)},
                      {"alternative_solutions", strings(m.alternative_solutions)}};
}

}  // namespace

json::value to_json(const thought_node& node) {
  json::object out{{"id", node.id},
                   {"parent_id", node.parent_id ? json::value(*node.parent_id) : json::value(nullptr)},
                   {"children_ids", strings(node.children_ids)},
                   {"depth", node.depth},
                   {"content", node.content},
                   {"action_type", node.action_type},
                   {"evaluation", nullptr},
                   {"status", name(name_of(node.status))},
                   {"metadata", node.metadata}};
  if (node.evaluation) {
    out["evaluation"] = json::object{{"score", node.evaluation->score},
                                     {"confidence", node.evaluation->confidence},
                                     {"reasoning", node.evaluation->reasoning}};
  }
  return out;
}

json::value to_json(const search_config& config) {
  return json::object{{"strategy", name(name_of(config.strategy))},
                      {"max_depth", config.max_depth},
                      {"branching_factor", config.branching_factor},
                      {"pruning_threshold", config.pruning_threshold}};
}

json::value to_json(const thought_tree& tree) {
  json::object nodes;
  for (const auto& [id, node] : tree.nodes) nodes[id] = to_json(node);
  return json::object{{"task_id", tree.task_id},
                      {"problem", tree.problem},
                      {"task_type", name(name_of(tree.task_type))},
                      {"search_config", to_json(tree.search_config)},
                      {"nodes", std::move(nodes)},
                      {"root_id", tree.root_id},
                      {"search_state", json::object{{"current_depth", tree.search_state.current_depth},
                                                    {"frontier", strings(tree.search_state.frontier)},
                                                    {"best_path", strings(tree.search_state.best_path)}}}};
}

json::value to_json(const protocol_error& error) {
  return json::object{
      {"code", name(name_of(error.code))}, {"message", error.message}, {"recoverable", error.recoverable}};
}

json::value to_json(const message_payload& payload) {
  return std::visit([](const auto& item) { return to_value(item); }, payload);
}

json::value to_json(const message& message) {
  json::object out{{"from", name(name_of(message.from))},
                   {"to", message.to},
                   {"type", name(type_name_of(message.payload))},
                   {"payload", to_json(message.payload)},
                   {"task_id", message.task_id}};
  if (message.error) out["error"] = to_json(*message.error);
  return out;
}

std::string to_text(const message& message) { return json::serialize(to_json(message)); }

}  // namespace parley::tot
