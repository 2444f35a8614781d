// MCP resources of a Parley team (docs/mcp.md, "Resources"): each root dialog the user takes part
// in, `parley://dialogs/<id>` (its subdialogs are read the same way, not listed), and each open
// question for the human, `parley://questions/<id>`, both as Markdown (mcp_transcript.hpp).
// resources/list gives the open questions first, then the root dialogs newest first, 50 a page,
// the next page named by an opaque nextCursor. Another user's dialog or question is as unknown as
// an id nobody made (-32002).
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>

#include <string_view>
#include <variant>

#include "parley/server/mcp_protocol.hpp"
#include "parley/server/server_context.hpp"
#include "parley/server/users.hpp"

namespace parley::server {

using resource_answer = std::variant<boost::json::object, mcp::rpc_error>;

// `params` without `_meta`.
boost::asio::awaitable<resource_answer> list_resources(server_context& context, const user& who,
                                                       const boost::json::object& params, std::string_view version);
boost::asio::awaitable<resource_answer> read_resource(server_context& context, const user& who,
                                                      const boost::json::object& params, std::string_view version);
// resources/templates/list's answer: the dialog URI with its id left open.
boost::json::object resource_templates(std::string_view version);

}  // namespace parley::server
