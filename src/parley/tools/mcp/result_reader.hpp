// The results of MCP requests read strictly into protocol_types.hpp: a member the schema requires
// that is missing, or any member of the wrong type, is an error naming it ("field
// 'result.content[1].text': expected a string, got a number"). Members the schema does not name
// (annotations, _meta, what later revisions add) are ignored, as the protocol asks. In a list, an
// entry that cannot be read is left out and named in the page's `skipped`.
#pragma once

#include <boost/json/value.hpp>

#include <vector>

#include "parley/core/result.hpp"
#include "parley/tools/mcp/protocol_types.hpp"

namespace parley::tools::mcp {

// `initialize`'s result. The protocol version is returned as the server wrote it; the session
// decides whether it is one Parley speaks.
result<server_identity> read_initialize_result(const boost::json::value& result);
result<listed_page<tool_info>> read_tools_page(const boost::json::value& result);
result<tool_call_result> read_tool_call_result(const boost::json::value& result);
result<listed_page<resource_info>> read_resources_page(const boost::json::value& result);
result<listed_page<resource_template_info>> read_resource_templates_page(const boost::json::value& result);
result<std::vector<resource_contents>> read_resource_result(const boost::json::value& result);
result<listed_page<prompt_info>> read_prompts_page(const boost::json::value& result);
result<prompt_result> read_prompt_result(const boost::json::value& result);

}  // namespace parley::tools::mcp
