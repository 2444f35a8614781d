#include "parley/tot/game24/game24_task.hpp"

#include <algorithm>

#include "parley/tot/game24/verifier.hpp"

namespace parley::tot::game24 {
namespace {

std::string action_type_of(char op) {
  switch (op) {
    case '+':
      return "addition";
    case '-':
      return "subtraction";
    case '*':
      return "multiplication";
    default:
      return "division";
  }
}

}  // namespace

result<state> state_of(const thought_node& node, std::string_view problem) {
  if (!node.metadata.empty()) return state::from_metadata(node.metadata);
  return state::from_puzzle(problem.empty() ? std::string_view(node.content) : problem);
}

result<thought_node> game24_task::make_root(const std::string& problem) {
  auto start = state::from_puzzle(problem);
  if (!start) return std::move(start).err();
  thought_node root;
  root.content = start->key();
  root.action_type = "puzzle";
  root.metadata = start->to_metadata();
  return root;
}

result<accepted_step> game24_task::accept(const thought_node& parent, const thought_candidate& candidate) {
  auto from = state_of(parent);
  if (!from) return std::move(from).err();
  const auto parsed = parse_step(candidate.content);
  if (!parsed) {
    return make_error(errc::invalid_argument, "'" + candidate.content.substr(0, 80) + "' is not a step 'a op b = c'");
  }
  auto next = from->apply(*parsed);
  if (!next) return std::move(next).err();
  accepted_step out;
  out.content = describe_step(*parsed, *next);
  out.metadata = next->to_metadata();
  out.state_key = next->key();
  return out;
}

std::optional<node_evaluation> game24_task::known_evaluation(const thought_node& node) {
  auto s = state_of(node);
  if (!s || !s->is_final()) return std::nullopt;
  if (s->is_solved()) return node_evaluation{10, 1, "24 is reached"};
  return node_evaluation{0, 1, "ends at " + s->numbers()[0].value.text() + ", not 24"};
}

bool game24_task::is_solution(const thought_node& node) {
  auto s = state_of(node);
  return s && s->is_solved();
}

bool game24_task::can_expand(const thought_node& node) {
  auto s = state_of(node);
  return s && !s->is_final();
}

std::optional<final_solution> game24_task::synthesize(const std::string& problem,
                                                      const std::vector<thought_node>& path) {
  final_solution out;
  for (std::size_t i = 1; i < path.size(); ++i)
    out.reasoning_trace.push_back("Step " + std::to_string(i) + ": " + path[i].content);
  auto last = path.empty() ? result<state>(make_error(errc::not_found, "no path")) : state_of(path.back());
  if (last && last->is_final()) out.answer = last->numbers()[0].expression + " = " + last->numbers()[0].value.text();
  const verdict checked = verify_answer(problem, out.answer.empty() ? "?" : out.answer);
  out.verification.is_valid = checked.valid;
  out.verification.validation_errors = checked.errors;
  if (out.answer.empty())
    out.verification.validation_errors.insert(out.verification.validation_errors.begin(),
                                              "the best path does not reach a single number");
  out.confidence = checked.valid ? 1.0 : 0.0;
  return out;
}

std::optional<solution_verification> game24_task::check_answer(const std::string& problem, const std::string& answer) {
  const verdict checked = verify_answer(problem, answer.empty() ? "?" : answer);
  return solution_verification{checked.valid, checked.errors};
}

std::vector<std::string> game24_task::constraints() const {
  return {"use each of the four numbers exactly once", "only + - * / and parentheses",
          "each step combines two numbers"};
}

boost::asio::awaitable<agent_answer<generated_thoughts>> symbolic_generator::generate(
    const generate_thoughts& request) {
  auto from = state_of(request.parent_node, request.context.problem);
  if (!from) co_return protocol_error{error_code::generation_failed, from.err().message, false};
  std::vector<std::pair<bool, thought_candidate>> ranked;
  for (const auto& move : from->moves()) {
    auto next = from->apply(move);
    if (!next) continue;
    thought_candidate candidate{
        "cand_" + std::to_string(ranked.size() + 1), describe_step(move, *next), action_type_of(move.op), {}};
    ranked.emplace_back(solver_.can_reach_24(*next), std::move(candidate));
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  generated_thoughts out;
  for (auto& [reachable, candidate] : ranked) {
    if (static_cast<std::int64_t>(out.candidates.size()) >= request.num_candidates) break;
    out.candidates.push_back(std::move(candidate));
  }
  co_return out;
}

boost::asio::awaitable<agent_answer<evaluation_results>> symbolic_evaluator::evaluate(
    const evaluate_thoughts& request) {
  evaluation_results out;
  for (const auto& node : request.candidates) {
    auto s = state_of(node, request.context.problem);
    if (!s)
      co_return protocol_error{error_code::invalid_format, "candidate " + node.id + ": " + s.err().message, false};
    ++states_valued_;
    const bool reachable = solver_.can_reach_24(*s);
    out.evaluations.push_back(
        {node.id,
         reachable ? 10.0 : 0.0,
         1.0,
         reachable ? "24 can still be reached from " + s->key() : "24 cannot be reached from " + s->key(),
         {{"correctness", 10}, {"progress", reachable ? 10.0 : 0.0}, {"feasibility", reachable ? 10.0 : 0.0}}});
    if (reachable) {
      out.ranking.insert(out.ranking.begin(), node.id);
    } else {
      out.ranking.push_back(node.id);
      out.pruning_suggestions.push_back(node.id);
    }
  }
  co_return out;
}

}  // namespace parley::tot::game24
