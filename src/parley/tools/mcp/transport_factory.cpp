#include "parley/tools/mcp/transport_factory.hpp"

#include "parley/tools/mcp/stdio_transport.hpp"

namespace parley::tools::mcp {

result<std::unique_ptr<transport>> make_transport(boost::asio::any_io_executor executor, const std::string& server_id,
                                                  const server_launch& plan) {
  if (plan.transport == config::mcp_transport::stdio) {
    return std::unique_ptr<transport>(std::make_unique<stdio_transport>(std::move(executor), server_id,
                                                                        stdio_command{plan.argv, plan.cwd, plan.env}));
  }
  // The streamable HTTP transport is built on its own branch (issue 39); until it is merged here,
  // an HTTP server cannot be reached.
  return make_error(errc::unavailable,
                    "MCP server '" + server_id + "': this build of Parley has no streamable_http transport yet");
}

}  // namespace parley::tools::mcp
