// The MCP server's side of the protocol's framing (docs/mcp.md, "Parley as an MCP server"): the
// revisions it speaks, how one message a client sent is read, and the error answers JSON-RPC
// prescribes for what cannot be read. Shared by the session (mcp_session.hpp) and both
// transports (mcp_stdio.hpp, mcp_http.hpp); the JSON-RPC codec itself is tools/mcp/json_rpc.hpp.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "parley/tools/mcp/json_rpc.hpp"

namespace parley::server {

namespace mcp = tools::mcp;

// The newest revision first; a client asking for another is answered with the newest.
inline constexpr std::string_view kMcpLatestVersion = "2025-11-25";
std::span<const std::string_view> mcp_supported_versions();
bool is_supported_mcp_version(std::string_view version);
// The client's revision when Parley speaks it, else kMcpLatestVersion (the client then decides).
std::string negotiate_mcp_version(std::string_view requested);
// What a revision added: progress messages (2025-03-26), structured tool output and titles
// (2025-06-18). Revisions are dates, so they compare as text.
bool mcp_version_has_progress_message(std::string_view version);
bool mcp_version_has_structured_output(std::string_view version);

// MCP's own error code for a resource that does not exist.
inline constexpr int kMcpResourceNotFound = -32002;

// One message as a client sent it: the message, or the error response it earns (a parse error
// or an invalid request, with the request's id when it had a usable one, else null).
struct incoming_message {
  std::optional<mcp::rpc_message> message;
  std::string refusal;       // the serialized error response; empty when `message` is set
  bool parse_error = false;  // the text is not JSON (-32700), rather than not a message (-32600)
};
incoming_message read_incoming(std::string_view text);

// An error response to nothing a client can name: `"id": null`.
std::string null_id_error(int code, std::string_view message);

}  // namespace parley::server
