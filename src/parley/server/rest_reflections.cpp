// POST /api/reflections (docs/records.md "Self-reflection by the agent itself"): a member reflects
// on a goal now, as the schedule makes it do every `--reflect-every`. Seed 002 keeps one reflection
// dialogue per member and kind (the goal); the first reflection of a kind creates it (201), every
// later one is a new self-reflection session in it (200, `reused: true`). A reflection of that kind
// still at work is 409 naming its dialog; nothing is started. Reflections take place in dialogs no
// human takes part in, so with users only an operator (`operator: true`) may start one.
#include <array>
#include <string_view>

#include "parley/model/conversation_reducer.hpp"
#include "parley/model/records_write_rules.hpp"
#include "parley/server/request_reader.hpp"
#include "parley/server/rest_handlers.hpp"
#include "parley/server/rest_support.hpp"

namespace parley::server::rest {
namespace {

constexpr std::size_t kMaxGoalBytes = 2048;

struct reflection_request {
  std::string member_id;
  std::string goal;
  events::trigger_source trigger_source = events::trigger_source::api;

  template <class S, class R>
  static void fields(S& s, R& r) {
    r.required_name("member_id", s.member_id, 256);
    r.required_text("goal", s.goal, kMaxGoalBytes);
    r.one_of("trigger_source", s.trigger_source, std::optional{events::trigger_source::api});
  }
};

}  // namespace

handler_result post_reflection(server_context& context, const rest_request& request, std::string /*id*/) {
  rest_response failure;
  const auto body = read_body<reflection_request>(request, false, failure);
  if (!body) co_return failure;
  const auto* member = context.engine.team().find_member(body->member_id);
  if (member == nullptr) {
    co_return field_error(
        make_error(errc::invalid_argument, "member_id: no member '" + body->member_id + "' in the team"));
  }
  if (!member->self_reflection) {
    co_return field_error(make_error(errc::invalid_argument, "member_id: member '" + body->member_id +
                                                                 "' does not reflect (self_reflection is off)"));
  }
  if (context.users.multi_user() && !request.who->sees_unowned) {
    co_return error_response(403, "forbidden", "only an operator starts a member's self-reflection");
  }
  auto started = co_await context.engine.start_reflection(
      body->member_id, std::string(events::to_wire(body->trigger_source)), body->goal);
  if (!started) co_return error_response(started.err());
  co_return json_response(started->reused ? 200 : 201,
                          boost::json::object{{"dialog_id", started->dialog_id},
                                              {"dialogue_id", dialogue_uuid(started->dialog_id)},
                                              {"session_id", started->session_id},
                                              {"reused", started->reused}});
}

}  // namespace parley::server::rest
