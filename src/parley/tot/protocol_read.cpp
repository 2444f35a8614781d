// Strict readers of seed 003's messages: one `read_fields` per type, each reading every field the
// seed lists with its type and range; nested objects and arrays get readers of their own whose
// paths extend the parent's, so an error says where it is ("payload.candidates[2].content").
#include <boost/json/parse.hpp>

#include <set>

#include "parley/core/json_check.hpp"
#include "parley/core/utf8.hpp"
#include "parley/tot/field_reader.hpp"
#include "parley/tot/protocol_json.hpp"
#include "parley/tot/protocol_names.hpp"

namespace parley::tot {
namespace {

template <class Enum, class Parse>
void read_enum(field_reader& r, std::string_view key, Enum& out, Parse parse, bool required = true) {
  std::string text;
  r.text(key, text, required);
  if (!r.ok() || r.field(key, false) == nullptr) return;
  auto parsed = parse(text, r.path_of(key));
  if (!parsed) return r.adopt(parsed.err());
  out = *parsed;
}

void read_fields(field_reader& r, node_evaluation& out) {
  r.number("score", out.score, 0, kMaxScore);
  r.number("confidence", out.confidence, 0, 1);
  r.text("reasoning", out.reasoning, false);
}

template <class T>
void read_nested(field_reader& parent, std::string_view key, T& out, bool required = true);

void read_fields(field_reader& r, thought_node& out) {
  r.text("id", out.id, true, true);
  r.optional_text("parent_id", out.parent_id);
  r.texts("children_ids", out.children_ids, false);
  r.integer("depth", out.depth, 0, kMaxSearchDepth + 1);
  r.text("content", out.content);
  r.text("action_type", out.action_type, false);
  if (r.field("evaluation", false) != nullptr) {
    node_evaluation evaluation;
    read_nested(r, "evaluation", evaluation);
    out.evaluation = evaluation;
  }
  read_enum(r, "status", out.status, parse_node_status, false);
  r.object("metadata", out.metadata, false);
}

void read_fields(field_reader& r, search_config& out) {
  read_enum(r, "strategy", out.strategy, parse_search_strategy);
  r.integer("max_depth", out.max_depth, 1, kMaxSearchDepth);
  r.integer("branching_factor", out.branching_factor, 1, kMaxBranchingFactor);
  r.number("pruning_threshold", out.pruning_threshold, 0, kMaxScore);
}

void read_fields(field_reader& r, search_state& out) {
  r.integer("current_depth", out.current_depth, 0, kMaxSearchDepth + 1);
  r.texts("frontier", out.frontier, false);
  r.texts("best_path", out.best_path, false);
}

// The tree's links must hold: every id is its key, one root without parent, parents exist and
// list their children, depths follow, and the frontier and best path name nodes of the tree.
void check_tree_links(field_reader& r, const thought_tree& tree) {
  if (!tree.nodes.contains(tree.root_id)) return r.fail(r.path_of("root_id"), "'" + tree.root_id + "' is not a node");
  for (const auto& [key, node] : tree.nodes) {
    const std::string at = r.path_of("nodes") + "." + key;
    if (node.id != key) return r.fail(at + ".id", "'" + node.id + "' differs from its key '" + key + "'");
    if (key == tree.root_id) {
      if (node.parent_id) return r.fail(at + ".parent_id", "the root has no parent");
      continue;
    }
    if (!node.parent_id) return r.fail(at + ".parent_id", "only the root may have no parent");
    const auto parent = tree.nodes.find(*node.parent_id);
    if (parent == tree.nodes.end()) return r.fail(at + ".parent_id", "'" + *node.parent_id + "' is not a node");
    if (node.depth != parent->second.depth + 1) return r.fail(at + ".depth", "must be its parent's depth + 1");
  }
  for (const auto& [key, node] : tree.nodes) {
    std::set<std::string_view> seen;
    for (const auto& child : node.children_ids) {
      const std::string at = r.path_of("nodes") + "." + key + ".children_ids";
      if (!seen.insert(child).second) return r.fail(at, "lists '" + child + "' twice");
      const auto found = tree.nodes.find(child);
      if (found == tree.nodes.end()) return r.fail(at, "'" + child + "' is not a node");
      if (found->second.parent_id != key) return r.fail(at, "'" + child + "' has another parent");
    }
  }
  for (const auto* list : {&tree.search_state.frontier, &tree.search_state.best_path}) {
    for (const auto& id : *list) {
      if (!tree.nodes.contains(id)) return r.fail(r.path_of("search_state"), "'" + id + "' is not a node");
    }
  }
}

void read_fields(field_reader& r, thought_tree& out) {
  r.text("task_id", out.task_id);
  r.text("problem", out.problem, true, true);
  read_enum(r, "task_type", out.task_type, parse_task_type);
  read_nested(r, "search_config", out.search_config);
  if (const auto* nodes = r.field("nodes", true); nodes != nullptr) {
    if (!nodes->is_object()) return r.fail(r.path_of("nodes"), "must be an object of id → node");
    for (const auto& item : nodes->get_object()) {
      auto node = read_thought_node(item.value(), r.path_of("nodes") + "." + std::string(item.key()));
      if (!node) return r.adopt(node.err());
      out.nodes.emplace(std::string(item.key()), std::move(*node));
    }
  }
  r.text("root_id", out.root_id, true, true);
  read_nested(r, "search_state", out.search_state, false);
  if (r.ok()) check_tree_links(r, out);
}

void read_fields(field_reader& r, protocol_error& out) {
  read_enum(r, "code", out.code, parse_error_code);
  r.text("message", out.message);
  r.boolean("recoverable", out.recoverable);
}

void read_fields(field_reader& r, decompose_task& out) {
  r.text("problem", out.problem, true, true);
  read_enum(r, "task_type", out.task_type, parse_task_type);
}

void read_fields(field_reader& r, decomposition_result& out) {
  r.text("thought_granularity", out.thought_granularity);
  r.texts("intermediate_steps", out.intermediate_steps);
  r.integer("depth_estimate", out.depth_estimate, 1, kMaxSearchDepth);
  r.texts("constraints", out.constraints);
  r.text("success_criteria", out.success_criteria);
}

void read_fields(field_reader& r, generation_context& out) {
  r.text("problem", out.problem, true, true);
  r.text("goal", out.goal, false);
  r.texts("constraints", out.constraints, false);
}

template <class T>
void read_list(field_reader& r, std::string_view key, std::vector<T>& out, bool required = true);

void read_fields(field_reader& r, generate_thoughts& out) {
  read_nested(r, "parent_node", out.parent_node);
  read_enum(r, "generation_strategy", out.generation_strategy, parse_generation_strategy);
  r.integer("num_candidates", out.num_candidates, 1, kMaxCandidates);
  read_nested(r, "context", out.context);
}

void read_fields(field_reader& r, thought_candidate& out) {
  r.text("temp_id", out.temp_id, true, true);
  r.text("content", out.content, true, true);
  r.text("action_type", out.action_type, false);
  r.object("metadata", out.metadata, false);
}

// Ids within one list must be distinct: a model that names two candidates alike is refused.
template <class T, class Id>
void refuse_duplicates(field_reader& r, std::string_view key, const std::vector<T>& items, Id id_of) {
  std::set<std::string_view> seen;
  for (std::size_t i = 0; i < items.size() && r.ok(); ++i) {
    if (!seen.insert(id_of(items[i])).second) {
      r.fail(r.path_of(key) + "[" + std::to_string(i) + "]", "duplicate id '" + std::string(id_of(items[i])) + "'");
    }
  }
}

void read_fields(field_reader& r, generated_thoughts& out) {
  read_list(r, "candidates", out.candidates);
  refuse_duplicates(r, "candidates", out.candidates,
                    [](const thought_candidate& c) -> std::string_view { return c.temp_id; });
}

void read_fields(field_reader& r, evaluation_context& out) {
  r.text("problem", out.problem, true, true);
  r.text("goal", out.goal, false);
  r.integer("current_depth", out.current_depth, 0, kMaxSearchDepth + 1);
  r.integer("max_depth", out.max_depth, 1, kMaxSearchDepth);
}

void read_fields(field_reader& r, evaluate_thoughts& out) {
  read_list(r, "candidates", out.candidates);
  refuse_duplicates(r, "candidates", out.candidates, [](const thought_node& n) -> std::string_view { return n.id; });
  read_enum(r, "evaluation_strategy", out.evaluation_strategy, parse_evaluation_strategy);
  r.texts("evaluation_criteria", out.evaluation_criteria, false);
  read_nested(r, "context", out.context);
}

void read_fields(field_reader& r, thought_evaluation& out) {
  r.text("node_id", out.node_id, true, true);
  r.number("score", out.score, 0, kMaxScore);
  r.number("confidence", out.confidence, 0, 1);
  r.text("reasoning", out.reasoning, false);
  if (const auto* dims = r.field("dimension_scores", false); dims != nullptr) {
    if (!dims->is_object()) return r.fail(r.path_of("dimension_scores"), "must be an object of name → 0–10");
    field_reader inner(*dims, r.path_of("dimension_scores"));
    for (const auto& item : dims->get_object()) {
      double value = 0;
      inner.number(item.key(), value, 0, kMaxScore);
      out.dimension_scores[std::string(item.key())] = value;
    }
    if (auto done = inner.finish(); !done) r.adopt(done.err());
  }
}

void read_fields(field_reader& r, evaluation_results& out) {
  read_list(r, "evaluations", out.evaluations);
  refuse_duplicates(r, "evaluations", out.evaluations,
                    [](const thought_evaluation& e) -> std::string_view { return e.node_id; });
  r.texts("ranking", out.ranking, false);
  r.texts("pruning_suggestions", out.pruning_suggestions, false);
  if (!r.ok()) return;
  std::set<std::string_view> known;
  for (const auto& item : out.evaluations) known.insert(item.node_id);
  for (const auto* list : {&out.ranking, &out.pruning_suggestions}) {
    for (const auto& id : *list) {
      if (!known.contains(id)) {
        return r.fail(r.path_of(list == &out.ranking ? "ranking" : "pruning_suggestions"),
                      "'" + id + "' is not an evaluated node");
      }
    }
  }
}

void read_fields(field_reader& r, initialize_search& out) {
  r.text("problem", out.problem, true, true);
  read_enum(r, "task_type", out.task_type, parse_task_type);
  read_nested(r, "search_config", out.search_config);
  r.object("decomposition_result", out.decomposition_result, false);
}

void read_fields(field_reader& r, search_stats& out) {
  r.integer("total_nodes", out.total_nodes, 0, INT64_MAX);
  r.integer("total_backtracks", out.total_backtracks, 0, INT64_MAX);
  r.integer("llm_calls", out.llm_calls, 0, INT64_MAX);
}

void read_fields(field_reader& r, search_complete& out) {
  read_list(r, "best_path", out.best_path);
  refuse_duplicates(r, "best_path", out.best_path, [](const thought_node& n) -> std::string_view { return n.id; });
  read_nested(r, "tree", out.tree);
  read_nested(r, "stats", out.stats);
}

void read_fields(field_reader& r, synthesize_solution& out) {
  read_list(r, "best_path", out.best_path);
  refuse_duplicates(r, "best_path", out.best_path, [](const thought_node& n) -> std::string_view { return n.id; });
  r.text("problem", out.problem, true, true);
  read_enum(r, "task_type", out.task_type, parse_task_type);
}

void read_fields(field_reader& r, solution_verification& out) {
  r.boolean("is_valid", out.is_valid);
  r.texts("validation_errors", out.validation_errors, false);
}

void read_fields(field_reader& r, final_solution& out) {
  r.text("answer", out.answer);
  r.texts("reasoning_trace", out.reasoning_trace);
  r.number("confidence", out.confidence, 0, 1);
  read_nested(r, "verification", out.verification);
  r.texts("alternative_solutions", out.alternative_solutions, false);
}

template <class T>
result<T> read_value(const json::value& value, std::string path) {
  T out{};
  field_reader r(value, std::move(path));
  read_fields(r, out);
  PARLEY_TRY(r.finish());
  return out;
}

template <class T>
void read_nested(field_reader& parent, std::string_view key, T& out, bool required) {
  const json::value* found = parent.field(key, required);
  if (found == nullptr) return;
  auto value = read_value<T>(*found, parent.path_of(key));
  if (!value) return parent.adopt(value.err());
  out = std::move(*value);
}

template <class T>
void read_list(field_reader& r, std::string_view key, std::vector<T>& out, bool required) {
  const json::value* found = r.field(key, required);
  if (found == nullptr) return;
  const json::array* items = found->if_array();
  if (items == nullptr) return r.fail(r.path_of(key), "must be an array, got " + describe_kind(*found));
  out.clear();
  for (std::size_t i = 0; i < items->size(); ++i) {
    auto item = read_value<T>((*items)[i], r.path_of(key) + "[" + std::to_string(i) + "]");
    if (!item) return r.adopt(item.err());
    out.push_back(std::move(*item));
  }
}

// The payload alternative whose seed name is `type`, read from `value`.
template <std::size_t I = 0>
result<message_payload> read_payload_of(std::string_view type, const json::value& value) {
  if constexpr (I == std::variant_size_v<message_payload>) {
    return make_error(errc::invalid_argument, "type: '" + std::string(type.substr(0, 60)) + "' is not a message type");
  } else {
    using payload_type = std::variant_alternative_t<I, message_payload>;
    if (type_name_of(message_payload(std::in_place_index<I>)) == type) {
      auto read = read_value<payload_type>(value, "payload");
      if (!read) return std::move(read).err();
      return message_payload(std::in_place_index<I>, std::move(*read));
    }
    return read_payload_of<I + 1>(type, value);
  }
}

// A reply's JSON, also when a model wraps it in a ``` fence or adds prose around one object.
std::string_view json_part_of(std::string_view text) {
  const auto open = text.find('{');
  const auto close = text.rfind('}');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) return text;
  return text.substr(open, close - open + 1);
}

}  // namespace

result<thought_node> read_thought_node(const json::value& value, std::string path) {
  return read_value<thought_node>(value, std::move(path));
}
result<thought_tree> read_thought_tree(const json::value& value, std::string path) {
  return read_value<thought_tree>(value, std::move(path));
}
result<search_config> read_search_config(const json::value& value, std::string path) {
  return read_value<search_config>(value, std::move(path));
}
result<protocol_error> read_protocol_error(const json::value& value, std::string path) {
  return read_value<protocol_error>(value, std::move(path));
}

template <class Payload>
result<Payload> read_payload(const json::value& value, std::string path) {
  return read_value<Payload>(value, std::move(path));
}

result<message> read_message(const json::value& value) {
  message out;
  field_reader r(value, "");
  std::string from = "orchestrator";
  r.text("from", from, false);
  if (r.ok()) {
    auto role = parse_agent_role(from, "from");
    if (!role) return std::move(role).err();
    out.from = *role;
  }
  r.text("to", out.to, false);
  r.text("task_id", out.task_id, false);
  std::string type;
  r.text("type", type);
  const json::value* payload = r.field("payload", true);
  if (const json::value* err = r.field("error", false); err != nullptr) {
    auto read = read_protocol_error(*err);
    if (!read) return std::move(read).err();
    out.error = std::move(*read);
  }
  PARLEY_TRY(r.finish());
  auto read = read_payload_of(type, *payload);
  if (!read) return std::move(read).err();
  out.payload = std::move(*read);
  return out;
}

result<message> parse_message(std::string_view text) {
  auto value = parse_json_strict(json_part_of(text));
  if (!value) return std::move(value).err();
  return read_message(*value);
}

template <class Payload>
result<Payload> parse_reply(std::string_view text) {
  auto read = parse_message(text);
  if (!read) return std::move(read).err();
  if (read->error) {
    return make_error(errc::invalid_argument, "error: the reply reports " + std::string(name_of(read->error->code)) +
                                                  ": " + read->error->message);
  }
  auto* payload = std::get_if<Payload>(&read->payload);
  if (payload == nullptr) {
    return make_error(errc::invalid_argument, "type: expected '" +
                                                  std::string(type_name_of(message_payload(Payload{}))) + "', got '" +
                                                  std::string(type_name_of(read->payload)) + "'");
  }
  return std::move(*payload);
}

std::optional<protocol_error> reply_error(std::string_view text) {
  auto value = parse_json_strict(json_part_of(text));
  if (!value || !value->is_object()) return std::nullopt;
  const json::value* err = value->get_object().if_contains("error");
  if (err == nullptr || err->is_null()) return std::nullopt;
  auto read = read_protocol_error(*err);
  if (!read) return std::nullopt;  // a malformed error object is a format problem: parse_reply says so
  return std::move(*read);
}

result<void> check_problem(std::string_view problem, std::string_view field) {
  const std::string name(field);
  if (problem.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    return make_error(errc::invalid_argument, name + ": must not be empty");
  }
  if (problem.size() > kMaxProblemBytes) {
    return make_error(errc::invalid_argument, name + ": " + std::to_string(problem.size()) + " bytes is more than " +
                                                  std::to_string(kMaxProblemBytes));
  }
  if (!is_valid_utf8(problem)) return make_error(errc::invalid_argument, name + ": is not UTF-8");
  return ok();
}

#define PARLEY_TOT_INSTANTIATE(T)                                                 \
  template result<T> read_payload<T>(const json::value& value, std::string path); \
  template result<T> parse_reply<T>(std::string_view text);
PARLEY_TOT_INSTANTIATE(decompose_task)
PARLEY_TOT_INSTANTIATE(decomposition_result)
PARLEY_TOT_INSTANTIATE(generate_thoughts)
PARLEY_TOT_INSTANTIATE(generated_thoughts)
PARLEY_TOT_INSTANTIATE(evaluate_thoughts)
PARLEY_TOT_INSTANTIATE(evaluation_results)
PARLEY_TOT_INSTANTIATE(initialize_search)
PARLEY_TOT_INSTANTIATE(search_complete)
PARLEY_TOT_INSTANTIATE(synthesize_solution)
PARLEY_TOT_INSTANTIATE(final_solution)
#undef PARLEY_TOT_INSTANTIATE

}  // namespace parley::tot
