// POST /api/tot starts a Tree of Thoughts run (seed 003, src/parley/tot) and answers 202 with its
// task id and root dialog once the root exists; the run's agent calls then appear on the PubChan
// as subdialogs of that root. GET /api/tot/{taskId} returns the thought tree as it grows (scores,
// pruned branches, the best path) and, once done, the final_solution; a run this process did not
// start (before a restart) is read from its log folder.
#include <array>

#include "parley/core/json_fields.hpp"
#include "parley/server/rest_handlers.hpp"
#include "parley/server/rest_support.hpp"
#include "parley/server/server_context.hpp"
#include "parley/tot/engine_channel.hpp"
#include "parley/tot/run_board.hpp"

namespace parley::server::rest {
namespace {

// A number field read as the type the run takes; errors name the field.
result<std::optional<double>> optional_number(const boost::json::object& body, std::string_view key) {
  const auto* value = body.if_contains(key);
  if (value == nullptr || value->is_null()) return std::optional<double>{};
  if (!value->is_number()) {
    return make_error(errc::invalid_argument, std::string(key) + ": expected a number, got " + json_kind_name(*value));
  }
  return std::optional<double>(value->to_number<double>());
}

result<std::optional<std::int64_t>> optional_integer(const boost::json::object& body, std::string_view key) {
  auto number = optional_number(body, key);
  if (!number) return std::move(number).err();
  if (!*number) return std::optional<std::int64_t>{};
  const double value = **number;
  if (value != static_cast<double>(static_cast<std::int64_t>(value)) || value > 1e9 || value < -1e9) {
    return make_error(errc::invalid_argument, std::string(key) + ": expected an integer");
  }
  return std::optional<std::int64_t>(static_cast<std::int64_t>(value));
}

result<tot::tot_request> read_tot_request(const boost::json::object& body) {
  static constexpr std::array<std::string_view, 8> kFields{
      "problem", "taskType", "strategy", "depth", "breadth", "threshold", "generationStrategy", "evaluationStrategy"};
  PARLEY_TRY(only_fields(body, kFields));
  tot::tot_request request;
  auto problem = required_text(body, "problem");
  if (!problem) return std::move(problem).err();
  request.problem = std::move(*problem);
  auto type = optional_text(body, "taskType");
  if (!type) return std::move(type).err();
  if (!type->empty()) request.task_type = std::move(*type);
  auto strategy = optional_text(body, "strategy");
  if (!strategy) return std::move(strategy).err();
  if (!strategy->empty()) request.strategy = std::move(*strategy);
  auto depth = optional_integer(body, "depth");
  if (!depth) return std::move(depth).err();
  request.depth = *depth;
  auto breadth = optional_integer(body, "breadth");
  if (!breadth) return std::move(breadth).err();
  request.breadth = *breadth;
  auto threshold = optional_number(body, "threshold");
  if (!threshold) return std::move(threshold).err();
  request.threshold = *threshold;
  // The seed's generation_strategy / evaluation_strategy names, checked by the run's request.
  auto generation = optional_text(body, "generationStrategy");
  if (!generation) return std::move(generation).err();
  if (!generation->empty()) request.generation = std::move(*generation);
  auto evaluation = optional_text(body, "evaluationStrategy");
  if (!evaluation) return std::move(evaluation).err();
  if (!evaluation->empty()) request.evaluation = std::move(*evaluation);
  return request;
}

}  // namespace

handler_result post_tot(server_context& context, const rest_request& request, std::string /*id*/) {
  if (context.tot_runs == nullptr) co_return error_response(404, "not_found", "this server runs no ToT searches");
  rest_response failure;
  const auto body = parse_body_object(request.body, false, failure);
  if (!body) co_return failure;
  auto asked = read_tot_request(*body);
  if (!asked) co_return field_error(asked.err());
  auto started = co_await context.tot_runs->start(std::move(*asked));
  if (!started) {
    // The request's own fields were checked by start(); anything else is the server's trouble.
    if (started.err().code == errc::invalid_argument) co_return field_error(started.err());
    co_return error_response(started.err());
  }
  co_return json_response(202, {{"taskId", started->task_id}, {"rootDialog", started->root_dialog}});
}

handler_result list_tot(server_context& context, const rest_request& request, std::string /*id*/) {
  if (context.tot_runs == nullptr) co_return error_response(404, "not_found", "this server runs no ToT searches");
  for (const auto& [key, value] : request.query) {
    if (key != "rootDialog") co_return error_response(400, "bad_field", key.substr(0, 40) + ": unknown parameter");
  }
  const auto root = request.query.find("rootDialog");
  if (root == request.query.end() || root->second.empty()) {
    co_return error_response(400, "bad_field", "rootDialog: required (the run's root dialog id)");
  }
  // Whoever may see the root may see its runs; an unknown root is a 404 like everywhere else.
  auto row = co_await read_dialog(context, request, root->second);
  if (!row) co_return error_response(row.err());
  boost::json::array runs;
  // Only a run's root (held by its orchestrator) has one; other roots are not looked up.
  if (row->member_id == tot::member_id_of(tot::agent_role::orchestrator)) {
    if (auto view = co_await context.tot_runs->view_of_root(root->second)) runs.emplace_back(std::move(*view));
  }
  co_return json_response(200, {{"runs", std::move(runs)}});
}

handler_result get_tot(server_context& context, const rest_request& request, std::string id) {
  if (context.tot_runs == nullptr) co_return error_response(404, "not_found", "this server runs no ToT searches");
  auto view = co_await context.tot_runs->view(id);
  if (!view) co_return error_response(404, "not_found", "no ToT run '" + id.substr(0, 40) + "'");
  // Whoever may see the run's root may see its tree.
  // The run's view (tot_runs) always names its root dialog.
  json_fields view_fields(*view, "view");
  const std::string root_dialog = view_fields.string("rootDialog");
  if (!view_fields.ok()) co_return error_response(make_error(errc::internal, view_fields.message()));
  auto row = co_await read_dialog(context, request, root_dialog);
  if (!row) co_return error_response(row.err());
  co_return json_response(200, std::move(*view));
}

}  // namespace parley::server::rest
