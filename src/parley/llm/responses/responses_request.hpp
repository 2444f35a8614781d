// Internal: the Responses API request body for a provider-neutral model request.
#pragma once

#include <boost/json/array.hpp>

#include <string>

#include "parley/core/result.hpp"
#include "parley/llm/provider.hpp"

namespace parley::llm::responses {

// The system prompt and any system-role messages become `instructions`; messages become input
// items: user and assistant `message`s (input_text / input_image, output_text), the assistant's
// reasoning items from its signature (responses_reasoning.hpp) before its text, `function_call`s,
// and `function_call_output`s (with input_image parts for an image a tool read). Always
// `store: false` with `include: ["reasoning.encrypted_content"]` (stateless, see
// responses_provider.hpp). request.params pass through except the keys this function owns;
// `max_tokens` is sent as `max_output_tokens`, and Dominds' `codex` object (reasoning_effort,
// reasoning_summary, service_tier, parallel_tool_calls, verbosity) is translated; a value of the
// wrong type there is an error naming it. The body has no "tools": the caller adds tools_json's text.
result<std::string> build_request_body(const model_request& request, bool streaming);

// The "tools" array: {"type":"function","name","description","parameters","strict":false}.
// Not strict: strict mode wants every property required and no additional ones, which the tools'
// schemas do not promise.
boost::json::array tools_json(const std::vector<tool_spec>& tools);

}  // namespace parley::llm::responses
