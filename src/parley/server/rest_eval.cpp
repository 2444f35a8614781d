// `parley diff` and `parley eval` over REST (docs/eval.md "Over REST"): two trees aligned, and the
// eval runs recorded in the data directory, for the runs page.
#include <boost/json/array.hpp>

#include "parley/eval/run_store.hpp"
#include "parley/eval/tree_diff.hpp"
#include "parley/server/rest_handlers.hpp"
#include "parley/server/rest_support.hpp"
#include "parley/server/store_reads.hpp"

namespace parley::server::rest {
namespace {

// The tree of a root the asker may see: another user's is not found, as every route says.
result<eval::tree_summary> rest_diff_tree(server_context& context, const rest_request& request,
                                          const config::team_config& prices, const std::string& id) {
  auto row = find_dialog(context, request, id);
  if (!row) return std::move(row).err();
  if (row->kind != events::dialog_kind::root) {
    return make_error(errc::invalid_argument, "dialog " + id + " is a subdialog; diff its root " + row->root_id);
  }
  auto events = eval::read_tree(context.log, id);
  if (!events) return std::move(events).err();
  return eval::summarize_tree(id, *events, &prices);
}

result<std::string> rest_diff_param(const rest_request& request, std::string_view key) {
  const auto found = request.query.find(key);
  if (found == request.query.end() || found->second.empty()) {
    return make_error(errc::invalid_argument, "query parameter '" + std::string(key) + "': expected a root dialog id");
  }
  return found->second;
}

// A run is seen by whoever may see its trees: their roots have the run's owner as their human
// (docs/eval.md "Runs"), so the rule is the dialogs' own — one user never sees another's run, a run
// of no one's is the operators'.
bool rest_may_see_run(const server_context& context, const rest_request& request, const eval::eval_run& run) {
  if (!context.users.multi_user()) return true;
  if (request.who == nullptr) return false;
  dialog_row root;
  if (!run.owner.empty()) root.humans.push_back(run.owner);
  return context.users.may_see(*request.who, root);
}

// A run file that does not read has no owner to check: what is wrong with it (a path of the
// server's data directory) is said to an operator only.
bool rest_sees_unreadable_runs(const server_context& context, const rest_request& request) {
  return !context.users.multi_user() || (request.who != nullptr && request.who->sees_unowned);
}

boost::json::object rest_run_summary(const eval::eval_run& run) {
  std::int64_t attempts = 0;
  for (const auto& one : run.cases) attempts += static_cast<std::int64_t>(one.attempts.size());
  return {
      {"id", run.id},
      {"suite", run.suite},
      {"startedMs", run.started_ms},
      {"finishedMs", run.finished_ms},
      {"repeat", run.repeat},
      {"owner", run.owner},
      {"comparedWith", run.compared_with.empty() ? boost::json::value(nullptr) : boost::json::value(run.compared_with)},
      {"cases", static_cast<std::int64_t>(run.cases.size())},
      {"attempts", attempts},
      {"passRate", run.pass_rate()}};
}

}  // namespace

handler_result get_diff(server_context& context, const rest_request& request, std::string) {
  auto a = rest_diff_param(request, "a");
  if (!a) co_return field_error(a.err());
  auto b = rest_diff_param(request, "b");
  if (!b) co_return field_error(b.err());
  // A copy for the read thread, which must not touch the engine.
  const config::team_config prices = context.engine.team();
  auto read = [&]() -> rest_response {
    auto tree_a = rest_diff_tree(context, request, prices, *a);
    if (!tree_a) return error_response(tree_a.err());
    auto tree_b = rest_diff_tree(context, request, prices, *b);
    if (!tree_b) return error_response(tree_b.err());
    return json_response(200, eval::diff_to_json(eval::diff_trees(*tree_a, *tree_b)));
  };
  co_return co_await read_reply(context, std::move(read));
}

handler_result list_eval_runs(server_context& context, const rest_request& request, std::string) {
  if (context.data_dir.empty())
    co_return error_response(404, "not_found", "no eval runs: the server has no data directory");
  const std::filesystem::path data_dir = context.data_dir;
  auto read = [&context, &request, data_dir]() -> rest_response {
    std::vector<std::string> skipped;
    auto runs = eval::list_runs(data_dir, skipped);
    if (!runs) return error_response(runs.err());
    boost::json::array list;
    for (const auto& run : *runs) {
      if (rest_may_see_run(context, request, run)) list.push_back(rest_run_summary(run));
    }
    if (!rest_sees_unreadable_runs(context, request)) skipped.clear();
    boost::json::array problems;
    for (const auto& problem : skipped) problems.emplace_back(problem);
    return json_response(200, boost::json::object{{"runs", std::move(list)}, {"unreadable", std::move(problems)}});
  };
  co_return co_await read_reply(context, std::move(read));
}

handler_result get_eval_run(server_context& context, const rest_request& request, std::string id) {
  if (context.data_dir.empty())
    co_return error_response(404, "not_found", "no eval runs: the server has no data directory");
  const std::filesystem::path data_dir = context.data_dir;
  auto read = [&context, &request, data_dir, id]() -> rest_response {
    const auto not_found = [&] {
      return error_response(404, "not_found", "no eval run '" + id + "' in " + eval::runs_dir(data_dir).string());
    };
    auto run = eval::load_run(data_dir, id);
    // A file that does not read has no owner to check: only an operator learns what is wrong with it.
    if (!run && run.err().code == errc::corrupt && !rest_sees_unreadable_runs(context, request)) return not_found();
    if (!run) return error_response(run.err());
    // Another user's run does not exist for this one, as another user's dialog (the same answer).
    if (!rest_may_see_run(context, request, *run)) return not_found();
    auto body = eval::run_to_json(*run);
    return json_response(200, std::move(body));
  };
  co_return co_await read_reply(context, std::move(read));
}

}  // namespace parley::server::rest
