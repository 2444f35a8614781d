// What one member tool call leaves in the log (tool_result, docs/events.md): the outcome the model
// is told, and for a tool of an MCP server the server, its name for the tool and the call's
// duration (issue 39, item 3). A call owed since the process that ran it died, of a tool that is
// not run again after a crash (tools::tool::rerun_after_crash, MCP tools), is recorded as
// interrupted instead: a failed result that says so, which the resumed dialog's model reads.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "parley/llm/provider.hpp"
#include "parley/model/events/message_events.hpp"
#include "parley/tools/tool.hpp"

namespace parley::engine {

struct tool_call_record {
  tools::tool_outcome outcome;
  std::optional<events::mcp_call> mcp;  // set when an MCP tool was called (or cut off)
  bool interrupted = false;             // cut off by a crash, not run again
};

// The log's record of the MCP call behind `used`, or nothing for Parley's own tools; the duration
// is absent for a call cut off by a crash.
std::optional<events::mcp_call> mcp_call_of(const tools::tool& used, std::optional<std::int64_t> duration_ms);

// What the model is told of a call of `used` (named `name` in the team) that a crash cut off.
tools::tool_outcome interrupted_outcome(const tools::tool& used, std::string_view name);

// The tool_result event of `call`, answered in generation `genseq` of `course`.
events::tool_result tool_result_of(std::int64_t course, std::int64_t genseq, const llm::tool_call& call,
                                   tool_call_record record);

}  // namespace parley::engine
