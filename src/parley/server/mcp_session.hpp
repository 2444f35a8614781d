// One MCP client's session with the team (docs/mcp.md, "Parley as an MCP server"): the protocol
// core, free of any transport. It answers initialize (the revision negotiated), ping, tools/list
// and tools/call (mcp_tool_calls.hpp), resources/list, resources/read and
// resources/templates/list (mcp_resources.hpp), and takes notifications/initialized and
// notifications/cancelled. Every other method is -32601; params are read strictly, and an error
// names the member (-32602).
//
// Requests run concurrently (a tools/call waits for a team's answer while pings are answered); a
// transport calls handle_request for each and writes what it is given. Runs on the engine's
// executor, like everything that touches the engine.
#pragma once

#include <boost/asio/awaitable.hpp>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "parley/server/mcp_protocol.hpp"
#include "parley/server/mcp_request.hpp"

namespace parley::server {

class mcp_session {
 public:
  // `who` (a user of context.users) is the session's user: the dialogs it starts are theirs, and it
  // sees what they see. Both outlive the session.
  mcp_session(server_context& context, const user& who, mcp_settings settings);
  mcp_session(const mcp_session&) = delete;
  mcp_session& operator=(const mcp_session&) = delete;

  // Answers one request through `reply`: its response, unless it was cancelled or its client went
  // away (then nothing). Never throws: a bug in a handler is -32603.
  boost::asio::awaitable<void> handle_request(mcp::rpc_request request, mcp_reply& reply);
  // notifications/initialized, notifications/cancelled; any other is ignored, as JSON-RPC says.
  void handle_notification(const mcp::rpc_notification& notification);
  // The client is gone: every request still waiting stops, answering nothing, and a request that
  // comes later is not handled at all.
  void close();

  // Whether initialize was answered, and the revision it settled on.
  bool initialized() const noexcept { return !version_.empty(); }
  const std::string& protocol_version() const noexcept { return version_; }
  const user& who() const noexcept { return who_; }
  std::size_t requests_in_flight() const noexcept { return in_flight_.size(); }

 private:
  using answer = std::variant<boost::json::value, mcp::rpc_error>;
  // The answer to a request; nullopt: none is sent (cancelled, or the client left).
  boost::asio::awaitable<std::optional<answer>> dispatch(const mcp::rpc_request& request, mcp_call_env& env);
  answer initialize(const boost::json::object& params);

  server_context& context_;
  const user& who_;
  mcp_settings settings_;
  std::string version_;                                               // empty until initialize is answered
  bool closed_ = false;                                               // close(): nothing more is handled
  std::map<std::string, std::shared_ptr<request_cancel>> in_flight_;  // by the request id's text
};

}  // namespace parley::server
