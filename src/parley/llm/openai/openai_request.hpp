// Internal: the Chat Completions request body for a provider-neutral model request.
#pragma once

#include <boost/json/object.hpp>

#include "parley/llm/provider.hpp"

namespace parley::llm::openai {

// The system prompt becomes the first message; assistant tool calls and tool results keep their
// ids; request.params pass through (temperature, max_tokens, response_format, tool_choice ...)
// except the keys this function owns.
boost::json::object build_request_body(const model_request& request, bool streaming);

}  // namespace parley::llm::openai
