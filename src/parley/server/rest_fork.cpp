// `POST /api/dialogs/{id}/fork` (docs/fork.md): a new root tree sharing the root's history up to a
// point. The plan is read on the read thread and written as one batch, so a refused point writes
// nothing; the answer is the new root's summary with where it came from.
#include <boost/asio/this_coro.hpp>

#include <limits>
#include <optional>

#include "parley/core/time.hpp"
#include "parley/server/rest_handlers.hpp"
#include "parley/server/rest_support.hpp"
#include "parley/server/store_reads.hpp"
#include "parley/store/async_append.hpp"
#include "parley/store/fork_history.hpp"
#include "parley/store/fork_plan.hpp"

namespace parley::server::rest {

namespace {

// `{at?: SEQ, atGeneration?: N}`: at most one of the two; neither forks after the latest event.
struct fork_request {
  std::optional<std::int64_t> at;
  std::optional<std::int64_t> at_generation;

  template <class S, class R>
  static void fields(S& s, R& r) {
    r.integer("at", s.at, 1, std::numeric_limits<std::int64_t>::max());
    r.integer("atGeneration", s.at_generation, 1, std::numeric_limits<std::int64_t>::max());
  }
  result<void> check() const {
    if (at && at_generation) return field_problem("atGeneration", "give either at or atGeneration, not both");
    return ok();
  }
};

}  // namespace

result<void> add_fork_origin(store& log, boost::json::object& summary, std::string_view dialog_id) {
  std::optional<fork_origin> origin;
  PARLEY_TRY_ASSIGN(origin, fork_origin_of(log, dialog_id));
  if (origin) summary["forkedFrom"] = boost::json::object{{"dialog", origin->dialog_id}, {"at", origin->through_seq}};
  return ok();
}

handler_result post_fork(server_context& context, const rest_request& request, std::string dialog_id) {
  auto row = co_await read_dialog(context, request, dialog_id);
  if (!row) co_return error_response(row.err());
  rest_response failure;
  const auto body = read_body<fork_request>(request, true, failure);
  if (!body) co_return failure;
  const fork_point point{body->at, body->at_generation};
  auto plan_it = [&log = context.log, id = dialog_id, point] { return plan_fork(log, id, point, now_ms()); };
  auto plan = co_await read_store(context, std::move(plan_it));
  if (!plan) co_return error_response(plan.err());
  const std::string fork_id = plan->fork_root_id;
  auto executor = co_await boost::asio::this_coro::executor;
  auto appended = co_await async_append(context.log, executor, std::move(plan->batch));
  if (!appended) co_return error_response(appended.err());
  auto respond = [&]() -> rest_response {
    auto forked = find_dialog(context, request, fork_id);
    if (!forked) return error_response(forked.err());
    boost::json::object summary = summary_of(context.log, *forked);
    if (auto added = add_fork_origin(context.log, summary, fork_id); !added) return error_response(added.err());
    return json_response(201, boost::json::object{{"dialog", std::move(summary)}});
  };
  co_return co_await read_reply(context, std::move(respond));
}

}  // namespace parley::server::rest
