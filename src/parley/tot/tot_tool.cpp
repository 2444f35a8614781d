#include "parley/tot/tot_tool.hpp"

#include <boost/json/serialize.hpp>

#include <algorithm>

#include "parley/core/json_fields.hpp"
#include "parley/tot/protocol_json.hpp"
#include "parley/tot/run_board.hpp"
#include "parley/tot/tot_run.hpp"
#include "parley/tot/tot_team.hpp"

namespace parley::tot {
namespace {

boost::json::object schema() {
  return {{"type", "object"},
          {"additionalProperties", false},
          {"required", boost::json::array{"problem"}},
          {"properties",
           {{"problem", {{"type", "string"}, {"minLength", 1}, {"maxLength", kMaxProblemBytes}}},
            {"task_type",
             {{"type", "string"},
              {"enum", boost::json::array{"math_reasoning", "creative_writing", "planning", "debugging",
                                          "architecture_design"}}}},
            {"strategy", {{"type", "string"}, {"enum", boost::json::array{"BFS", "DFS"}}}},
            {"depth", {{"type", "integer"}, {"minimum", 1}, {"maximum", kMaxSearchDepth}}},
            {"breadth", {{"type", "integer"}, {"minimum", 1}, {"maximum", kMaxBranchingFactor}}},
            {"threshold", {{"type", "number"}, {"minimum", 0}, {"maximum", kMaxScore}}},
            {"generation_strategy",
             {{"type", "string"}, {"enum", boost::json::array{"independent_sampling", "sequential_proposal"}}}},
            {"evaluation_strategy",
             {{"type", "string"}, {"enum", boost::json::array{"independent_scoring", "comparative_voting"}}}}}}};
}

class tree_of_thoughts_tool final : public tools::tool {
 public:
  explicit tree_of_thoughts_tool(std::shared_ptr<tot_tool_binding> binding) : binding_(std::move(binding)) {
    spec_.name = kTreeOfThoughtsTool;
    spec_.description =
        "Solve a problem by a Tree of Thoughts search: candidate steps are generated, scored 0-10 and pruned, "
        "breadth-first or depth-first, by the team's ToT members. Returns the final answer, its reasoning trace, "
        "and whether it was verified. Use for puzzles (e.g. Game of 24: problem '4 9 10 13'), plans and designs "
        "where exploring alternatives pays.";
    spec_.parameters = schema();
  }
  const llm::tool_spec& spec() const override { return spec_; }

  boost::asio::awaitable<tools::tool_outcome> invoke(const boost::json::object& args,
                                                     const tools::tool_context&) override {
    if (binding_->engine == nullptr) co_return tools::tool_outcome{false, "tree_of_thoughts is not available here"};
    json_fields in(args);
    tot_request request;
    request.problem = in.string("problem");
    // Absent: tot_request's default task type; the search options' defaults are the task type's.
    if (auto task_type = in.optional_string("task_type")) request.task_type = std::move(*task_type);
    request.strategy = in.optional_string("strategy");
    request.depth = in.optional_integer("depth");
    request.breadth = in.optional_integer("breadth");
    request.threshold = in.optional_number("threshold");
    request.generation = in.optional_string("generation_strategy");
    request.evaluation = in.optional_string("evaluation_strategy");
    if (!in.ok()) co_return tools::tool_outcome{false, in.message()};
    auto outcome = co_await run(std::move(request));
    if (!outcome) co_return tools::tool_outcome{false, outcome.err().message};
    const message final_message{agent_role::orchestrator, "caller", outcome->solution, outcome->task_id, std::nullopt};
    boost::json::object out{{"task_id", outcome->task_id},
                            {"root_dialog", outcome->root_dialog},
                            {"solved", outcome->solved},
                            {"llm_calls", outcome->stats.llm_calls},
                            {"final_solution", to_json(final_message).at("payload")}};
    co_return tools::tool_outcome{true, boost::json::serialize(out)};
  }

 private:
  boost::asio::awaitable<result<tot_outcome>> run(tot_request request) const {
    if (binding_->board != nullptr) co_return co_await binding_->board->run(std::move(request));
    tot_runner runner(*binding_->engine, binding_->logs);
    co_return co_await runner.run(std::move(request));
  }

  std::shared_ptr<tot_tool_binding> binding_;
  llm::tool_spec spec_;
};

}  // namespace

void offer_tree_of_thoughts(config::team_config& team, tools::tool_registry& registry,
                            std::shared_ptr<tot_tool_binding> binding) {
  registry.add(std::make_unique<tree_of_thoughts_tool>(std::move(binding)));
  const auto user = std::find_if(team.members.begin(), team.members.end(), [](const config::member_config& m) {
    return std::find(m.tools.begin(), m.tools.end(), kTreeOfThoughtsTool) != m.tools.end();
  });
  if (user == team.members.end()) return;
  const std::string provider = user->provider;
  const std::string model = user->model;
  add_tot_members(team, std::nullopt, provider, model);
}

}  // namespace parley::tot
