// PUT /api/dialogs/{id}/title (issue 43): a human names a dialog. The title is checked by the
// engine (engine/dialog_titles.hpp: not empty, at most 200 characters, no control character; a
// refusal names `title`) and written as the dialog's `title_changed`, which the model's own title
// never replaces.
#include "parley/server/flow_host.hpp"
#include "parley/server/rest_flow.hpp"
#include "parley/server/rest_handlers.hpp"
#include "parley/server/rest_support.hpp"

namespace parley::server::rest {

namespace {

// `{title}`: the checks are the engine's, the same for `parley title`.
struct set_title_request {
  std::string title;

  template <class S, class R>
  static void fields(S& s, R& r) {
    r.text("title", s.title);
  }
};

}  // namespace

handler_result put_title(server_context& context, const rest_request& request, std::string dialog_id) {
  auto row = co_await read_dialog(context, request, dialog_id);
  if (!row) co_return error_response(row.err());
  rest_response failure;
  const auto body = read_body<set_title_request>(request, true, failure);
  if (!body) co_return failure;
  // A flow's dialog is written by its flow host alone (flow_host.hpp).
  if (is_flow_member(context, row->member_id)) {
    co_return error_response(409, "conflict",
                             "dialog " + dialog_id + " is a flow's; its flow names it, and it cannot be retitled");
  }
  auto stored = co_await context.engine.titles().set_by_user(dialog_id, body->title);
  if (!stored) co_return error_response(stored.err());
  co_return json_response(200, boost::json::object{{"title", *stored}});
}

}  // namespace parley::server::rest
