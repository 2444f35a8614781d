// One tool of an MCP server as a Parley tool (tools/tool.hpp): its name in the team (after the
// configured transforms), the server's description, its normalised schema (schema_normaliser.hpp),
// and an invoke that calls the server. The engine checks the model's arguments against the schema
// before invoke, as for a built-in tool.
//
// What the model is given back:
//   - text blocks, joined by blank lines;
//   - an image as the image itself when the member's model takes images (ctx.takes_images; the
//     first one: a tool result carries one), else one line saying it was not shown;
//   - audio, a resource link and an embedded resource as a line naming them (with their URI),
//     the embedded resource's text after it;
//   - structuredContent as JSON when the server sent no text;
//   - isError as a failed call (ok=false) with the server's words.
// A call that fails (a timeout, the server dying, a result over max_result_bytes, a server that is
// restarting) is a failed call too, with a sentence that says what the model can do about it.
// Every call has effects as far as Parley knows (an MCP tool may write anything), and one cut off
// by a crash is never run again (rerun_after_crash).
#pragma once

#include <memory>
#include <string>

#include "parley/tools/mcp/protocol_types.hpp"
#include "parley/tools/mcp/server_runtime.hpp"
#include "parley/tools/tool.hpp"

namespace parley::tools::mcp {

class mcp_tool : public tools::tool {
 public:
  // `remote_name`: the server's own name for the tool, which the call sends; `spec.name` is the
  // team's name for it.
  mcp_tool(std::weak_ptr<server_runtime> server, std::string server_id, std::string remote_name, tool_spec spec);

  const tool_spec& spec() const override { return spec_; }
  boost::asio::awaitable<tool_outcome> invoke(const boost::json::object& args, const tool_context& ctx) override;
  bool has_effects() const override { return true; }
  // MCP has no place for the idempotency key, so a call cut off by a crash is not run again: the
  // model is told it was interrupted (docs/mcp.md, "Calls").
  bool rerun_after_crash() const override { return false; }
  const mcp_origin* mcp() const override { return &origin_; }

  const std::string& server_id() const noexcept { return origin_.server_id; }
  const std::string& remote_name() const noexcept { return origin_.remote_name; }

 private:
  std::weak_ptr<server_runtime> server_;
  mcp_origin origin_;
  tool_spec spec_;
};

// What the model is told of a result (see above); `tool_name` is the team's name for the tool.
tool_outcome outcome_of(const tool_call_result& result, bool takes_images);
// What the model is told of a call that failed.
tool_outcome failed_call(const error& problem, std::string_view tool_name);

}  // namespace parley::tools::mcp
