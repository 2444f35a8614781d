// `POST /v1/chat/completions` (docs/server.md, "OpenAI-compatible endpoint"): the model names a
// member, and the messages start a root dialog with it — or, with the X-Parley-Dialog-Id header,
// go on with one. The answer is the root's last saying once its whole tree is at rest (subdialogs
// replied, or a question waits for the human), whole or streamed as the root says it, with the
// tokens of every model call the tree made for it.
//
// A refused request changes nothing: every field, the member and the dialog are checked before
// anything is written. A client that goes away mid-answer stops only its own stream; the dialog
// goes on.
#pragma once

#include <boost/asio/awaitable.hpp>

#include "parley/server/openai_router.hpp"

namespace parley::server {

boost::asio::awaitable<void> answer_chat_completion(server_context& context, const openai_request& request,
                                                    response_sink& sink);

}  // namespace parley::server
