#include "parley/tools/mcp/transport_factory.hpp"

namespace parley::tools::mcp {

result<std::unique_ptr<transport>> make_transport(boost::asio::any_io_executor /*executor*/,
                                                  const std::string& server_id, const launch_plan& plan) {
  // The stdio and streamable HTTP transports are built on their own branches (issue 39); until
  // they are merged here, a server cannot be reached.
  const char* kind = plan.transport == config::mcp_transport::stdio ? "stdio" : "streamable_http";
  return make_error(errc::unavailable, "MCP server '" + server_id + "': this build of Parley has no " +
                                           std::string(kind) + " transport yet");
}

}  // namespace parley::tools::mcp
