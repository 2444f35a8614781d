// Internal: the Messages API request body for a provider-neutral model request.
#pragma once

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <string>

#include "parley/llm/provider.hpp"

namespace parley::llm::anthropic {

constexpr std::int64_t kDefaultMaxTokens = 4096;

// The system prompt (and any system-role messages) go to top-level `system`; messages become
// content blocks (text, thinking with its signature, tool_use, tool_result); tool results and the
// user text after them are merged into one user message, as the API wants. request.params pass
// through except the keys this function owns; max_tokens defaults to kDefaultMaxTokens.
// The body without "tools": the caller adds tools_json's text, which it makes once per tool list.
std::string build_request_body(const model_request& request, bool streaming);
// The "tools" array of the request body.
boost::json::array tools_json(const std::vector<tool_spec>& tools);

}  // namespace parley::llm::anthropic
