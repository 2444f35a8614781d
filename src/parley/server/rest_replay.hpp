// rest_replay.cpp: POST /api/dialogs/{id}/replay (docs/fork.md "Replay").
#pragma once

#include <string>

#include "parley/server/rest_handlers.hpp"

namespace parley::server::rest {

handler_result post_replay(server_context& context, const rest_request& request, std::string dialog_id);

}  // namespace parley::server::rest
