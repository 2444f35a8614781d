// Seed 004's flows over REST (docs/server.md "Flows"): a flow's dialog is read as its thread —
// `GET /api/dialogs/{id}/thread[?path=messages.3.meta._thread]` — and the routes that create and
// post to dialogs hand a flow member's dialogs to the flow host instead of the engine. Internal to
// the module.
#pragma once

#include <optional>
#include <string>

#include "parley/server/rest_handlers.hpp"
#include "parley/server/rest_support.hpp"
#include "parley/store/store.hpp"

namespace parley::server::rest {

// Whether `member_id` is a flow member this server runs.
bool is_flow_member(const server_context& context, std::string_view member_id);

// `POST /api/dialogs` for a flow member: a new main thread whose first message is `input`, run until
// the flow waits; 201 with {dialog, flow}. A flow takes text only: an attachment or a Taskdoc is a 400.
// A retry (the client's msgId, taken already) answers with the dialog it made, as below.
handler_result create_flow_dialog(server_context& context, const rest_request& request, std::string member_id,
                                  const user_input& input, bool with_attachment, bool with_task_doc);

// `POST /api/dialogs/{id}/messages` to a flow's dialog: the user's message, run until the flow waits
// again; 200 with {msgId, flow}. 409 while the flow still works on the last one or once it is completed.
// A retry of a message the flow took (its msgId) is answered with the thread and takes nothing
// again (flow_host::retried); the same msgId with another body is a 409 naming msgId.
handler_result post_flow_message(server_context& context, const rest_request& request, const dialog_row& row,
                                 const user_input& input, bool with_attachment);

}  // namespace parley::server::rest
