// Internal: the Chat Completions request body for a provider-neutral model request.
#pragma once

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <string>

#include "parley/llm/provider.hpp"

namespace parley::llm::openai {

// The system prompt becomes the first message; assistant tool calls and tool results keep their
// ids; request.params pass through (temperature, max_tokens, response_format, tool_choice ...)
// except the keys this function owns.
// The body without "tools": the caller adds tools_json's text, which it makes once per tool list.
std::string build_request_body(const model_request& request, bool streaming);
// The "tools" array of the request body.
boost::json::array tools_json(const std::vector<tool_spec>& tools);

}  // namespace parley::llm::openai
