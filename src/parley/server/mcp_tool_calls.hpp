// tools/call (docs/mcp.md, "Parley as an MCP server"): `ask_<member>` starts a root dialog with
// the member (or posts to the root dialog `dialog_id` names, which must be the caller's and the
// member's), `answer_question` answers a question of the team (Q4H), `wait_for_answer` waits
// again for a dialog; each then waits for the tree (mcp_wait.hpp).
//
// An unknown tool and params that are not CallToolRequest's are protocol errors (-32602); bad
// arguments, a dialog or question the caller may not use and a dialog that refuses input are tool
// errors (isError), in words a model acts on, each naming the argument. A refused call changes
// nothing.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>

#include <optional>
#include <variant>

#include "parley/server/mcp_protocol.hpp"
#include "parley/server/mcp_request.hpp"

namespace parley::server {

// A CallToolResult, or a protocol error; nullopt when the call was cancelled or its client left.
using tool_call_answer = std::optional<std::variant<boost::json::object, mcp::rpc_error>>;

// `params` without `_meta` (the session read it into env.progress_token).
boost::asio::awaitable<tool_call_answer> call_tool(mcp_call_env& env, const boost::json::object& params);

}  // namespace parley::server
