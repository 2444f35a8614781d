// Seed 002's "Human-001 × AI-002 对话窗口（唯一）": a human⇄AI private dialogue is one per human
// and AI, and a new conversation between them is a new session inside it. Parley's roots are also
// seed 001's tasks, each a dialog of its own, so the seed's rule is asked for on create
// (`POST /api/dialogs` with `reuse: true`, docs/server.md "One dialogue per human and AI"): the
// newest running human_ai root of the asking user with that member takes the message, in a new
// session, and the answer is 200 instead of 201.
#pragma once

#include <boost/asio/awaitable.hpp>

#include <optional>
#include <string>

#include "parley/core/result.hpp"
#include "parley/model/records.hpp"
#include "parley/server/dialog_requests.hpp"
#include "parley/server/server_context.hpp"

namespace parley::server {

// `reuse` where a dialog is not one human's chat with one AI: a 400 naming `reuse`.
result<void> check_reuse(const create_dialog_request& body, bool flow_member);

// The newest running human_ai root in which `user` alone talks with `member`; nullopt when none.
result<std::optional<dialog_row>> find_pair_dialog(server_context& context, const std::string& user,
                                                   const std::string& member);

// What decides the new dialogue session of `dialog_id` for the message that follows, staged with
// that message in one commit (engine::post_user_message_in_new_session): none when a turn is still
// pending there (the message joins the current session, as a turn never spans two) or the store
// keeps no records. The session's id is written to `opened_id`, which must outlive the post.
engine::session_opener reuse_session_opener(server_context& context, std::string dialog_id, std::string& opened_id);

}  // namespace parley::server
